"""The detectors of the redaction layer: where in a text a secret is.

Three families, tried on every text (see `find_secrets`):

- Formats that are secret by their shape alone: known token prefixes (AKIA, ghp_,
  github_pat_, glpat-, sk-proj-, xoxb-, ...; the list follows detect-secrets' and gitleaks'
  plugins), private key blocks, JWTs, card numbers that pass the Luhn check.
- Values that are secret by what names them: an assignment to a key whose name has a secret
  word as one of its parts (JSON, YAML, TOML, INI, .env, XML, PHP arrays, markdown
  `**Password**: x`, CLI flags `--password x`), credentials in URLs, HTTP authorization and
  cookie headers, `.netrc` and `.pgpass` lines, shell history (`mysql -pX`, `sshpass -p X`,
  `curl -u user:X`), prose ("the password is X"), `user / pass` pairs.
- High-entropy tokens with a secret word shortly before them on the same line.

A detector returns spans; overlapping spans merge, and the caller replaces them. Value
checks keep ordinary code out (`token = self.read_token()`, `password=password`,
`api_key_env = "OPENAI_API_KEY"`, placeholders like `<token>` or `${DB_PASSWORD}`), which
is where hand-grown regexes and generic detectors both produce their false positives.
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .codes import BACKUP_TRIGGERS, OTP_TRIGGERS, find_one_time_codes, present
from .ids import card_network_ok, find_numbers, iban_checks, luhn, may_hold_id
from .placeholders import is_placeholder

PLACEHOLDER_PREFIX = "[REDACTED"


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    kind: str


# -- formats secret by their shape ------------------------------------------------------

# Formats matched inside one run of token characters (a "candidate") that holds one of the
# formats' prefixes (_QUICK_TOKEN, below): scanning only such runs of 16 or more characters
# keeps the formats cheap on ordinary text. A format added here needs its prefix there too.
TOKEN_FORMATS: tuple[tuple[str, str], ...] = (
    ("AWS_KEY", r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b"),
    ("GITHUB_TOKEN", r"\bgh[pousr]_[A-Za-z0-9]{30,}"),
    ("GITHUB_TOKEN", r"\bgithub_pat_[A-Za-z0-9_]{40,}"),
    ("GITLAB_TOKEN", r"\bgl(?:pat|dt|rt|ptt|cbt|imt|oas)-[A-Za-z0-9_\-]{20,}"),
    ("SLACK_TOKEN", r"\bxox[abposrce]-[A-Za-z0-9-]{10,}"),
    ("SLACK_WEBHOOK", r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]{20,}"),
    ("API_KEY", r"\bsk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_\-]{20,}"),
    ("STRIPE_KEY", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),  # pk_ (publishable) is public
    ("WEBHOOK_SECRET", r"\bwhsec_[A-Za-z0-9+/=]{20,}"),
    ("GOOGLE_KEY", r"\bAIza[0-9A-Za-z_\-]{35}"),
    ("GOOGLE_TOKEN", r"\bya29\.[0-9A-Za-z_\-]{20,}"),
    ("GOOGLE_SECRET", r"\bGOCSPX-[A-Za-z0-9_\-]{20,}"),
    ("SENDGRID_KEY", r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    ("TWILIO_KEY", r"\bSK[0-9a-fA-F]{32}\b"),
    ("NPM_TOKEN", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("PYPI_TOKEN", r"\bpypi-AgE[A-Za-z0-9_\-]{40,}"),
    ("HUGGINGFACE_TOKEN", r"\bhf_[A-Za-z0-9]{30,}\b"),
    ("DIGITALOCEAN_TOKEN", r"\bdo[por]_v1_[a-f0-9]{64}\b"),
    ("SHOPIFY_TOKEN", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    ("MAILGUN_KEY", r"\bkey-[0-9a-zA-Z]{32}\b"),
    ("MAILCHIMP_KEY", r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    ("TELEGRAM_TOKEN", r"(?:\b|(?<=/bot))\d{8,10}:AA[A-Za-z0-9_\-]{33}\b"),
    ("DISCORD_TOKEN", r"\b[MNO][A-Za-z\d_\-]{23,25}\.[\w\-]{6}\.[\w\-]{27,}"),
    ("SQUARE_TOKEN", r"\bsq0(?:atp|csp)-[0-9A-Za-z_\-]{22,}"),
    ("ATLASSIAN_TOKEN", r"\bATATT3[A-Za-z0-9_\-=]{60,}"),
    ("LINEAR_KEY", r"\blin_api_[A-Za-z0-9]{40}\b"),
    ("NOTION_TOKEN", r"\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})\b"),
    ("VAULT_TOKEN", r"\bhv[sb]\.[A-Za-z0-9_\-]{24,}"),
    ("DATABRICKS_TOKEN", r"\bdapi[a-f0-9]{32}\b"),
    ("GRAFANA_TOKEN", r"\bgls[ac]_[A-Za-z0-9_]{32,}"),
    ("NEWRELIC_KEY", r"\bNRA[KI]-[A-Z0-9]{27}\b"),
    ("POSTMAN_KEY", r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    ("AGE_KEY", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"),
    ("AZURE_KEY", r"\b[Aa]ccount[Kk]ey=[A-Za-z0-9+/]{40,}={0,2}"),
    ("AZURE_SAS", r"\bsig=[A-Za-z0-9%+/=]{30,}"),
    ("JWT", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    ("AIRTABLE_TOKEN", r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"),
    ("TWITCH_TOKEN", r"\boauth:[a-z0-9]{30}\b"),
    ("PRIVATE_KEY", r"\b[xyztuv]prv[1-9A-HJ-NP-Za-km-z]{100,112}\b"),  # BIP-32 extended private key (xpub is public)
    # AI services, developer platforms and clouds whose tokens carry a prefix of their own
    ("API_KEY", r"\bgsk_[A-Za-z0-9]{48,}"),  # Groq
    ("API_KEY", r"\bxai-[A-Za-z0-9]{60,}"),  # xAI
    ("API_KEY", r"\bpplx-[A-Za-z0-9]{40,}"),  # Perplexity
    ("API_KEY", r"\br8_[A-Za-z0-9]{37}\b"),  # Replicate
    ("ONEPASSWORD_TOKEN", r"\bops_eyJ[A-Za-z0-9+/]{100,}={0,3}"),
    ("ONEPASSWORD_KEY", r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b"),
    ("ADOBE_SECRET", r"\bp8e-[A-Za-z0-9]{32}\b"),
    ("ALIBABA_KEY", r"\bLTAI[A-Za-z0-9]{20}\b"),
    ("ARTIFACTORY_KEY", r"\bAKCp[A-Za-z0-9]{69}\b"),
    ("AZURE_SECRET", r"(?<![\w~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![\w~.\-])"),
    ("CLOJURE_TOKEN", r"\bCLOJARS_[a-z0-9]{60}\b"),
    ("CLOUDFLARE_KEY", r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b"),
    ("DOCKER_TOKEN", r"\bdckr_pat_[A-Za-z0-9_\-]{27,}"),
    ("DOPPLER_TOKEN", r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_\-]{2,35}\.)?[A-Za-z0-9]{40,44}\b"),
    ("DYNATRACE_TOKEN", r"\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b"),
    ("EASYPOST_KEY", r"\bEZ[AT]K[A-Za-z0-9]{54}\b"),
    ("FIGMA_TOKEN", r"\bfigd_[A-Za-z0-9_\-]{40}"),
    ("FLY_TOKEN", r"\bfo1_[A-Za-z0-9_\-]{43}"),
    ("FLUTTERWAVE_KEY", r"\bFLW(?:SEC|PUB)K(?:_TEST)?-[a-h0-9]{32}-X\b"),
    ("GITLAB_TOKEN", r"\bGR1348941[A-Za-z0-9_\-]{20}\b"),
    ("GRAFANA_TOKEN", r"\bglc_[A-Za-z0-9+/]{32,}={0,2}"),
    ("HARNESS_TOKEN", r"\b(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b"),
    ("HEROKU_KEY", r"\bHRKU-AA[A-Za-z0-9_\-]{58}\b"),
    ("MAPBOX_TOKEN", r"\bsk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}"),
    ("NETLIFY_TOKEN", r"\bnfp_[A-Za-z0-9]{36}\b"),
    ("NUGET_KEY", r"\boy2[a-z0-9]{43}\b"),
    ("OPENSHIFT_TOKEN", r"\bsha256~[A-Za-z0-9_\-]{43}\b"),
    ("PLANETSCALE_TOKEN", r"\bpscale_(?:pw|tkn|oauth)_[A-Za-z0-9_=.\-]{32,64}"),
    ("PREFECT_KEY", r"\bpnu_[A-Za-z0-9]{36}\b"),
    ("PULUMI_TOKEN", r"\bpul-[a-f0-9]{40}\b"),
    ("README_KEY", r"\brdme_[a-z0-9]{70}\b"),
    ("RUBYGEMS_KEY", r"\brubygems_[a-f0-9]{48}\b"),
    ("SENDINBLUE_KEY", r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b"),
    ("SENTRY_TOKEN", r"\bsntry[su]_[A-Za-z0-9+/=_]{40,}"),
    ("SHIPPO_TOKEN", r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b"),
    ("SLACK_TOKEN", r"\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),
    ("SOURCEGRAPH_TOKEN", r"\bsgp_(?:[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40}\b"),
    ("SUPABASE_KEY", r"\bsb(?:p_[a-f0-9]{40}\b|_secret_[A-Za-z0-9_\-]{20,})"),
    ("TAILSCALE_KEY", r"\btskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}"),
    ("TERRAFORM_TOKEN", r"\b[a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,70}"),
    ("TYPEFORM_TOKEN", r"\btfp_[A-Za-z0-9_\-.=]{59}"),
    ("WEBHOOK_URL", r"https://(?:(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w\-]{60,}"
                    r"|[\w\-]+\.webhook\.office\.com/webhookb2/[\w\-@/]{40,}"
                    r"|hooks\.zapier\.com/hooks/catch/\d+/\w+)"),
)
_CANDIDATE = re.compile(r"[A-Za-z0-9_\-.+/=:%~@]{16,}")
_TOKEN_KINDS = [kind for kind, _ in TOKEN_FORMATS]
_TOKENS = re.compile("|".join(f"(?P<t{i}>{rx})" for i, (_, rx) in enumerate(TOKEN_FORMATS)))
_BLOCKS = (
    ("PRIVATE_KEY", re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.S)),
    ("PRIVATE_KEY", re.compile(r"PuTTY-User-Key-File-\d: .*?Private-MAC: [0-9a-f]+", re.S)),
    ("PRIVATE_KEY", re.compile(r"-----BEGIN OpenVPN Static key V\d-----.*?(?:-----END OpenVPN Static key V\d-----|\Z)", re.S)),
)
_CARD = re.compile(r"\d[\d -]{11,22}\d")
# An IBAN (checked with its mod-97 check digits): two letters and two digits start it.
_IBAN_START = re.compile(r"[A-Z]{2}\d{2}")
_IBAN = re.compile(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Za-z0-9])")
# A PEM private key written in base64 (kubeconfig's client-key-data, a Kubernetes secret):
# "-----BEGIN " encodes to LS0tLS1CRUdJTi, and the words after it say what the block is.
_B64_PEM = re.compile(r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}")


def iban_ok(candidate: str) -> bool:
    """An IBAN whose check digits hold (ISO 13616: the number mod 97 is 1)."""
    v = candidate.replace(" ", "")
    return v[4:].isalnum() and iban_checks(v)


def _b64_private_key(value: str) -> bool:
    head = value[:64]
    try:
        return b"PRIVATE KEY" in base64.b64decode(head[: len(head) // 4 * 4])
    except ValueError:
        return False


def luhn_ok(candidate: str) -> bool:
    """A payment card number: 13-19 digits whose Luhn check holds and whose first digit (the
    major industry identifier) is a card network's, 2-6 (Mastercard 2/5, Amex and Diners 3,
    Visa 4, Discover, Maestro and UnionPay 6); an ISBN-13 (978/979), an EAN or a tracking
    number starting with 0, 1, 7, 8 or 9 passes Luhn one time in ten and is no card."""
    digits = "".join(c for c in candidate if c.isdigit())
    if not 13 <= len(digits) <= 19 or len(set(digits)) < 3 or not "2" <= digits[0] <= "6":
        return False
    return luhn(digits)


# -- names that make a value secret ------------------------------------------------------

# Parts of a key name (split at _ - . spaces and camelCase) that make its value secret.
SECRET_PARTS = frozenset({
    "password", "passwd", "passwort", "passphrase", "passcode", "pass", "pwd", "pw", "pword",
    "secret", "token", "apikey", "accesskey", "secretkey", "privatekey", "authtoken",
    "credential", "credentials", "creds", "cred", "dsn", "salt", "pin", "pincode", "psk",
    "sessionkey", "signingkey", "encryptionkey", "masterkey", "accountkey", "clientsecret",
    "bearer", "cookie", "connectionstring", "connstr", "totp", "pat", "authtok", "bindpw", "rootpw",
})
# A "key" part is secret only after one of these (a bare `key = "sessions"` is a dict key).
KEY_QUALIFIERS = frozenset({
    "api", "access", "secret", "private", "signing", "encryption", "master", "license", "licence",
    "service", "app", "client", "consumer", "auth", "ssh", "deploy", "storage", "subscription",
    "account", "session", "webhook", "admin", "x", "stripe", "openai", "anthropic", "mailchimp",
    "mailgun", "sendgrid", "twilio", "aws", "gcp", "azure", "google", "github", "gitlab",
    "slack", "datadog", "dd", "sentry", "algolia", "mapbox", "maps", "firebase", "pusher",
    "shared", "crypt", "hmac", "jwt", "cipher", "aes", "rsa", "pgp", "gpg", "root", "db", "preshared", "psk", "wep", "wpa",
})
# Parts that may follow the secret word in a key that still holds the secret itself
# (GITHUB_TOKEN_PROD, SECRET_KEY_BASE, password2); any other part after it says the value is
# about the secret (password_min_length, token_ttl, api_key_env, TokenAuth).
AFTER_SECRET_OK = frozenset({
    "prod", "production", "dev", "development", "staging", "stage", "test", "live", "local",
    "base", "value", "raw", "plain", "plaintext", "new", "old", "current", "primary",
    "secondary", "backup", "admin", "root", "user", "app", "db", "default", "main", "v",
    "b64", "base64", "hex", "string", "str", "s", "x",
})
NOT_SECRET_VALUES = frozenset({
    "none", "null", "nil", "true", "false", "yes", "no", "on", "off", "undefined", "empty",
    "required", "optional", "str", "string", "bool", "int", "bytes", "any", "object", "secret",
    "password", "token", "changeme", "change_me", "example", "redacted", "hidden", "masked",
    "xxx", "xxxx", "xxxxx", "xxxxxx", "xxxxxxxx", "todo", "tbd", "n/a", "na", "default",
    "your_password", "your-password", "yourpassword", "your_token", "your-token", "your_api_key",
    "your-api-key", "api_key", "apikey", "secret_key", "dummy", "test", "sample", "placeholder",
    "self", "this", "value", "values", "env", "environ", "os", "config", "settings", "args",
    "kwargs", "params", "options", "opts", "field", "input", "getpass", "prompt", "stdin",
    "keyring", "vault", "ask", "asked", "auto", "random", "generated", "generate", "new",
    "same", "unset", "blank", "please", "enter", "provided", "given", "set", "see", "below",
    "above", "here", "there", "it", "its", "your", "my", "our", "their", "the", "a", "an",
    "read", "write", "read-write", "read-only", "readonly",  # permissions (`id-token: write`)
})
_SPLIT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def key_parts(key: str) -> list[str]:
    return [p.lower() for p in _SPLIT.findall(key)]


# Parts before the secret word that say the value is not the secret: a test's declared fake
# (FAKE_SLACK_TOKEN, DUMMY_PASSWORD) or a reference to a secret kept elsewhere (Helm's
# existingSecret, externalSecret: the name of a Kubernetes Secret).
NOT_SECRET_BEFORE = frozenset({"fake", "dummy", "example", "sample", "mock", "placeholder", "existing", "external"})


def secret_key(key: str) -> bool:
    """Does a key name (DB_PASSWORD, dbPassword, x-api-key, aws_secret_access_key) name a
    secret value? The secret word must be one of its parts, and only environment or
    encoding words may follow it."""
    parts = key_parts(key)
    if parts and parts[0] in NOT_SECRET_BEFORE:
        return False
    last = -1
    for i, p in enumerate(parts):
        if p in SECRET_PARTS or (p == "key" and i > 0 and parts[i - 1] in KEY_QUALIFIERS) or (p == "apikey"):
            last = i
    if last < 0:
        return False
    return all(p in AFTER_SECRET_OK or p.isdigit() for p in parts[last + 1 :])


# A data source name holds a secret only when it carries credentials: a password in its URL
# (postgres://app:pw@db/x, app:pw@tcp(db)/x), a password= / pwd= inside (libpq, ODBC), or a
# token as a URL's user (a Sentry DSN's user is a public key: public_or_example). `dsn = user`,
# `DSN=reports` (an ODBC data source's name) and `dsn = postgres://app@db/x` hold none.
_DSN_CREDENTIALS = re.compile(
    r"""(?i)[^\s:/@]*:[^\s@/]+@|(?:^|[\s;?&,"'(])(?:password|passwd|pass|pwd|pw|secret|token|auth_token)\s*=\s*[^\s;&"']|"""
    r"""://[A-Za-z0-9_\-]{16,}@"""
)


# A key named only "key" (rclone's `key = ...`, appsettings' `"Jwt": {"Key": ...}`) or with a
# qualifier no list knows holds a secret when its value is random; these qualifiers say the
# key is public or an identifier (PublicKey, cache_key, sort_key, idempotency_key).
NOT_SECRET_KEY_QUALIFIERS = frozenset({
    "public", "pub", "host", "primary", "foreign", "sort", "partition", "cache", "idempotency", "object",
    "row", "hash", "lookup", "map", "dict", "routing", "dedup", "dedupe", "index", "unique", "composite",
    "bucket", "file", "item", "redis", "storage", "translation", "i18n", "message", "field", "column",
    "react", "list", "group", "query", "event", "trace", "request", "idempotent", "s3", "dynamo", "key",
})


def random_under_key(key: str, value: str) -> bool:
    parts = key_parts(key)
    if not parts or parts[-1] != "key" or (len(parts) > 1 and parts[-2] in NOT_SECRET_KEY_QUALIFIERS):
        return False
    v = value.strip().strip("\"'")
    return len(v) >= 20 and looks_random(v)


def dsn_only(key: str) -> bool:
    """Is a key secret only because it names a DSN (dsn, DATABASE_DSN, sentry_dsn)?"""
    parts = key_parts(key)
    if "dsn" not in parts:
        return False
    rest = [p for p in parts if p != "dsn"]
    return not secret_key("_".join(rest)) if rest else True


def dsn_without_credentials(key: str, value: str) -> bool:
    """A value under a DSN's name that holds no password or token: not a secret."""
    return dsn_only(key) and _DSN_CREDENTIALS.search(value) is None


_CODE_VALUE = re.compile(
    r"^(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z_][a-z_]*_[a-z_]*"
    r"|[A-Z][a-z]+(?:[A-Z][a-z]+)+|\$\{?\w+\}?|\$\(.*|%\(?\w*\)?[sd]|\{\{?[^}]*\}?\}|<[^>]*>|\*+|\.{3,}|x{3,}|_+|-+|#+|\?+)$"
)


# A file path, maybe after a credential's name (systemd's LoadCredential=name:/path), and the
# YAML tags that stand where a value goes (Ansible's `!vault |`, CloudFormation's `!Ref x`).
_PATH_VALUE = re.compile(r"^(?:[\w.\-]+:)?(?:/|~/|\./)(?:[\w.\-]+/)+[\w.\-]*$")
YAML_TAGS = frozenset({"!vault", "!secret", "!Ref", "!Sub", "!GetAtt", "!ImportValue", "!include", "!env_var", "!env"})


def plausible_secret(value: str, *, min_len: int = 3, quoted: bool = False) -> bool:
    """Is a value that a secret-naming key was set to plausibly the secret itself (not a
    variable, a call, a placeholder or a literal)? Quoted values are literals, so only
    placeholders and names are refused; bare ones must not look like code either."""
    v = value.strip().rstrip(",;`'\"")
    if len(v) < min_len or len(v) > 400:
        return False
    if v.startswith(PLACEHOLDER_PREFIX) or v.lower() in NOT_SECRET_VALUES or is_placeholder(v):
        return False
    if _CODE_VALUE.match(v) and not (len(v) >= 24 and any(looks_random(p) for p in v.split("."))):
        return False
    if _names_a_password(v):
        return False  # a UI string: "login.password": "Passwort", "Passwort anzeigen"
    if _PATH_VALUE.match(v) and not looks_random(v.replace("/", "")) or v in YAML_TAGS:
        return False  # LoadCredential=db-password:/etc/kiln/creds/db-password, `!vault |`
    if v.startswith("(") and v.endswith(")") and " " in v:
        return False  # a note where the password goes: "(im Tresor)", "(ask Anna)"
    if quoted:
        return True
    if any(c in v for c in "()[]{}"):
        return False  # a call, an index, a dict
    if re.fullmatch(r"[a-z]+", v) and len(v) <= 3:
        return False
    if re.fullmatch(r"\d+(?:\.\d+)?", v) and len(v) < 4 or re.fullmatch(r"\d+\.\.\.?\d+", v):
        return False  # a number, a range (8..63)
    return True


def secret_cell(value: str) -> bool:
    """A cell of a table's password column: a literal, so a dotted word with a digit or a
    letter outside ASCII in it is a password (Tianmao.woaini29, Schneeflocke.grüße9), not a
    name from code."""
    if plausible_secret(value, quoted=True):
        return True
    v = value.strip()
    return bool(_CODE_VALUE.match(v)) and "." in v and (any(c.isdigit() for c in v) or not v.isascii()) \
        and plausible_secret(v.replace(".", "-"), quoted=True)


def _names_a_password(value: str) -> bool:
    """A value that is the word for password (in any language of INTL_LABELS), or a phrase
    holding it: a translation or a message, not a password."""
    low = value.lower()
    if low in _LABEL_WORDS:
        return True
    return " " in low and _WORDS_ONLY.fullmatch(low) is not None and any(w in low for w in _LABEL_WORDS if len(w) > 4)


_WORDS_ONLY = re.compile(r"[^\W\d_]+(?:[ '’\-][^\W\d_]+)*[.!?…:]?")


# key: value | key = value | "key": "value" | key => 'value' | --key value | <key>value</key>
_KEY = r"""(?P<key>[A-Za-z_][A-Za-z0-9_.\-]{0,60})"""
_ASSIGN = re.compile(
    r"""(?:(?<=^)|(?<=[\s{,;(\[*|"'`>$=&?#]))"""  # the key starts a token (or a commented-out line: #psk="...")
    r"""["'`]?\**""" + _KEY + r"""\**["'`]?\**"""
    r"""[ \t]*(?P<sep>:=|=>|->|=(?!=)|:(?!:))\**[ \t]*"""
    r"""(?:(?P<q>["'`])(?P<qval>[^"'`\n]{1,400})(?P=q)|(?P<val>[^\s"'`,;|<>]{1,400}))""",
    re.M,
)
# After an unquoted value: a chained assignment (`a = b = c`) or an expression that goes on
# (`password = user + salt`, `token = a || b`): the value is code, not a literal secret.
_EXPRESSION_GOES_ON = re.compile(r"""[ \t]*=(?!=)|[ \t]+(?:\+|\|\||&&|\?\?)[ \t]+[\w"'`(]""")
# An unquoted plain word with more words after it is a sentence ("passphrase: minimum twelve
# characters"), not a value; a passphrase of plain words is find_password_forms'.
_JSON_STRING_REST = re.compile(r'(?:[^"\\\n]|\\.)*(?=")')  # the rest of a JSON string after an escaped quote
_PAIR_GOES_ON = re.compile(r"[ \t]+/[ \t]+\S")  # creds: `admin` / `pw`: the user of a pair, the pair's own detector
_PROSE_GOES_ON = re.compile(r"[a-z]+[ \t]+[a-z]{2,}")
_XML = re.compile(r"""<(?P<key>[A-Za-z_][\w.\-]{0,60})(?:\s+[\w:\-]+=["'][^"'<>\n]*["'])*>(?P<val>[^<\n]{1,400})</(?P=key)>""")
_FLAG = re.compile(
    r"""(?:^|\s)--?(?P<key>[A-Za-z][\w\-]{1,40})(?:=|\s+)(?:(?P<q>["'])(?P<qval>[^"'\n]{1,400})(?P=q)|(?P<val>[^\s"'|;&]{1,400}))"""
)
_ENV_LINE = re.compile(
    r"""(?m)^[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?(?P<key>[A-Z][A-Z0-9_]{1,60})=(?:(?P<q>["'])(?P<qval>[^"'\n]*)(?P=q)|(?P<val>[^\s#]+))"""
)
_ENV_KEY_PARTS = frozenset({"KEY", "PASS", "PASSWORD", "PWD", "SECRET", "TOKEN", "AUTH", "CRED",
                            "CREDENTIALS", "PIN", "SALT", "SIGNATURE", "DSN", "PASSPHRASE", "APIKEY", "PSK", "PAT"})
# Kubernetes / compose style: `- name: DB_PASSWORD` with `value: x` on the next line
_NAME_VALUE = re.compile(r"""(?m)^(?P<indent>[ \t]*)-?[ \t]*name:[ \t]*["']?(?P<key>[\w.\-]+)["']?[ \t]*\n[ \t]*value:[ \t]*(?:(?P<q>["'])(?P<qval>[^"'\n]+)(?P=q)|(?P<val>\S+))""")
_PROSE = re.compile(
    r"""(?i)\b(?P<key>pass\s?words?|passwd|pass\s?phrase|pass\s?code|pass|pwd|pw|pin(?:\s?code)?|api\s?key|access\s?key|secret(?:\s?key)?|token|recovery\s?key)"""
    r"""(?:\s+(?:for|to|of|on|at)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w.@\-]+(?:\s[\w.@\-]+){0,3})?"""
    r"""\s+(?:is|was|is\s+now|will\s+be|has\s+been\s+changed\s+to|changed\s+to|set\s+to|reset\s+to|became|="""
    r"""|\((?:currently|now|was|old|new|temporarily))"""
    r"""\s*:?\s*(?:(?P<q>["'`“‘])(?P<qval>[^"'`”’\n]{1,200})["'`”’]|(?P<val>[^\s"'`]{1,200}))"""
)
_PROSE_USE = re.compile(
    r"""(?i)\buse\s+(?:(?P<q>["'`])(?P<qval>[^"'`\n]{1,200})(?P=q)|(?P<val>\S{3,200}))\s+as\s+(?:the\s+|a\s+|my\s+|your\s+)?(?:password|passphrase|pin|token|secret|api\s?key)\b"""
)
_PROSE_SET = re.compile(
    r"""(?i)\b(?:set|changed?|reset|updated?)\s+(?:the\s+|my\s+|our\s+|your\s+)?(?:[\w\-]+\s+){0,2}(?:pass\s?words?|passwd|pass\s?phrase|pass\s?code|pin|pw)"""
    r"""\s+to\s+(?:(?P<q>["'`])(?P<qval>[^"'`\n]{1,200})(?P=q)|(?P<val>[^\s"'`]{1,200}))"""
)
# A data source name without a scheme (Go's MySQL driver): user:password@tcp(host:port)/db
_DSN = re.compile(r"""(?<![\w/:@])[\w.\-]{1,60}:(?P<val>[^\s@/:'"()]{1,200})@(?:tcp|tcp6|udp|unix)\(""")
# A code that opens something, given in prose: "the alarm code is 186528", "gate code: 4417".
_ENTRY_CODE = re.compile(
    r"""(?i)\b(?:alarm|door|gate|garage|safe|lock|locker|keypad|entry|building|access|security|wi-?fi|router)"""
    r"""\s+(?:code|pin|combination|combo)\s*(?:is|was|is\s+now|:|=)\s*(?P<val>\d{3,10})\b"""
)
INTL_LABELS = ("passwort", "kennwort", "wachtwoord", "mot de passe", "contraseña", "contrasena", "contrasenya",
               "senha", "passord", "adgangskode", "lösenord", "losenord", "salasana", "hasło", "haslo", "heslo",
               "jelszó", "şifresi", "şifre", "sifresi", "sifre", "parola", "parolă", "lozinka", "geslo", "mdp",
               "kata sandi", "kata laluan", "mật khẩu", "mat khau", "nenosiri", "slaptažodis", "parole", "parool",
               "netzwerkschlüssel", "wlan-schlüssel", "wlan-code", "wifi-code", "code wifi", "code wi-fi", "clé wifi",
               "clé wi-fi", "clé wpa", "clave wifi", "clave del wifi", "chiave wifi", "codice di accesso", "code d'accès",
               "código de acceso", "código de acesso", "пароль", "κωδικός", "κωδικό", "كلمة المرور", "كلمة السر",
               "رمز عبور", "گذرواژه", "کلمه عبور", "סיסמה", "סיסמא", "पासवर्ड", "পাসওয়ার্ড", "கடவுச்சொல்",
               "รหัสผ่าน", "密码", "密碼", "口令", "パスワード", "비밀번호")
_LABEL_WORDS = frozenset({*INTL_LABELS, "password", "passphrase", "passcode", "passwords", "kennwörter",
                          "passwörter", "passwortes", "mots de passe", "contraseñas", "senhas"})
_INTL_LABEL = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in INTL_LABELS)
# A label alone on its line and the secret alone on the next one, as password notes and
# chats write it ("Wi-Fi password:" / "hunter2goes", "what's the VPN pin?" / "A: 4821").
_LABEL_LINE = re.compile(
    r"""(?im)^[ \t]*(?P<chat>\[[^\]\n]{1,24}\][ \t]*(?:<?[\w.\-]{1,30}>?:?[ \t]+)?)?"""
    r"""(?:[-*+>][ \t]+|\#{1,6}[ \t]+|\d{1,2}[.)][ \t]+|q:[ \t]*)?[*_`]*"""
    r"""(?:[^\n:=]{0,60}?[\s\-])?(?P<key>pass\s?words?|passwd|pass\s?phrase|pass\s?code|pwd|pw|pin(?:\s?code)?|api\s?key|"""
    r"""access\s?key|private\s?key|secret(?:\s?key)?|(?:access\s|api\s|auth\s)?token|""" + _INTL_LABEL + r""")"""
    r"""(?:[ \t]+(?:again|pls|please))?[*_`]*[ \t]*(?::|(?P<ask>\?)|=|-|\bis)?[ \t]*[*_`]*[ \t]*$"""
)
_ANSWER_LINE = re.compile(
    r"""^[ \t]*(?:[-*+>:][ \t]+|a:[ \t]*|answer:[ \t]*|it'?s[ \t]+)?(?:(?P<q>[`"'])(?P<qval>[^`"'\s]{3,100})(?P=q)|(?P<val>\S{3,100}))[ \t]*$""",
    re.I | re.M,
)
_LABEL_ENDINGS = ("password", "passwords", "passwd", "passphrase", "pass phrase", "passcode", "pass code", "pwd",
                  "pw", "pin", "pincode", "pin code", "api key", "apikey", "access key", "accesskey", "secret",
                  "secretkey", "secret key", "token", "private key", "privatekey", *INTL_LABELS)
# The reply to a question in a chat log: "[10:43] luis: the-answer".
_CHAT_ANSWER = re.compile(
    r"""^[ \t]*(?:\[[^\]\n]{1,24}\][ \t]*)?(?:<?[\w.\-]{1,30}>?:[ \t]+)?(?:(?P<q>[`"'])(?P<qval>[^`"'\s]{3,100})(?P=q)|(?P<val>\S{3,100}))"""
    r"""(?:[ \t]+\([^()\n]{1,40}\))?[ \t]*$""",  # "Sakura2933$" (case sensitive)
    re.M,
)
_NOT_ANSWER = re.compile(r"""^(?:[\w.+\-]+@[\w\-]+\.[\w.\-]+|\w+://\S*|www\.\S*|[~.]?/\S*|\S*\.(?:md|txt|pdf|docx?|html?|png|jpe?g)|```\w*|[-=*_#|:]+|v?\d+(?:[.\-/:]\d+)+[a-z]?)$""", re.I)
# A wallet's seed (recovery) phrase: 12 to 24 lowercase words after its label.
_SEED_PHRASE = re.compile(
    r"""(?i)\b(?:seed|recovery|mnemonic|backup|wallet)(?:\s+(?:phrase|words|sentence|seed))?\b[^\n:=]{0,40}?(?::|=|\bis\b|(?=\n))\s*"""
    r"""(?P<val>(?:(?:\d{1,2}[.):]?\s+)?(?-i:[a-z]{3,8})(?:\s+|$)){12,24})"""
)
_SEED_WORD_SEP = re.compile(r"""(?i)\b(?:seed|recovery|mnemonic|backup|wallet)\b[^\n:=]{0,40}?(?:[:=]|\bis\b)""")  # "Wallet: word ..."
SEED_PHRASE_REACH = 400  # characters after the label's line where its words may be listed
# Two-factor recovery codes: the codes after their label, on its line or listed below it.
_CODES_LABEL = re.compile(
    r"""(?i)\b(?:recovery|backup|2fa|mfa|two[- ]factor|one[- ]time|otp|emergency|scratch)(?:[\s_-]+verification)?[\s_-]+codes?\b"""
    r"""(?:[^\n:]{0,30}:|(?:\.\w{2,4})?[ \t]*$)""",
    re.M,
)
CODES_REACH_LINES = 3  # lines (an account name, a blank) that may stand between the label and its codes
_CODE = re.compile(r"""(?<![\w-])\d{4} \d{4}(?![\w-])"""  # Google: 1624 6257
                   r"""|(?<![\w-])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12})?(?![\w-])|(?<![\w-])\d{6,10}(?![\w-])""")
_CODES_ONLY = re.compile(r"""(?m)^[ \t]*(?:[-*+][ \t]+|\d{1,2}[.)][ \t]+)?(?:`?[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12})?`?[ \t,]*)+$""")
# "the combination to the safe is 12-34-56", "code for the gate: 4417"
_ENTRY_CODE_FOR = re.compile(
    r"""(?i)\b(?:combination|combo|code|pin)\s+(?:to|for|of)\s+(?:the\s+|my\s+|our\s+|your\s+)?(?:[\w\-]+\s+)?"""
    r"""(?:safe|lock|padlock|locker|door|gate|garage|alarm|keypad|building|house|front\s+door)"""
    r"""\s*(?:is|was|is\s+now|:|=)\s*(?P<val>\d{2,10}(?:[- ]\d{2,4}){0,4})\b"""
)
# A US social security number after its name.
_SSN = re.compile(r"""(?i)\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?)\b[^\d\n]{0,20}(?P<val>\d{3}-\d{2}-\d{4}|\d{9})\b""")
# A Docker / container registry `"auth": "<base64 of user:password>"`.
_BASIC_AUTH_JSON = re.compile(r'"auth"\s*:\s*"(?P<val>[A-Za-z0-9+/]{8,}={0,2})"')
_AUTH_TUPLE = re.compile(
    r"""(?:\bauth\s*=\s*|\b(?:HTTP)?(?:Basic|Digest|Proxy)Auth\s*)\(\s*["'][^"'\n]*["']\s*,\s*(?P<q>["'])(?P<qval>[^"'\n]+)(?P=q)""")
# A Wi-Fi QR code's text: WIFI:T:WPA;S:HomeNet;P:the-password;;
_WIFI_QR = re.compile(r"""(?i)\bWIFI:(?:[^;\n]*;)*?P:(?P<val>(?:\\.|[^;\\\n])+)""")
# The password under its name in other languages: "Passwort: x", "Das Kennwort ist x",
# "le mot de passe est x", "contraseña: x", "密码：x", "パスワード: x", "пароль: x".
# The label, then maybe what the password is for ("für das Büro", "do Wi-Fi", "от вайфая на
# даче", "akun Tokopedia kantor": a few words, no sentence mark), then `:`/`=`/a dash or the
# language's "is" (ist, lautet, est, es, é, è, là, adalah, है, هي, 是, は ...), then the value.
_INTL = re.compile(
    r"""(?i)(?P<key>""" + _INTL_LABEL + r"""|password|pw)"""
    r"""(?P<gap>(?:[ \t]+[^\s:：=.!?;,()\[\]{}"'`«»<>\u0e00-\u0e7f]{1,24}|[ \t]*\([^()\n]{1,40}\)|[ \t]*[\u0e00-\u0e7f]{1,24}+){1,5}?)??"""
    r"""(?:[ \t]*(?P<sep>[:：=]|[—–])|[ \t]+(?P<verb>ist|lautet|est|es|é|è|era|war|is|er|är|on|jest|je|là|adalah|ialah|है|هي|هو|είναι|است|היא|הוא|คือ|ni|হল|হলো)(?=[\s:：])"""
    r"""(?:[ \t]+(?:jetzt|nun|now|maintenant|ahora|agora|ora|nu|teraz))?"""
    r"""|[ \t]*(?P<cjk>是|为|は|는|은))"""
    r"""[ \t]*[:：]?[ \t]*(?:(?P<q>["'`“‘「«])[ \t]?(?P<qval>[^"'`”’」»\n]{1,200}?)[ \t]?["'`”’」»]|(?P<val>[^\s"'`，。、]{1,200}))"""
)
_MASKED = re.compile(r"[*•●xX]{3,}|\.{3}|…")  # a log's masked password: postgresql://user:***@host
_URL_CREDS = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://(?P<user>[^\s:/@'\"]*):(?P<val>[^\s@/'\"]{1,200})@[\w.\-\[]")
_AUTH_HEADER = re.compile(
    r"""(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["'`]?(?:(?:bearer|basic|token|digest|negotiate|apikey|sso-key|hmac)\s+)?(?P<val>[^\s"'`,;]{6,})"""
)
_SCHEME = re.compile(r"""\b(?:Bearer|Basic|Token|token|bearer)\s+(?P<val>[A-Za-z0-9._~+/\-]{12,}={0,2})""")
_HEADER = re.compile(
    r"""(?im)(?:^|["'\s])(?:x-api-key|api-key|x-auth-token|x-access-token|private-token|x-csrf-token|x-vault-token|cookie|set-cookie)\s*:\s*(?P<val>[^"'\n]{6,})"""
)
_NETRC = re.compile(r"""(?i)\blogin\s+\S+\s+password\s+(?P<val>\S+)""")
_NETRC_LINE = re.compile(r"""(?im)^\s*password\s+(?P<val>\S+)\s*$""")
_PGPASS = re.compile(r"""(?m)^[\w.\-*]+:(?:\d+|\*):[\w.\-*]+:[\w.\-*@]+:(?P<val>\S+)$""")
_SHELL = re.compile(
    r"""(?:\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n|;&]*?\s-p(?:(?P<q1>['"])(?P<v1q>[^'"\n]+)(?P=q1)|(?P<v1>[^\s'"-][^\s'"]*))"""
    r"""|\bsshpass\s+-p\s*(?:(?P<q2>['"])(?P<v2q>[^'"\n]+)(?P=q2)|(?P<v2>\S+))"""
    r"""|\b(?:curl|wget|http)\b[^\n|;&]*?\s(?:-u|--user)\s+(?:(?P<q3>['"])[^:'"\n]*:(?P<v3q>[^'"\n]+)(?P=q3)|[^:\s]*:(?P<v3>\S+))"""
    r"""|\b(?:docker|podman|helm|oras)\s+(?:\S+\s+)?login\b[^\n|;&]*?\s(?:-p|--password)[ =](?:(?P<q4>['"])(?P<v4q>[^'"\n]+)(?P=q4)|(?P<v4>\S+))"""
    r"""|\bredis-cli\b[^\n|;&]*?\s-a\s+(?:(?P<q5>['"])(?P<v5q>[^'"\n]+)(?P=q5)|(?P<v5>\S+))"""
    r"""|\bhtpasswd\s+-\w*b\w*\s+\S+\s+\S+\s+(?:(?P<q6>['"])(?P<v6q>[^'"\n]+)(?P=q6)|(?P<v6>\S+))"""
    r"""|\becho\s+(?:(?P<q7>['"])(?P<v7q>[^'"\n]+)(?P=q7)|(?P<v7>\S+))\s*\|\s*sudo\s+-S"""
    r"""|\bpass:(?P<v8>\S+)"""
    r"""|\b(?:with-token|--token|_authToken)[ =]+(?:<<<\s*)?(?P<v9>\S{8,})"""
    r"""|\b(?:PGPASSWORD|MYSQL_PWD|SSHPASS|REDISCLI_AUTH)=(?:(?P<q10>['"])(?P<v10q>[^'"\n]+)(?P=q10)|(?P<v10>\S+)))"""
)
_SHELL_VALUE_GROUPS = [n for n in _SHELL.groupindex if n.startswith("v")]
_USER_PASS = re.compile(
    r"""(?i)(?:\b(?:login|logins|user(?:name)?|account|creds?|credentials|u/p|user/pass(?:word)?)\b[^\n/()"'=]{0,30}?[:=\-]\s*"""
    r"""(?P<user>[\w.@+\-]{2,60})\s*(?:/|\s\|\s)\s*(?P<val>[^\s/|()"'`]{3,100})"""
    r"""|\b(?P<user2>admin|administrator|root|sa|postgres|pi|ubuntu|guest|operator|superuser)\s+/\s+(?P<val2>[^\s/()"'`]{3,100}))"""
)
_ENTROPY_TOKEN = re.compile(r"[A-Za-z0-9+/_\-]{20,}={0,2}|\b[0-9a-fA-F]{32,}\b")
_ENTROPY_CONTEXT = re.compile(
    r"(?i)(?:secret|token|passw|api[\s_\-]?key|access[\s_\-]?key|private[\s_\-]?key|signing|credential|auth(?!orit)|bearer|salt|signature|session[\s_\-]?key|client[\s_\-]?secret|webhook|pre-?shared[\s_\-]?key|\bpsk\b)"
)
_AFTER_ID = re.compile(r"(?i)(?<!secret)(?<!secret[_\-])[_\-]?id[\"']?[ \t]*[=:][ \t]*[\"']?$")  # not Vault's secret_id
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")

# Words that follow "password is" in ordinary prose and are not passwords.
PROSE_NOT_SECRET = frozenset("""
a an the not never no now also only still just required optional needed necessary mandatory
wrong incorrect correct invalid valid expired expiring missing empty blank set unset stored
hashed salted encrypted sent shown hidden masked visible case-sensitive sensitive too weak
strong long short secure insecure unique different same reused known unknown changed reset
used unused saved kept entered typed given provided generated random rotated revoked leaked
compromised stolen lost forgotten ok okay fine good bad easy hard simple complex safe unsafe
being been be in on at of for to from by with without into onto over under that this these
those it its which what who whom whose where when how why if then else than as and or but so
yet all any some each every either neither both one two three first last next previous your
my our their his her mine yours ours theirs you we they he she i me us them what's there here
available unavailable enabled disabled accepted rejected checked verified protected defined
configured updated deleted removed included excluded displayed printed logged written read
copied pasted managed handled supplied null none true false nil undefined default something
anything nothing everything whatever minimum maximum least most at-least valid. incorrect. required. correct. wrong. set. stored.
""".split())


def _entropy(s: str) -> float:
    n = len(s)
    counts: dict[str, int] = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def looks_random(token: str) -> bool:
    """A token that is more likely a key than a word or an identifier: long, mixed, dense."""
    t = token.rstrip("=")
    if len(t) < 16 or t.startswith(PLACEHOLDER_PREFIX):
        return False
    if t[:2] in ("0x", "0X"):
        t = t[2:]  # a hex key written as a number (an Ethereum private key)
    if re.fullmatch(r"[0-9a-fA-F]+", t):
        return len(t) >= 32 and _entropy(t) >= 3.0 and any(c.isdigit() for c in t) and any(c.isalpha() for c in t)
    classes = sum(bool(re.search(rx, t)) for rx in ("[a-z]", "[A-Z]", "[0-9]", "[+/_\\-]"))
    if classes < 3:
        return False
    if re.fullmatch(r"[A-Za-z]+(?:[_\-/.][A-Za-z]+)*\d{0,4}", t):
        return False  # words joined by _ - / . (an identifier or a path), maybe with a version
    return _entropy(t) >= 3.5


# Values that have a secret's shape but are public by design or written as an example:
# Stripe publishable keys and Mapbox public tokens (shipped to every browser), the AWS
# documentation's example keys (AKIAIOSFODNN7EXAMPLE), a template's filler (sk_live_xxxx,
# ghp_XXXX, xoxb-your-token-here, sk-...) and a made-up run (123456789:ABCdefGhIJK...).
PUBLIC_PREFIXES = ("pk_live_", "pk_test_", "pk.eyJ", "xpub", "ypub", "zpub", "tpub", "upub", "vpub", "Ypub", "Zpub",
                   "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0")  # extended public keys; a base64 PEM certificate
# Example values from public documentation: the Google Authenticator wiki's TOTP seed and
# the signature of jwt.io's sample token (like AWS's AKIAIOSFODNN7EXAMPLE, found in every test).
DOCUMENTED_EXAMPLES = ("JBSWY3DPEHPK3PXP", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
# A Sentry DSN: its user is the project's public key, which only lets a client send events
# (Sentry's documentation: safe to make public); a token in any other URL's user stays secret.
_SENTRY_DSN = re.compile(r"https?://[0-9a-f]{32}@[\w.\-]*sentry\.io/\d+")
# Words a fixture's made-up value is built from: test-session-secret-do-not-use.
_FAKE_WORDS = re.compile(r"(?i)(?:^|[-_])(?:do[-_]not[-_]use|not[-_]real|fake|dummy|example|placeholder)(?:[-_]|$)")
_FILLER = re.compile(r"(?i)your[_\-]?(?:own[_\-]?)?(?:token|key|secret|password|api)|[_\-]here$|^<|>$")


def _sequential_share(v: str) -> float:
    """How much of a value is runs of 4+ consecutive characters (abcd, 6789, KLMN)."""
    low, covered, run = v.lower(), 0, 1
    for i in range(1, len(low) + 1):
        if i < len(low) and ord(low[i]) == ord(low[i - 1]) + 1:
            run += 1
            continue
        if run >= 4:
            covered += run
        run = 1
    return covered / len(v)


def _public_jwt(v: str) -> bool:
    """A JWT whose payload says it is a public role (Supabase's anon key is meant for the
    browser; its service_role key is not, and stays a secret)."""
    parts = v.split(".")
    if len(parts) != 3:
        return False
    body = parts[1]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except ValueError:
        return False
    return re.search(rb'"role"\s*:\s*"anon"', raw) is not None


def public_or_example(value: str) -> bool:
    v = value.strip("\"'`")
    if len(v) < 12 or len(v) > 2000:
        return False
    if v.startswith(PUBLIC_PREFIXES) or "EXAMPLE" in v or any(x in v for x in DOCUMENTED_EXAMPLES):
        return True
    if _SENTRY_DSN.match(v) or _FAKE_WORDS.search(v):
        return True
    if v.endswith(("...", "\u2026")) or _FILLER.search(v):
        return True
    body = v.split("_")[-1] if "_" in v[:12] else v
    if len(body) >= 8:
        counts = Counter(body).most_common()
        if counts[0][1] >= 0.6 * len(body):
            return True  # xxxxxxxx, XXXXXXXX, 00000000
        if len(body) >= 16 and sum([n for c, n in counts if c.isalnum()][:2]) >= 0.8 * len(body):
            return True  # xoxb-000000000000-0000000000000-XXXXXXXXXXXXXXXXXXXXXXXX
    if 16 <= len(v) <= 128 and _sequential_share(v) >= 0.9:  # all of it a run: 123456789:ABCdefGhIJK... (a key block is no filler)
        return True
    return v.startswith("eyJ") and _public_jwt(v)


def password_like(value: str) -> bool:
    """A bare word after "password is": a password if it is not ordinary prose."""
    v = value.strip().strip(".,;:!?)…")
    if len(v) < 3 or v.startswith(PLACEHOLDER_PREFIX) or v.lower() in PROSE_NOT_SECRET:
        return False
    if re.fullmatch(r"[a-z]+(?:ed|ing|ly|able|ible|ous|ive|ful|less)", v):
        return False
    return plausible_secret(v)


# -- scanning: each detector reads only the lines holding one of its trigger words ---------


_KNOWN_WORDS: set[str] = set()  # every word a detector has looked for (a few hundred)
_SUBWORDS: dict[str, tuple[int, tuple[str, ...]]] = {}
# The recorder redacts on several threads (watcher, OCR, live folds); one thread's new word
# landing while another walked the set raised "Set changed size during iteration".
_KNOWN_LOCK = threading.Lock()


def _subwords(w: str) -> tuple[str, ...]:
    """The known words inside w ("pass" in "passwort", "key" in "keypad"): when one of them is
    absent from a text w is too, and w can only be on its lines, so w costs no scan of the
    whole text. Computed once per word (again when new words became known)."""
    got = _SUBWORDS.get(w)
    if got is None or got[0] != len(_KNOWN_WORDS):
        with _KNOWN_LOCK:
            _KNOWN_WORDS.add(w)
            got = _SUBWORDS[w] = (len(_KNOWN_WORDS),
                                  tuple(x for x in _KNOWN_WORDS if x != w and x in w and "\n" not in x))
    return got[1]


class Scan:
    """A text with its lowercase copy: `lines(words)` finds the lines that hold any of the
    words with str.find (C speed), so a detector's regex runs on a few lines, not all."""

    def __init__(self, text: str):
        self.text = text
        self.low = text.lower()
        if len(self.low) != len(text):  # "İ" lowers to two characters: offsets into low must be text's
            self.low = "".join(c if len(lc := c.lower()) != 1 else lc for c in text)
        self.spans: list[Span] = []
        self.long_runs: list[tuple[int, int]] = []  # runs of 64+ token characters (find_tokens)
        self._lines: dict[tuple[str, ...], list[tuple[int, int]]] = {}
        self._words: dict[str, list[tuple[int, int]]] = {}
        self.ascii = text.isascii()  # words in other scripts are not looked for in an ASCII text
        self._chars: dict[str, bool] = {}

    def lines(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        """The lines holding any of the words (found once per tuple of words)."""
        got = self._lines.get(words)
        if got is None:
            got = self._lines[words] = self._find_lines(words)
        return got

    def _find_lines(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        found: set[tuple[int, int]] = set()
        for w in words:
            found.update(self._word_lines(w))
        return sorted(found)

    def _word_lines(self, w: str) -> list[tuple[int, int]]:
        """The lines holding one word (found once per text: detectors share words)."""
        got = self._words.get(w)
        if got is None:
            low, n = self.low, len(self.low)
            got = self._words[w] = []
            if not w.isascii() and not self._has_char(next(c for c in w if not c.isascii())):
                return got  # a word in another script, and not one letter of that script here
            within = None
            for sub in _subwords(w):  # a word holding one already looked for is only on its lines
                lines = self._words.get(sub)
                if lines is not None and (within is None or len(lines) < len(within)):
                    within = lines
            if within is not None:
                got.extend(line for line in within if low.find(w, *line) >= 0)
                return got
            i = low.find(w)
            while i >= 0:
                start = low.rfind("\n", 0, i) + 1
                end = low.find("\n", i)
                end = n if end < 0 else end
                got.append((start, end))
                i = low.find(w, end)
        return got

    def _has_char(self, c: str) -> bool:
        """Is a (non-ASCII) character in the text? One memchr-fast scan per character, so the
        words of other scripts cost nothing on a text that does not use that script."""
        got = self._chars.get(c)
        if got is None:
            got = self._chars[c] = c in self.low
        return got

    def finditer(self, rx: re.Pattern[str], words: tuple[str, ...]) -> Iterator[re.Match[str]]:
        for start, end in self.lines(words):
            yield from rx.finditer(self.text, start, end)

    def add(self, start: int, end: int, kind: str) -> None:
        if end > start and not self.text.startswith(PLACEHOLDER_PREFIX, start) \
                and not public_or_example(self.text[start:end]) \
                and not (self.text[end - 1] in "-_" and self.text.startswith(("...", "\u2026"), end)):  # sk-...
            self.spans.append(Span(start, end, kind))

    def add_value(self, start: int, value: str, kind: str = "SECRET") -> None:
        v = value.rstrip(",;.`'\"")
        self.add(start, start + len(v), kind)


def _group(m: re.Match[str], *names: str) -> tuple[int, str] | None:
    for n in names:
        if m.group(n) is not None:
            return m.start(n), m.group(n)
    return None


SECRET_TRIGGERS = ("pass", "pwd", "pw", "secret", "token", "key", "cred", "dsn", "salt", "pin", "psk",
                   "cookie", "bearer", "auth")


def _find_iban(scan: Scan, start: int, end: int) -> None:
    text = scan.text
    for m in _IBAN_START.finditer(text, start, end):
        s = m.start()
        if s and text[s - 1].isalnum():
            continue
        iban = _IBAN.match(text, s)
        if iban is not None and iban_ok(iban.group(0)):
            scan.add(iban.start(), iban.end(), "IBAN")
            return


def find_tokens(scan: Scan) -> None:
    text = scan.text
    for c in _CANDIDATE.finditer(text):
        if c.end() - c.start() <= 34 and text[c.start()].isupper():  # a compact IBAN is one run
            _find_iban(scan, c.start(), c.end())
        elif c.end() - c.start() in (23, 29) and _PRODUCT_KEY.fullmatch(c.group(0)):
            scan.add(c.start(), c.end(), "LICENSE_KEY")
        elif c.end() - c.start() in (51, 52) and wif_ok(c.group(0)):
            scan.add(c.start(), c.end(), "PRIVATE_KEY")
        if c.end() - c.start() >= 64:
            scan.long_runs.append((c.start(), c.end()))  # where find_keys_codes_and_documents looks for hex keys
        if _QUICK_TOKEN.search(text, c.start(), c.end()) is None:
            continue  # no format's prefix in the run: the formats are not tried at each of its positions
        for m in _TOKENS.finditer(text, c.start(), c.end()):
            scan.add(m.start(), m.end(), _TOKEN_KINDS[int(m.lastgroup[1:])])  # type: ignore[index]
    for kind, rx in _BLOCKS:
        for m in rx.finditer(text):
            scan.add(m.start(), m.end(), kind)
    i = text.find("LS0tLS1CRUdJTi")
    while i >= 0:
        m = _B64_PEM.match(text, i)
        if m is not None and _b64_private_key(m.group(0)):
            scan.add(m.start(), m.end(), "PRIVATE_KEY")
        i = text.find("LS0tLS1CRUdJTi", i + 1)
    for m in _CARD.finditer(text):
        s, e = m.start(), m.end()
        if s >= 2:  # the digits of an IBAN (DE89 3704 0044 ..., GB82 WEST 1234 ...)
            _find_iban(scan, max(0, s - 12), e)
        if (s and (text[s - 1].isalnum() or text[s - 1] in "._-")) or (e < len(text) and (text[e].isalnum() or text[e] in "._-")):
            continue
        if luhn_ok(m.group(0)) and card_network_ok(re.sub(r"\D", "", m.group(0))):
            scan.add(s, e, "CARD")


def find_cards(scan: Scan) -> None:
    """Identity, health and bank numbers; cards and bank details in the layouts _CARD does not
    read (ids.find_numbers). After find_tokens: a card's row is read for its CVV column."""
    find_numbers(scan, [(s.start, s.end) for s in scan.spans if s.kind == "CARD"])


def find_assignments(scan: Scan) -> None:
    text = scan.text
    for start, end in scan.lines(SECRET_TRIGGERS):
        pos = start
        while (m := _ASSIGN.search(text, pos, end)) is not None:
            if not (secret_key(m.group("key")) or random_under_key(m.group("key"), m.group("qval") or m.group("val"))) \
                    or dsn_without_credentials(m.group("key"), m.group("qval") or m.group("val")):
                pos = m.end("key")  # a value of another key may hold this one (a DSN)
                continue
            pos = m.end()
            if m.group("qval") is not None:
                qend = m.end("qval")
                if m.group("q") == '"' and (len(m.group("qval")) - len(m.group("qval").rstrip("\\"))) % 2:
                    close = _JSON_STRING_REST.match(text, qend + 1, end)  # "a\"b": the quote was escaped
                    qend = close.end() if close is not None else qend
                    pos = max(pos, qend)
                if plausible_secret(m.group("qval"), quoted=True) and not _PAIR_GOES_ON.match(text, m.end(), end):
                    scan.add(m.start("qval"), qend, "SECRET")
            elif plausible_secret(m.group("val")) and not _EXPRESSION_GOES_ON.match(text, m.end(), end) \
                    and not is_placeholder(text[m.start("val") : end]) \
                    and not _PROSE_GOES_ON.match(text, m.start("val"), end):
                scan.add_value(m.start("val"), m.group("val"))
        for rx in (_XML, _FLAG):
            for m in rx.finditer(text, start, end):
                got = _group(m, "qval", "val") if "qval" in rx.groupindex else _group(m, "val")
                if got and secret_key(m.group("key")) and not dsn_without_credentials(m.group("key"), got[1]) \
                        and plausible_secret(got[1], quoted="qval" in rx.groupindex and m.group("qval") is not None):
                    scan.add_value(*got)
    for m in _ENV_LINE.finditer(text):
        parts = m.group("key").split("_")
        hits = [i for i, p in enumerate(parts) if p in _ENV_KEY_PARTS]
        if not hits or not all(p.lower() in AFTER_SECRET_OK or p.isdigit() for p in parts[hits[-1] + 1 :]):
            continue
        got = _group(m, "qval", "val")
        if got and plausible_secret(got[1], quoted=m.group("qval") is not None) \
                and not dsn_without_credentials(m.group("key"), got[1]):
            scan.add_value(*got)
    for m in _NAME_VALUE.finditer(text):
        got = _group(m, "qval", "val")
        if got and secret_key(m.group("key")) and plausible_secret(got[1]) and not dsn_without_credentials(m.group("key"), got[1]):
            scan.add_value(*got)


CODE_COLUMNS = frozenset({"code", "codes", "pin", "pins", "passcode", "combination", "combo", "code pin", "pin code",
                          "código", "codigo", "codice", "kod", "kód", "zugangscode", "kombination", "combinaison", "digicode"})
_NOT_CODE_TABLE = re.compile(r"(?i)country|land|pays|país|error|status|meaning|description|bedeutung|beschreibung|signification"
                             r"|descripción|product|produkt|article|artikel|item|sku|zip|postal|area|language|currency|http")
_TABLE_SEPARATOR = re.compile(r"\s*[|+]?[\s|+:=\-]*[-=][\s|+:=\-]*")
_HTML_ROW = re.compile(
    r"""<(?:th|td|dt)\b[^>\n]{0,80}>[ \t]*(?P<key>[^<>\n]{2,40}?)[ \t:]*</(?:th|td|dt)>\s{0,40}<(?:td|dd)\b[^>\n]{0,80}>[ \t]*"""
    r"""(?:<(?P<tag>code|b|strong|tt|kbd|span|samp|i|em)\b[^>\n]{0,60}>)?(?P<val>[^<>\n]{1,200}?)[ \t]*(?:</(?P=tag)>)?[ \t]*</(?:td|dd)>""",
    re.I,
)


def _may_name_a_secret(low: str, ascii_text: bool) -> bool:
    """Might a table row name a secret column (a cheap look at its words before its cells)?"""
    if any(w in low for w in SECRET_TRIGGERS) or any(w in low for w in INTL_TRIGGERS):
        return True
    if not CODE_COLUMNS.isdisjoint(c.strip(" \t*_`") for c in low.split("|")):
        return True
    return not ascii_text and any(w in low for w in INTL_NON_ASCII + INTL_LATIN_NON_ASCII)


def _secret_label(cell: str) -> bool:
    c = cell.strip().strip("*_`:").strip()
    return 0 < len(c) <= 40 and c.count(" ") <= 3 and (secret_key(c.replace(" ", "_")) or _secret_column(c))


def _cell_value(text: str, offset: int, cell: str) -> tuple[int, str] | None:
    value = cell.strip().strip("`")
    if not value:
        return None
    return text.index(value, offset), value


def find_tables(scan: Scan) -> None:
    """Markdown and ASCII (`+----+`) tables with a secret column (| service | user | password
    |, | Quoi | Identifiant | Code |): its cells; a row whose first cell names a secret (|
    Secret access key | value |, the value maybe wrapped to the next row); an HTML table's
    `<th>Initial-Passwort</th><td><code>value</code></td>`."""
    text = scan.text
    for start, end in scan.lines(("|",)):
        line = text[start:end]
        low = line.lower()
        if not _TABLE_ROW.match(line) or not _may_name_a_secret(low, scan.ascii):
            continue
        confluence = line.lstrip().startswith("||")  # || Account || Secret || heads a wiki table, no separator line
        cells = [c.strip().strip("*_` ") for c in line.strip().strip("|").split("||" if confluence else "|")]
        code_table = not _NOT_CODE_TABLE.search(line)
        cols = [i for i, c in enumerate(cells) if len(c) <= 30 and c.count(" ") <= 2 and not c.startswith(PLACEHOLDER_PREFIX)
                and (secret_key(c.replace(" ", "_")) or _secret_column(c) or (code_table and c.lower() in CODE_COLUMNS))]
        sep_end = text.find("\n", end + 1)
        separator = text[end + 1 : len(text) if sep_end < 0 else sep_end]
        if cols and (confluence or _TABLE_SEPARATOR.fullmatch(separator)):
            codes = {i for i in cols if cells[i].lower() in CODE_COLUMNS}
            pos = end + 1
            while pos < len(text):
                row_end = text.find("\n", pos)
                row_end = len(text) if row_end < 0 else row_end
                row = text[pos:row_end]
                if _TABLE_SEPARATOR.fullmatch(row) and "-" in row or "=" in row and re.fullmatch(r"[\s|+:=\-]+", row):
                    pos = row_end + 1
                    continue  # the separator, or an ASCII table's line between rows
                if not _TABLE_ROW.match(row):
                    break
                offset = pos + row.index("|") + 1
                for i, cell in enumerate(row.strip().strip("|").split("|")):
                    got = _cell_value(text, offset, cell)
                    if got and i in cols and secret_cell(got[1]) and (i not in codes or (len(got[1]) >= 4 and _DIGIT.search(got[1]))):
                        scan.add(got[0], got[0] + len(got[1]), "SECRET")
                    offset += len(cell) + 1
                pos = row_end + 1
            continue
        # a row whose first cell names a secret: | Password | hunter2 | (or the value in the next row)
        raw = line.strip().strip("|").split("|")
        if len(raw) >= 2 and any(w in raw[0].lower() for w in SECRET_TRIGGERS) and _secret_label(raw[0]):
            offset = start + line.index("|") + 1 + len(raw[0]) + 1
            got = _cell_value(text, offset, raw[1])
            if got is None and not raw[1].strip():
                nxt_end = text.find("\n", end + 1)
                nxt = text[end + 1 : len(text) if nxt_end < 0 else nxt_end]
                parts = nxt.strip().strip("|").split("|")
                if _TABLE_ROW.match(nxt) and len(parts) >= 2 and not parts[0].strip():
                    got = _cell_value(text, end + 1 + nxt.index("|") + 1 + len(parts[0]) + 1, parts[1])
            if got and " " not in got[1] and secret_cell(got[1]) and (_answer_like(got[1]) or looks_random(got[1])):
                scan.add(got[0], got[0] + len(got[1]), "SECRET")
    for m in scan.finditer(_HTML_ROW, ("</th>",)):
        if _secret_label(m.group("key")) and secret_cell(m.group("val")):
            scan.add(m.start("val"), m.end("val"), "SECRET")


_INTL_CJK = tuple(w for w in INTL_LABELS if not w.isascii() and not any("a" <= c.lower() <= "z" for c in w))
# Lines to read for INTL_LABELS: those holding a label that has no "pass" in it (the words
# with "pass" are on the lines SECRET_TRIGGERS found already, and _INTL_PASS picks them out).
INTL_TRIGGERS = ("kennwort", "wachtwoord", "contrase", "senha", "adgangskode", "lösenord", "losenord", "salasana",
                 "hasło", "haslo", "heslo", "jelszó", "şifre", "sifre", "parol", "lozink", "geslo", "mdp", "sandi",
                 "laluan", "mat khau", "nenosiri", "clave", "clave wifi", "clave del wifi", "code wifi", "code wi-fi",
                 "wifi-code", "wlan-code", "codice di accesso", "código de acceso", "código de acesso")
# (a word holding one looked for already is only looked for on its lines: "code wifi" on the lines of "code")  # "parol": parola, parole, parolă
INTL_NON_ASCII = ("пароль", *_INTL_CJK)
# Labels in scripts written without spaces between words (CJK, Thai): a value after one is the ASCII run only.
_INTL_NO_SPACE = tuple(w for w in _INTL_CJK if any("\u0e00" <= c <= "\u0e7f" or c >= "\u3000" for c in w))
INTL_LATIN_NON_ASCII = ("lösenord", "hasło", "jelszó", "şifre", "parolă", "mật khẩu", "slaptažodis", "schlüssel", "clé w",
                        "code d'accès", "parool", "wlan-schlüssel")
_INTL_PASS = re.compile(r"passwort|de\s+passe|passord|p(?:ass)?w(?:or)?d?\s+(?:[èé]|e[rs]|est|era|ist|är|je|on)\b"
                        r"|p(?:ass)?w(?:or)?d?\b[^\n:=]{0,60}?\s(?:[èé]|est|era|ist|är|là|adalah)(?=[\s:])")


def intl_lines(scan: Scan) -> list[tuple[int, int]]:
    """The lines where find_intl's regex may match (found once per text)."""
    got = scan._lines.get(INTL_NON_ASCII)
    if got is None:
        low = scan.low
        found = set(scan.lines(INTL_TRIGGERS))
        if not low.isascii():
            found.update(scan.lines(INTL_NON_ASCII + INTL_LATIN_NON_ASCII))
        found.update((a, b) for a, b in scan.lines(SECRET_TRIGGERS) if _INTL_PASS.search(low, a, b))
        got = scan._lines[INTL_NON_ASCII] = sorted(found)
    return got


_ASCII_RUN = re.compile(r"[!-~]*")


def strip_sentence_end(value: str) -> str:
    """A value without the sentence's end after it: `.`, `,`, `;`, `:` and a `)` it did not
    open go; `!`, `?`, `$`, `=` stay (Sommer2024!, Sakura2933$ end with them; taking one
    character too many is harmless, one too few leaks it)."""
    v = value.rstrip(".,;:…")
    while v.endswith(")") and v.count("(") < v.count(")"):
        v = v[:-1].rstrip(".,;:")
    return v


_LATIN_BEFORE = re.compile(r"[A-Za-zÀ-ɏЀ-ӿ]")
_ENGLISH_VERBS = ("is",)


def find_intl(scan: Scan) -> None:
    """A password under its name in another language (the English forms are find_prose's
    and find_assignments'), after `:`/`=` or a verb ("ist", "est", "是"): a value that could
    not be a word of the sentence (a digit, a symbol or a capital inside), so "Passwort:
    vergessen?" and "пароль: обязателен" stay."""
    text = scan.text
    for m in (m for a, b in intl_lines(scan) for m in _INTL.finditer(text, a, b)):
        if m.start() and _LATIN_BEFORE.match(text, m.start() - 1) and m.group("key")[0].isascii():
            continue
        english = m.group("key").lower() in ("password", "pw")
        if english and m.group("gap") is None and (m.group("sep") or (m.group("verb") or "").lower() in _ENGLISH_VERBS):
            continue  # find_assignments and find_prose read these, with their own checks
        if english and m.group("gap") is not None and (m.group("verb") or "").lower() in _ENGLISH_VERBS:
            continue  # "the password for the NAS is X": find_prose's
        if m.group("qval") is not None:
            if plausible_secret(m.group("qval"), quoted=True):
                scan.add(m.start("qval"), m.end("qval"), "SECRET")
            continue
        value = strip_sentence_end(m.group("val"))
        if m.group("key").lower() in _INTL_NO_SPACE:  # a password after these is written in ASCII, no space before the text goes on
            value = _ASCII_RUN.match(value).group(0)  # type: ignore[union-attr]
        line_end = text.find("\n", m.start("val"))
        if is_placeholder(text[m.start("val") : line_end if line_end >= 0 else len(text)]):
            continue  # "Passwort: bitte ändern", "contraseña: por definir"
        if _answer_like(value):  # no stop words of these languages here: a plain word stays
            scan.add_value(m.start("val"), value)


# -- password forms found by the red-team corpus (2026-12-02) ------------------------------

# A passphrase of plain words after its label, on its line or alone on the next one:
# "Diceware passphrase: correct horse battery staple", "the passphrase is: thunder pepper ...".
_PASSPHRASE = re.compile(
    r"""(?i)\b(?:pass\s?phrase|diceware|phrase\s+secr[eè]te|frase\s+(?:de\s+)?(?:contrase[ñn]a|senha|acesso)|wachtwoordzin"""
    r"""|l[öo]senfras|passfrase)\b[^\n:=.!?]{0,60}?(?:[ \t]*[:=]|[ \t]+(?:is|ist|lautet|est|es|é|è)\b)[ \t]*:?[ \t]*"""
)
_PHRASE_WORDS = re.compile(r"(?P<val>[a-zà-ÿ]{2,12}(?:[ \-][a-zà-ÿ]{2,12}){2,11})[ \t]*(?:[.,;)]|\(|$)", re.M)
PHRASE_STOP_WORDS = frozenset("""
the a an to of in into for and or nor is are was were be been by with on at from as it its that this
these not no you your we our they their will can could must should may might used use uses set has
have had do does than then when if any all every each some least most minimum maximum characters
chars letters digits words word long length required optional stored saved changed protected
""".split())
# A password in parentheses right after its name: "temporary admin pw (McF24VAh=AIclFYaUaF4u)".
_PAREN_PASSWORD = re.compile(
    r"""(?i)\b(?:pass\s?words?|passwd|pass\s?phrase|pass\s?code|pwd|pw|""" + _INTL_LABEL + r""")"""
    r"""(?:[ \t]+(?:is|was|currently|now|old|new))?[ \t]*\((?P<val>[^\s()]{6,100})\)"""
)
_PASSWORD_WORD = re.compile(r"""(?i)pass(?:word|wd|phrase|code)|\bpwd?\b|""" + _INTL_LABEL)
_PASSWORD_SYMBOLS = frozenset("!@#$^&*+=?~")
_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)*\.[A-Za-z]{2,}")
_LEFT_IDENT = re.compile(r"[A-Za-z_][\w.\-]*")


def strong_password(token: str, classes: int = 3) -> bool:
    """A token built like a chosen password: letters, digits and symbols mixed (classes of
    lower, upper, digit, symbol), not a URL, an e-mail, a path, a call or an assignment."""
    if not 6 <= len(token) <= 64 or any(c in token for c in "()[]{}<>\\|") or "://" in token:
        return False
    if token.startswith(("$", "%", "/", "~/", "./", "--")) or _EMAIL.fullmatch(token):
        return False
    left, eq, right = token.partition("=")
    if eq and _LEFT_IDENT.fullmatch(left) and (not any(c.isdigit() for c in left) or (not right and re.search(r"\w[-_]\w", left))):
        return False  # KEY=value, min_length=12, a parameter's name (wpa2-pre-shared-key=)
    have = (any(c.islower() for c in token), any(c.isupper() for c in token), any(c.isdigit() for c in token),
            any(c in _PASSWORD_SYMBOLS for c in token))
    return sum(have) >= classes and have[2] and have[3] and (have[0] or have[1])


_TOKEN_EDGES_LEFT = "\"'`«“‘("
_TOKEN_EDGES_RIGHT = "\"'`»”’).,;:"


def find_password_forms(scan: Scan) -> None:
    """Passphrases of plain words after their label, a password in parentheses after its
    name, and a password-shaped token (letters, digits and a symbol mixed: Tr0pic@l#89,
    &Sevilla_5706, B@li86$) anywhere on a line that names a password."""
    text = scan.text
    lines = sorted({*scan.lines(("pass", "pw", "phrase")), *intl_lines(scan)})
    for start, end in lines:
        for m in _PASSPHRASE.finditer(text, start, end):
            pos, stop = m.end(), end
            if pos >= end or not text[pos:end].strip():
                nxt = _next_line(text, end)
                if nxt is None:
                    continue
                pos, stop = nxt
                pos += len(text[pos:stop]) - len(text[pos:stop].lstrip())
            w = _PHRASE_WORDS.match(text, pos, stop)
            if w is not None and not any(x in PHRASE_STOP_WORDS for x in re.split(r"[ \-]", w.group("val"))):
                scan.add(w.start("val"), w.end("val"), "SECRET")
        for m in _PAREN_PASSWORD.finditer(text, start, end):
            if strong_password(m.group("val")):
                scan.add(m.start("val"), m.end("val"), "SECRET")
        if _PASSWORD_WORD.search(text, start, end) is None:
            continue
        for t in re.finditer(r"\S+", text[start:end]):
            raw = t.group(0)
            lead = len(raw) - len(raw.lstrip(_TOKEN_EDGES_LEFT))
            token = raw[lead:].rstrip(_TOKEN_EDGES_RIGHT)
            if strong_password(token, classes=3) and not public_or_example(token):
                a = start + t.start() + lead
                scan.add(a, a + len(token), "SECRET")


# -- configuration files, SQL and password hashes (red-team corpus, 2026-12-02) -------------

# A password hash (crypt(3): MD5 `$1$`/`$apr1$`, bcrypt `$2y$`, SHA-crypt `$5$`/`$6$`,
# yescrypt `$y$`, scrypt `$7$`; argon2, PBKDF2, Django, PostgreSQL SCRAM and `md5` + 32 hex)
# can be cracked offline, so it is a secret by its shape alone.
_CRYPT_HASH = re.compile(
    r"""(?<![\w$])(?:\$(?:1|apr1|md5)\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}"""
    r"""|\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}"""
    r"""|\$[56]\$(?:rounds=\d+\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{43,86}"""
    r"""|\$(?:y|gy|7)\$[./A-Za-z0-9]{1,30}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43}"""
    r"""|\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}"""
    r"""|\$pbkdf2(?:-sha\d+)?\$\d+\$[./A-Za-z0-9+=]{8,}\$[./A-Za-z0-9+=]{16,}"""
    r"""|pbkdf2_sha\d+\$\d+\$[A-Za-z0-9+/=]{4,}\$[A-Za-z0-9+/=]{20,}"""
    r"""|SCRAM-SHA-256\$\d+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+"""
    r"""|\bmd5[0-9a-f]{32}\b"""
    r"""|\$[89]\$[./A-Za-z0-9\-]{8,}(?:\$[./A-Za-z0-9]{20,})?"""  # Cisco type 8 (PBKDF2) and 9 (scrypt); Junos $9$ secrets
    r"""|\{(?:S?SHA(?:256|384|512)?|S?MD5|CRYPT|PBKDF2(?:-SHA\d+)?|ARGON2|SSHA\d*)\}[A-Za-z0-9+/=.$,\-]{8,})"""  # LDAP userPassword
)
# Where a hash may start, found over the whole text (each of these scans at C speed: a
# regex that opens with a literal, or str.find), then matched in full with _CRYPT_HASH.
_CRYPT_START = (re.compile(r"\$(?:1|apr1|md5|2[abxy]?|5|6|8|9|y|gy|7|argon2(?:id|i|d)|pbkdf2(?:-sha\d+)?)\$"),
                re.compile(r"\{(?:S?SHA|S?MD5|CRYPT|PBKDF2|ARGON2)"),
                re.compile(r"md5[0-9a-f]{32}"))
_CRYPT_LITERAL_STARTS = ("pbkdf2_sha", "SCRAM-SHA-256$")
# CREATE USER x IDENTIFIED BY 'pw', ALTER ROLE x WITH LOGIN PASSWORD 'pw', CREATE LOGIN [x] WITH PASSWORD=N'pw'
_SQL_PASSWORD = re.compile(
    r"""(?i)\b(?:create|alter)\s+(?:user|role|login)\b[^\n;]{0,200}?\b(?:identified\s+(?:with\s+\S+\s+)?by(?:\s+password)?|password)"""
    r"""\s*=?\s*N?(?:(?P<q>['"])(?P<qval>[^'"\n]{1,200})(?P=q)|(?P<val>[^\s;'"]{3,200}))"""
)
# PHP constants: define('DB_PASSWORD', '...'), WordPress' define('AUTH_KEY', '...') salts.
_DEFINE = re.compile(
    r"""\bdefine\s*\(\s*(['"])(?P<key>[A-Za-z_]\w{0,60})\1\s*,\s*(?P<q>['"])(?P<qval>[^\n]{1,400}?)(?P=q)\s*\)""")
# strongSwan / libreswan ipsec.secrets: `host : PSK "secret"`
_IPSEC = re.compile(r"""(?m)(?:^|\s):[ \t]*(?:PSK|EAP|XAUTH|NTLM)[ \t]+(?:(?P<q>["'])(?P<qval>[^"'\n]{1,400})(?P=q)|(?P<val>0[xs][A-Za-z0-9+/=]{8,}))""")
# `netsh wlan show profile key=clear` prints the Wi-Fi password as "Key Content : ..."
NETSH_LABELS = ("key content", "schlüsselinhalt", "contenu de la clé", "contenido de la clave", "conteúdo da chave",
                "contenuto chiave", "sleutelinhoud")
NETSH_TRIGGERS = ("key content", "sleutelinhoud", "contenuto chiave")  # and, in a non-ASCII text, the others
_NETSH = re.compile(r"""(?im)^[ \t]*(?:""" + "|".join(NETSH_LABELS) + r""")[ \t]*:[ \t]*(?P<val>\S(?:[^\n]*\S)?)""")
# ODBC's braced value: Pwd={p++ss;word}
_ODBC_BRACED = re.compile(r"""(?im)(?:^|[;\s"'])(?:pwd|password)[ \t]*=[ \t]*\{(?P<val>(?:[^}\n]|\}\})+)\}""")
# A Google app password (four groups of four letters) after a password's name (msmtprc, .netrc)
_APP_PASSWORD = re.compile(
    r"""(?im)\b(?:password|passwd|pass|app[ \t_\-]?password)[ \t]*[:=]?[ \t]+["']?(?P<val>[a-z]{4}(?: [a-z]{4}){3})["']?[ \t]*$""")
# pgbouncer's userlist.txt: "user" "password-or-hash", one pair a line
_USERLIST = re.compile(r"""(?m)^[ \t]*"[^"\n]{1,63}"[ \t]+"(?P<val>[^"\n]{1,200})"[ \t]*$""")
# PowerShell: ConvertTo-SecureString 'pw' -AsPlainText
_PS_SECURE = re.compile(r"""(?i)ConvertTo-SecureString\s+(?:-String\s+)?(?P<q>['"])(?P<qval>[^'"\n]{1,200})(?P=q)(?=[^\n]*-AsPlainText)""")
# `cat config/master.key` (Rails) and the 32 hex digits printed under it
_MASTER_KEY_LINE = re.compile(
    r"""(?m)^[ \t]*(?:\[[^\]\n]{1,24}\][ \t]*)?(?:<?[\w.\-]{1,30}>?:[ \t]+)?(?P<val>[0-9a-f]{32})[ \t]*$""")
SECRET_FILES = ("initialadminpassword", "erlang.cookie", ".vault-token", "vault_pass", "vault-pass", ".vault_password")
_SHOW_FILE = re.compile(r"""\b(?:cat|type|more|less|head|tail|Get-Content|gc|sudo[ \t]+cat)[ \t]""")
_SECRET_FILE_LINE = re.compile(r"""[ \t]*(?P<val>[A-Za-z0-9+/=._\-]{12,200})[ \t]*$""")
# A `user / password` pair after any label ("VPN:  priya.sharma / IXCeT+SAD..."), when the
# second half is built like a password.
_ANY_USER_PASS = re.compile(r"""(?<![\w/])["'`]?[\w.@+\-]{2,60}["'`]?[ \t]+/[ \t]+["'`]?(?P<val>[^\s/"'`]{6,100})""")
# A private key in DER, base64 without PEM armour (a PKCS#12 keystore in a Kubernetes
# secret, a PKCS#8 or PKCS#1 key pasted bare): checked by decoding its first bytes.
_DER_B64 = re.compile(r"""(?<![A-Za-z0-9+/])(?:MI[IJ]|MHcCAQEE)[A-Za-z0-9+/]{60,}={0,2}""")


def der_private_key(b64: str) -> bool:
    """Base64 DER that opens like a private key: SEQUENCE { INTEGER 3, SEQUENCE } (PKCS#12),
    { INTEGER 0, SEQUENCE } (PKCS#8), { INTEGER 0, INTEGER } (PKCS#1 RSA) or an EC key
    { INTEGER 1, OCTET STRING }. Certificates and public keys open with a SEQUENCE."""
    try:
        head = base64.b64decode(b64[:24])
    except ValueError:
        return False
    if len(head) < 9 or head[0] != 0x30:
        return False
    i = 2 + (head[1] & 0x7F) if head[1] & 0x80 else 2
    version = head[i : i + 3]
    nxt = head[i + 3 : i + 4]
    return (version == b"\x02\x01\x03" and nxt == b"\x30") or (version == b"\x02\x01\x00" and nxt in (b"\x30", b"\x02")) \
        or (version == b"\x02\x01\x01" and nxt == b"\x04")


def find_config_formats(scan: Scan) -> None:
    """Password hashes, SQL that sets a password, PHP define(), ipsec.secrets, netsh's Key
    Content, ODBC braces, Google app passwords, pgbouncer's userlist, PowerShell secure
    strings, Rails' master.key, `label: user / password` and DER private keys in base64."""
    text = scan.text
    starts = [m.start() for rx in _CRYPT_START for m in rx.finditer(text)]
    for lit in _CRYPT_LITERAL_STARTS:
        i = text.find(lit)
        while i >= 0:
            starts.append(i)
            i = text.find(lit, i + 1)
    for i in starts:
        if (m := _CRYPT_HASH.match(text, i)) is not None:
            scan.add(m.start(), m.end(), "PASSWORD_HASH")
    for m in scan.finditer(_SQL_PASSWORD, ("identified", "password")):
        got = _group(m, "qval", "val")
        if got and plausible_secret(got[1], quoted=m.group("qval") is not None):
            scan.add(got[0], got[0] + len(got[1]), "SECRET")
    for m in scan.finditer(_DEFINE, ("define",)):
        key = m.group("key")
        if (secret_key(key) or key.endswith(("_KEY", "_SALT"))) and plausible_secret(m.group("qval"), quoted=True) \
                and (secret_key(key) or looks_random(m.group("qval")) or len(m.group("qval")) >= 32):
            scan.add(m.start("qval"), m.end("qval"), "SECRET")
    for m in scan.finditer(_IPSEC, ("psk", "xauth")):  # EAP and NTLM lines are read when they hold one of these
        got = _group(m, "qval", "val")
        if got:
            scan.add(got[0], got[0] + len(got[1]), "SECRET")
    for m in scan.finditer(_NETSH, NETSH_TRIGGERS if scan.ascii else NETSH_LABELS):
        if m.group("val").lower() not in ("present", "absent", "vorhanden", "présent", "presente"):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_ODBC_BRACED, ("pwd", "password")):
        scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_APP_PASSWORD, ("pass",)):
        if not any(w in PHRASE_STOP_WORDS for w in m.group("val").split()):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    if "userlist" in scan.low:  # pgbouncer's userlist.txt, named in the text (a path, a cat)
        for m in _USERLIST.finditer(text):
            if plausible_secret(m.group("val"), quoted=True):
                scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_PS_SECURE, ("securestring",)):
        scan.add(m.start("qval"), m.end("qval"), "SECRET")
    for start, end in scan.lines(SECRET_FILES):  # `cat` of a file that holds one secret: Jenkins, RabbitMQ, Vault, Ansible
        if _SHOW_FILE.search(text, start, end) is None:
            continue
        nxt = _next_line(text, end)
        if nxt is not None and (k := _SECRET_FILE_LINE.match(text, *nxt)) is not None and not public_or_example(k.group("val")):
            scan.add(k.start("val"), k.end("val"), "SECRET")
    for _, end in scan.lines(("master.key",)):  # Rails
        nxt = _next_line(text, end)
        if nxt is not None and (k := _MASTER_KEY_LINE.match(text, *nxt)) is not None:
            scan.add(k.start("val"), k.end("val"), "SECRET")
    for m in scan.finditer(_ANY_USER_PASS, (" / ",)):
        v = strip_sentence_end(m.group("val"))
        if strong_password(v) or (len(v) >= 8 and _strong_cell(v) and re.search(r"[a-z]", v) and re.search(r"[A-Z]", v)):
            scan.add(m.start("val"), m.start("val") + len(v), "SECRET")
    for prefix in ("MII", "MIJ", "MHcCAQEE"):
        i = text.find(prefix)
        while i >= 0:
            m = _DER_B64.match(text, i)
            if m is not None and der_private_key(m.group(0)):
                scan.add(m.start(), m.end(), "PRIVATE_KEY")
            i = text.find(prefix, i + 1 if m is None else m.end())


# -- 2FA seeds, wallet keys, cards, PINs and ID documents (red-team corpus, 2026-12-02) ----

# A TOTP seed (base32, maybe in groups of four) after "2FA secret", "setup key", ...
_TOTP_SEED = re.compile(
    r"""(?i)\b(?:(?:2fa|mfa|totp|otp|authenticator|two[ \t-]factor)[ \t]+(?:secret|seed|key)|setup[ \t]+key|secret[ \t]+key)\b"""
    r"""[^\n:=]{0,40}?[ \t]*[:=][ \t]*(?P<val>[a-z2-7]{4}(?: ?[a-z2-7]{4}){3,15}(?: ?[a-z2-7]{1,4})?)(?![\w-])"""
)
TOTP_TRIGGERS = ("2fa", "otp", "authenticator", "setup key", "secret")
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_INDEX = {c: i for i, c in enumerate(_BASE58)}


def wif_ok(candidate: str) -> bool:
    """A Bitcoin private key in Wallet Import Format: base58 of 0x80 (0xef on testnet), 32
    key bytes, maybe 0x01, and the first four bytes of its double SHA-256. The checksum
    makes the shape safe: a random 51-52 character word passes it once in four billion."""
    if len(candidate) not in (51, 52) or candidate[0] not in "5KL9c":
        return False
    n = 0
    for c in candidate:
        i = _BASE58_INDEX.get(c)
        if i is None:
            return False
        n = n * 58 + i
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    if len(raw) not in (37, 38) or raw[0] not in (0x80, 0xEF):
        return False
    payload, check = raw[:-4], raw[-4:]
    return hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == check


# 64 hex digits (maybe 0x...) on a line that speaks of a private key, a wallet, an account or
# encryption, and not of a digest (sha256, hash, checksum, commit, tx, fingerprint, image).
_HEX64 = re.compile(r"(?<![0-9A-Fa-f])(?:0x)?(?P<val>[0-9a-fA-F]{64})(?![0-9A-Za-z])")
_HEX_KEY_CONTEXT = re.compile(
    r"(?i)private|\bpriv|secret|wallet|accounts?\b|signer|deployer|mnemonic|\bseed|\baes|hmac|cipher|encrypt|decrypt"
    r"|from_key|\bkey\b|_key\b|\bkey_|\bKEY\b")
_HEX_DIGEST_CONTEXT = re.compile(
    r"(?i)sha-?\d|digest|hash|checksum|integrity|commit|txid|\btx\b|transaction|block|fingerprint|etag|\bsum\b"
    r"|image|layer|\boid\b|lfs|sri|blake|md5|\bpub(?:lic)?\b")
# Card data beside a card number: the CVV under its name, the expiry under its name.
CARD_REACH = 300  # characters around a card number where its CVV and expiry are looked for
_CVV = re.compile(
    r"""(?i)(?<![^\W_])(?P<label>cvv2?|cvc2?|cid|csc|cvn|security[ \t]+code|sicherheitscode|prüfziffer|prüfnummer|kartenprüfnummer"""
    r"""|código[ \t]+de[ \t]+seguridad|cryptogramme(?:[ \t]+visuel)?|codice[ \t]+di[ \t]+sicurezza)\b"""
    r"""["'*]*[ \t]*(?:[:=#]|is|ist|es|est)?["'*]*[ \t]*["'*]*(?P<val>\d{3,4})(?![\d/.,]\d|\d)"""
)
_EXPIRY = re.compile(
    r"""(?i)\b(?:exp(?:iry|ires|iration)?(?:[ \t]+date)?\.?|valid(?:[ \t]+(?:thru|through|until|till|to))?|good[ \t]+thru"""
    r"""|gültig[ \t]+bis|ablaufdatum|läuft[ \t]+ab|scad(?:enza)?|vencimiento|vence|caducidad|expira(?:ção)?"""
    r"""|date[ \t]+d'expiration|validade|ważna[ \t]+do)(?![\w])[ \t]*:?[ \t]*(?P<val>(?:0[1-9]|1[0-2])[ \t]?/[ \t]?(?:20\d{2}|\d{2}))(?![\d/])"""
)
# A PIN or a code that opens something, in more forms and languages than _ENTRY_CODE:
# "SIM-PIN 8388, PUK 90311003", "Haustür-Code: 6936#", "Alarmanlage: 320040", "PIN
# (SecureGo): 56624", "Gate code for the loading dock: 2860", "el PIN de la tarjeta es 9208".
_CODE_QUALIFIERS = (r"alarm|door|gate|garage|safe|lock|locker|padlock|keypad|entry|building|house|front[ \t-]?door|haust[üu]r"
                    r"|t[üu]r|tor|garagen|tresor|briefkasten|porte|portail|puerta|port[ãa]o|porta|cancello|bike[ \t]+room"
                    r"|mailbox|storage|wi-?fi|router|sim|phone|handy|voicemail|mailbox")
_PIN = re.compile(
    r"""(?i)(?P<label>\b(?:sim[ \t-]?)?pin(?:[ \t-]?(?:code|nummer|number))?\b|\bpuk\d?\b|\bpasscode\b"""
    r"""|\b(?:""" + _CODE_QUALIFIERS + r""")[\w \t-]{0,20}?(?:code|combo|combination|kod|kód|código|codice)\b"""
    r"""|\b(?:alarmanlage|digicode|türcode|torcode|zahlenschloss)\b)"""
    r"""(?P<gap>[ \t]*\([^()\n]{1,30}\)|[ \t]+(?:for|to|of|de|del|da|do|du|für|zum|zur|der|des|pour|para|per)[ \t]+[^\n:=\d]{1,40}?)?"""
    r"""[ \t]*(?P<sep>:|=|—|–|\b(?:is|es|ist|est|é|è|lautet|was|era)\b)?[ \t]*(?P<val>\d{3,10}#?)(?![\d.,/:]\d|\d)"""
)
PIN_TRIGGERS = ("pin", "code", "combo", "alarm", "pass")  # "PUK 9031..." is read on a line naming the PIN
PIN_TRIGGERS_NON_ASCII = ("código", "kód")
# A passport or ID number after its name: "Reisepass Anna: CX0VKGCR5", "DNI,55123707K".
_ID_DOC = re.compile(
    r"""(?i)\b(?:passport|reisepass|pass(?:nummer|nr\.?)|passeport|pasaporte|passaporto|passaporte|paszport|paspoort"""
    r"""|personalausweis|ausweis(?:nummer)?|id[ \t-]?(?:card|number|no\.?|nr\.?)|dni|carte[ \t]+d'identit[ée]"""
    r"""|driver'?s?[ \t]+licen[cs]e|führerschein(?:nummer)?|national[ \t]+id)(?![\w])"""
    r"""(?:[ \t]*\([^()\n]{1,20}\)|[ \t]+[^\s:=\d,;()]{1,20}){0,3}?[ \t]*(?:[:=,;\t#]|\bno\.?|\bnr\.?|\bnumber\b|\bis\b)?"""
    r"""[ \t]*(?P<val>[A-Z0-9]{6,12})(?![\w-])"""
)
ID_TRIGGERS = ("pass", "pasaporte", "paszport", "paspoort", "ausweis", "id card", "id number", "dni", "licen")
ID_TRIGGERS_NON_ASCII = ("führerschein",)


_DIGIT = re.compile(r"\d")
_DIGITS3 = re.compile(r"\d{3}")


def _with_digits(scan: Scan, rx: re.Pattern[str], words: tuple[str, ...], digits: re.Pattern[str]) -> Iterator[re.Match[str]]:
    """rx's matches on the lines holding one of the words and the digits its value needs."""
    for start, end in scan.lines(words):
        if digits.search(scan.text, start, end) is not None:
            yield from rx.finditer(scan.text, start, end)


def _near_cards(scan: Scan) -> list[tuple[int, int]]:
    text = scan.text
    out: list[tuple[int, int]] = []
    for sp in scan.spans:
        if sp.kind == "CARD":
            a = text.rfind("\n", 0, max(0, sp.start - CARD_REACH)) + 1
            b = text.find("\n", min(len(text), sp.end + CARD_REACH))
            out.append((a, len(text) if b < 0 else b))
    return out


def find_keys_codes_and_documents(scan: Scan) -> None:
    """TOTP seeds, WIF and hex private keys, CVV and expiry beside a card number, PINs and
    codes that open something, passport and ID numbers."""
    text = scan.text
    for m in _with_digits(scan, _TOTP_SEED, TOTP_TRIGGERS, _DIGIT):
        v = m.group("val")
        if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in (m for a, b in scan.long_runs for m in _HEX64.finditer(text, max(0, a - 2), b)):
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line = text[line_start : len(text) if line_end < 0 else line_end]
        if _HEX_KEY_CONTEXT.search(line) and not _HEX_DIGEST_CONTEXT.search(line) and looks_random(m.group("val")):
            scan.add(m.start("val"), m.end("val"), "PRIVATE_KEY")
    windows = _near_cards(scan)
    for a, b in windows:
        for m in _CVV.finditer(text, a, b):
            scan.add(m.start("val"), m.end("val"), "CARD")
        for m in _EXPIRY.finditer(text, a, b):
            scan.add(m.start("val"), m.end("val"), "CARD")
    for m in _with_digits(scan, _PIN, PIN_TRIGGERS if scan.ascii else PIN_TRIGGERS + PIN_TRIGGERS_NON_ASCII, _DIGITS3):
        label = m.group("label").lower()
        if m.group("sep") is None and m.group("gap") is None and not ("pin" in label or "puk" in label):
            continue  # "building code 2021" is a regulation, "Gate code: 2860" a secret
        scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in _with_digits(scan, _ID_DOC, ID_TRIGGERS if scan.ascii else ID_TRIGGERS + ID_TRIGGERS_NON_ASCII, _DIGIT):
        v = m.group("val")
        if (sum(c.isdigit() for c in v) >= 2 or (len(v) >= 8 and any(c.isdigit() for c in v))) \
                and not re.fullmatch(r"(?:19|20)\d\d", v):
            scan.add(m.start("val"), m.end("val"), "ID_NUMBER")


MAX_HEADER_CHARS = 400  # a header line longer than this is not a table's
# A header's cell: a name of a few words (the vowel signs of Devanagari and other Indic
# scripts are marks, not \w: उपयोगकर्ता नाम, पासवर्ड).
_HEADER_CELL = re.compile(r"[^\W\d_][\w\u0900-\u0DFF .#/\-]{0,29}")


def _cells(text: str, start: int, end: int, delim: str) -> list[tuple[int, int]]:
    """The cells of one delimited line as (start, end), a double-quoted cell as one."""
    out: list[tuple[int, int]] = []
    pos = start
    while pos <= end:
        if text.startswith('"', pos):
            close = pos + 1
            while True:
                close = text.find('"', close, end)
                if close < 0 or not text.startswith('"', close + 1):
                    break
                close += 2
            nxt = text.find(delim, close if close >= 0 else pos, end)
        else:
            nxt = text.find(delim, pos, end)
        cell_end = end if nxt < 0 else nxt
        out.append((pos, cell_end))
        if nxt < 0:
            break
        pos = nxt + 1
    return out


def _secret_column(name: str) -> bool:
    low = name.lower()
    return secret_key(name.replace(" ", "_")) or low in INTL_LABELS or any(w in low for w in _INTL_CJK) \
        or any(low.endswith(w) for w in ("passwort", "kennwort", "wachtwoord", "lösenord", "mot de passe"))


def find_delimited(scan: Scan) -> None:
    """CSV, TSV and semicolon tables (a spreadsheet saved as text) under a header with a
    secret column (service,username,password / Konto;Benutzer;Kennwort): that column's
    cells in the rows below, as long as they have the header's number of cells."""
    text = scan.text
    for start, end in sorted({*scan.lines(SECRET_TRIGGERS), *intl_lines(scan)}):
        if end - start > MAX_HEADER_CHARS or text.find("(", start, end) >= 0 or text.find("=", start, end) >= 0:
            continue  # a call or an assignment, not a table's header
        for delim in (",", "\t", ";"):
            if text.find(delim, start, end) < 0:
                continue
            header = _cells(text, start, end, delim)
            names = [text[a:b].strip().strip('"').strip() for a, b in header]
            if len(names) < 2 or not all(_HEADER_CELL.fullmatch(n) and n.count(" ") <= 3 for n in names):
                continue
            cols = [i for i, n in enumerate(names) if _secret_column(n)]
            if not cols:
                continue
            pos = end
            while pos < len(text):
                row_start = pos + 1
                row_end = text.find("\n", row_start)
                row_end = len(text) if row_end < 0 else row_end
                if not text[row_start:row_end].strip():
                    break
                cells = _cells(text, row_start, row_end, delim)
                if len(cells) != len(header):
                    break
                for i in cols:
                    a, b = cells[i]
                    raw = text[a:b]
                    value = raw.strip().strip('"').strip()
                    if value and secret_cell(value):
                        vstart = a + raw.index(value)
                        scan.add(vstart, vstart + len(value), "SECRET")
                pos = row_end
            break


def find_prose(scan: Scan) -> None:
    for rx in (_PROSE, _PROSE_USE, _PROSE_SET):
        for m in scan.finditer(rx, ("pass", "pw", "pin", "key", "secret", "token")):
            if m.group("qval") is not None:
                if plausible_secret(m.group("qval"), quoted=True):
                    scan.add(m.start("qval"), m.end("qval"), "SECRET")
            elif password_like(m.group("val")) and not (  # `token = prefix + suffix` is code
                    rx is _PROSE and "=" in scan.text[m.end("key") : m.start("val")]
                    and _EXPRESSION_GOES_ON.match(scan.text, m.end())):
                scan.add_value(m.start("val"), m.group("val").rstrip(".,;:!?)"))
    for m in scan.finditer(_USER_PASS, ("login", "user", "account", "cred", "u/p", "admin", "root", "sa ",
                                        "postgres", "pi ", "ubuntu", "guest", "operator")):
        got = _group(m, "val", "val2")
        if got and password_like(got[1]) and (m.group("val2") is None or re.search(r"[\d\W_]|[a-z][A-Z]", got[1])):
            scan.add_value(*got)


def find_credentials(scan: Scan) -> None:
    for m in scan.finditer(_URL_CREDS, ("://",)):
        v = m.group("val")
        if not v.startswith(("${", "$", "<", "{", PLACEHOLDER_PREFIX)) and v.lower() not in NOT_SECRET_VALUES \
                and not _MASKED.fullmatch(v):
            scan.add(m.start("val"), m.end("val"), "URL_PASSWORD")
    for rx in (_AUTH_HEADER, _HEADER):
        for m in scan.finditer(rx, ("authorization", "api-key", "token", "cookie")):
            v = m.group("val").rstrip()
            if plausible_secret(v, min_len=6) and not re.fullmatch(r"[A-Za-z]+(?:\s[A-Za-z]+)*", v):
                scan.add_value(m.start("val"), v, "AUTH_HEADER")
    for m in scan.finditer(_SCHEME, ("bearer", "basic", "token")):
        v = m.group("val")
        if any(c.isdigit() for c in v) or looks_random(v):
            scan.add(m.start("val"), m.end("val"), "AUTH_HEADER")
    netrc = "machine" in scan.low or "login" in scan.low
    for rx in (_NETRC, _NETRC_LINE):
        for m in scan.finditer(rx, ("password",)):
            if plausible_secret(m.group("val")) and (netrc or _answer_like(m.group("val"))):  # "Password requirements"
                scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_AUTH_TUPLE, ("auth",)):
        if plausible_secret(m.group("qval"), quoted=True):
            scan.add(m.start("qval"), m.end("qval"), "SECRET")
    for m in scan.finditer(_WIFI_QR, ("wifi:",)):
        scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_DSN, ("@tcp", "@udp", "@unix")):
        if plausible_secret(m.group("val")):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for rx in (_ENTRY_CODE, _ENTRY_CODE_FOR):
        for m in scan.finditer(rx, ("code", "pin", "combin", "combo")):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_SSN, ("ssn", "social security")):
        scan.add(m.start("val"), m.end("val"), "SSN")
    for m in scan.finditer(_BASIC_AUTH_JSON, ('"auth"',)):
        if _is_basic_credentials(m.group("val")):
            scan.add(m.start("val"), m.end("val"), "AUTH_HEADER")
    for m in _PGPASS.finditer(scan.text):
        if plausible_secret(m.group("val")) and not re.fullmatch(r"[\d:]*:[\d:]*", m.group("val")):  # /etc/shadow's day counts
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_SHELL, ("mysql", "mariadb", "sshpass", "curl", "wget", "http", "docker", "podman",
                                    "helm", "oras", "redis-cli", "htpasswd", "sudo", "pass:", "token",
                                    "pgpassword", "mysql_pwd", "rediscli_auth")):
        for n in _SHELL_VALUE_GROUPS:
            if m.group(n) is not None:
                scan.add(m.start(n), m.end(n), "SECRET")
                break


def _next_line(text: str, end: int) -> tuple[int, int] | None:
    """The line after the one ending at `end` (one blank line between is allowed)."""
    for _ in range(2):
        if end >= len(text):
            return None
        start = end + 1
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if text[start:end].strip():
            return start, end
    return None


def _answer_like(value: str) -> bool:
    """A lone word under a secret's label is its value when it could not be a word of the
    page: a digit, a symbol or a capital inside it (`hunter2`, `Tr0ub&dor`, `BlueSky`)."""
    v = value.strip().strip(".,;!?)")
    return (password_like(v) and not _NOT_ANSWER.match(v)
            and re.search(r"\d|[^\w\s]|[a-z][A-Z]", v) is not None)


def find_labelled(scan: Scan) -> None:
    """Secrets given under their label: the value on the next line, seed phrases, 2FA codes."""
    text = scan.text
    for start, end in sorted({*scan.lines(("pass", "pw", "pin", "key", "secret", "token")), *intl_lines(scan)}):
        tail = scan.low[start:end].rstrip(" \t*_`:?=-").removesuffix(" again").removesuffix(" please")
        if not tail.removesuffix(" pls").removesuffix(" is").rstrip(" \t*_`").endswith(_LABEL_ENDINGS):
            continue  # the line does not end with a secret's name: no regex needed
        label = _LABEL_LINE.match(text, start, end)
        if label is None:
            continue
        nxt = _next_line(text, end)
        if nxt is None or _LABEL_LINE.match(text, *nxt):
            continue
        chat = label.group("chat") is not None  # the answer is the next message, its speaker before it
        m = (_CHAT_ANSWER if chat else _ANSWER_LINE).match(text, *nxt)
        if m is None:
            continue
        if m.group("qval") is not None:
            if plausible_secret(m.group("qval"), quoted=True):
                scan.add(m.start("qval"), m.end("qval"), "SECRET")
        elif _answer_like(m.group("val")):
            scan.add_value(m.start("val"), m.group("val").rstrip(".,;!?)"))
    for start, end in scan.lines(("seed", "recovery", "mnemonic", "backup", "wallet")):
        m = _SEED_PHRASE.search(text, start, min(len(text), end + SEED_PHRASE_REACH))  # the words may follow below
        if m is not None and m.start() < end and not _one_word_seed(words := re.findall(r"[a-z]+", m.group("val"))) \
                and (_SEED_LABEL.search(scan.low, start, end) or _SEED_WORD_SEP.search(text, start, end)
                     or bip39_seed_in_some_order(words)):  # a label that names no seed: the words must be one
            scan.add(m.start("val"), m.start("val") + len(m.group("val").rstrip()), "SEED_PHRASE")
    for start, end in scan.lines(("code",)):
        label = _CODES_LABEL.search(text, start, end)
        if label is None:
            continue
        pos, stop = label.end(), end
        if _CODE.search(text, pos, stop) is None:  # the codes start below, maybe after the account's name
            line_end = stop
            for _ in range(CODES_REACH_LINES):
                nxt = _next_line(text, line_end)
                if nxt is None or _CODES_ONLY.match(text, *nxt):
                    break
                line_end = nxt[1]
            if nxt is None or not _CODES_ONLY.match(text, *nxt):
                continue
            pos, stop = nxt
        while True:
            for c in _CODE.finditer(text, pos, stop):
                scan.add(c.start(), c.end(), "SECRET")
            nxt = _next_line(text, stop)
            if nxt is None or not _CODES_ONLY.match(text, *nxt) or _CODE.search(text, *nxt) is None:
                break
            pos, stop = nxt


def _is_basic_credentials(value: str) -> bool:
    """Base64 of `user:password` (what Basic auth and docker's config.json hold)."""
    try:
        raw = base64.b64decode(value, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    user, sep, password = raw.partition(":")
    return bool(sep and user and password and raw.isprintable())


def find_high_entropy(scan: Scan) -> None:
    text = scan.text
    for m in scan.finditer(_ENTROPY_TOKEN, ("secret", "token", "passw", "key", "signing", "credential", "auth",
                                            "bearer", "salt", "signature", "webhook")):
        if not looks_random(m.group(0)):
            continue
        if text[m.start() - 1 : m.start()] == "." or text[m.end() : m.end() + 1] == ".":
            a, b = m.start(), m.end()  # part of a dotted token (pk.eyJ... .sig): judge it whole
            while a and (text[a - 1].isalnum() or text[a - 1] in "._-"):
                a -= 1
            while b < len(text) and (text[b].isalnum() or text[b] in "._-"):
                b += 1
            if public_or_example(text[a:b]):
                continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _AFTER_ID.search(text, max(line_start, m.start() - 16), m.start()):
            continue  # token_id=<uuid>, request_id=...: an identifier
        if _ENTROPY_CONTEXT.search(text, max(line_start, m.start() - 60), m.start()):
            scan.add(m.start(), m.end(), "SECRET")


# -- personal notes: access codes, lists under a heading, passwords without a separator ----
# (second red-team corpus, 2026-12-02: household admin notes, lock and alarm sheets, travel
# plans, password notebooks, letters "if something happens to me")

# A word for a code that opens something, or a compound ending in "code" (Türcode, Abholcode,
# Radio-Code, Entsperrcode, Aktivierungscode, digicode) ...
_ACCESS_WORD = (
    r"""(?P<word>\b(?:sim[ \t-]?)?pin(?:[ \t-]?(?:code|nummer|number))?s?\b|\bpuk\d?\b|\bpass[ \t-]?code\b|\bpassnumm?ber\b"""
    r"""|\bsecurity[ \t]+number\b|\b(?:zahlen)?kombination\b|\bcombina(?:tion|ison|ción|zione)\b|\bcombo\b|\bdigicode\b"""
    r"""|\bkeypad\b|\btastenfeld\b|\bteclado\b|\bkey[ \t]?(?:box|safe)\b|\block[ \t]?box\b|\bschlüssel(?:box|safe|tresor)\b"""
    r"""|\bcaja[ \t]+de[ \t]+llaves\b|\bbo[iî]te[ \t]+[àa][ \t]+cl[ée]s\b|\bscharf/unscharf\b"""
    r"""|code\b|\bc[óo]digo\b|\bcodice\b|\bk[oó]d\b|\bm[ãa][ \t]+(?:c[ổo]ng|c[ửu]a|kh[óo]a|pin|k[ée]t|otp)\b"""
    r"""|暗証番号|पिन)"""
)
# ... but not these codes: a postcode, an error or exit code, source code, a promo code.
NOT_ACCESS_CODES = (
    "post", "postal", "zip", "area", "country", "länder", "lander", "error", "fehler", "status", "exit", "return",
    "source", "quell", "program", "bar", "qr", "uni", "op", "byte", "morse", "farb", "color", "colour", "hex",
    "char", "key", "short", "pseudo", "machine", "native", "dead", "sample", "example", "test", "html", "css",
    "inline", "version", "product", "produkt", "promo", "discount", "rabatt", "gutschein", "voucher", "coupon",
    "gift", "tracking", "sendungs", "reference", "referenz", "bank", "sort", "swift", "bic", "tax", "steuer", "icd",
    "diagnos", "airport", "currency", "language", "sprach", "dial", "region", "station", "class", "course",
    "modul", "module", "iso", "ean", "upc", "sku", "zoll", "customs", "dress", "building", "bau", "lang", "locale",
    "http", "response", "event", "fehler", "shipping", "access", "ansi", "escape", "scan", "auth", "authorization",
    "confirmation", "booking", "buchungs", "airline", "fare", "seat", "gate", "flight", "vat", "ust", "lei",
    "branch", "routing", "ifsc", "bsb", "aba", "cpt", "hs", "nace", "naics", "sic", "mcc", "zone", "time",
)
_ACCESS_SEP = r"""[ \t]*(?:[:=：]|\.{3,}|…+|[ \t][—–-](?=[ \t])|\b(?:is|ist|lautet|est|es|é|è|era|was|lautete)\b)"""
# The value: digits (maybe # after), a combination (14-23-15, 22 - 76 - 75), a code of capitals
# and digits (6A2267, 0051UL, QCQ6R) or two groups of four (TZGD-ICUD).
_ACCESS_VALUE = (
    r"""(?P<val>\d{1,3}(?:[ \t]*[-–][ \t]*\d{1,3}){2,5}(?![\d\-])|\d{3}[- ]\d{3}(?![\d\-])"""
    r"""|(?=[A-Z]{0,9}\d)(?=\d{0,9}[A-Z])[A-Z0-9]{4,10}(?![\w\-])|[A-Z0-9]{4}-[A-Z0-9]{4}(?![\w\-])|\d{3,10}#?(?![\d.,/:]\d|\d))"""
)
_ACCESS_CODE = re.compile(
    r"""(?i)""" + _ACCESS_WORD
    + r"""(?:(?P<gap>[ \t]*\([^()\n]{1,60}\)[^\n:=：]{0,60}?|[ \t]+[^\n:=：]{1,80}?)?""" + _ACCESS_SEP + r"""[ \t]*|[ \t]+(?=\d))"""
    + r"""(?:[*_`"'„“«「]+)?(?-i:""" + _ACCESS_VALUE + r""")"""
)
# The words other detectors look for too, mostly; none that is part of common words of code
# ("block", "encoding", "serialize"), each absent word costs a scan of the text.
ACCESS_TRIGGERS = ("pin", "puk", "code", "combo", "combin", "kombin", "pass", "alarm", "keypad", "security n", "digo")
ACCESS_TRIGGERS_NON_ASCII = ("código", "kód", "schlüssel", "暗証番号", "पिन", "mã ")
# The code in its message: "G-562382 is your Google verification code", "123456 ist dein Code".
_CODE_FIRST = re.compile(
    r"""(?i)(?<![\w\-])(?:G-)?(?P<val>\d{4,8})[ \t]+(?:is|ist|est|es|é)[ \t]+(?:your|dein|ihr|votre|tu|su|seu)\b[^\n.]{0,40}?code\b""")


def _not_access_code(word: str, text_before: str) -> bool:
    """A code word that names no secret: postcode, error code, "QR-Code", "source code"."""
    w = word.lower().replace("-", "").replace(" ", "")
    if w.endswith("code") and w != "code" and not w.endswith(("passcode", "pincode", "digicode")):
        stem = w[:-4]  # a short word is the whole stem: "Sicherheitscode" is no "SIC code"
        return any(stem == x or len(x) >= 4 and (stem.endswith(x) or stem.startswith(x)) for x in NOT_ACCESS_CODES)
    if w in ("code", "código", "codigo", "codice", "kod", "kód"):
        prev = re.search(r"([\w\-]+)[ \t]*$", text_before)
        return prev is not None and prev.group(1).lower().replace("-", "") in NOT_ACCESS_CODES
    return False


def _names_other_code(gap: str | None) -> bool:
    """The word right after a code word says what code it is: "Código postal: 28013", "Kód
    produktu: 4471" (a postcode, a product code)."""
    first = re.match(r"[ \t]*([^\W\d_]+)", gap or "")
    if first is None:
        return False
    w = first.group(1).lower()
    return any(w == x or (len(x) >= 4 and w.startswith(x)) for x in NOT_ACCESS_CODES)


_ACCESS_WORD_RX = re.compile(r"(?i)" + _ACCESS_WORD)
_LONE_CODE = re.compile(r"[ \t]*(?-i:" + _ACCESS_VALUE + r")[ \t]*$")
_DIGIT_OR_GROUP = re.compile(r"\d{3}|\d[ \t]*[-–][ \t]*\d|[A-Z]{4}-[A-Z]{4}|[A-Z]\d|\d[A-Z]")


def find_access_codes(scan: Scan) -> None:
    """PINs, PUKs, combinations and codes that open something, after their name on a line
    ("PUK: 30626595", "combination 14-23-15", "Radio-Code (nach Batteriewechsel): 0699",
    "Master user code ............ 6522", "iPad de mamá: código 980063", "Abholcode für das
    Paket: 884174", "Your WhatsApp code: 349-546"), and a one-time code in its message."""
    text = scan.text
    words = ACCESS_TRIGGERS if scan.ascii else ACCESS_TRIGGERS + ACCESS_TRIGGERS_NON_ASCII
    for m in _with_digits(scan, _ACCESS_CODE, words, _DIGIT_OR_GROUP):
        line_start = text.rfind("\n", 0, m.start()) + 1
        ws = m.start()
        while ws > line_start and ws > m.start() - 24 and (text[ws - 1].isalnum() or text[ws - 1] in "-_"):
            ws -= 1  # the whole compound: Türcode, Radio-Code, QR-Code
        word = text[ws : m.end("word")]
        if _not_access_code(word, text[line_start:ws]) or _names_other_code(m.group("gap")):
            continue
        v = m.group("val")
        if re.fullmatch(r"(?:19|20)\d\d", v) and not word.lower().startswith(("pin", "puk", "sim")):
            continue  # "building code 2021", "the code for the build is 2024"
        scan.add(m.start("val"), m.end("val"), "SECRET")
    for start, end in scan.lines(("code",)):
        if not text[start:end].rstrip().endswith(":") or (w := _ACCESS_WORD_RX.search(text, start, end)) is None:
            continue
        ws = w.start()
        while ws > start and (text[ws - 1].isalnum() or text[ws - 1] in "-_"):
            ws -= 1
        if _not_access_code(text[ws : w.end()], text[start:ws]):
            continue
        nxt = _next_line(text, end)
        if nxt is not None and (c := _LONE_CODE.match(text, *nxt)) is not None:
            scan.add(c.start("val"), c.end("val"), "SECRET")
    for m in scan.finditer(_CODE_FIRST, ("code",)):
        scan.add(m.start("val"), m.end("val"), "SECRET")


# A heading that names what the lines below it list, and the cells of those lines that are
# such values: a password notebook ("Passwörter" / "zalando — M3rl1n36_"), lock and door
# codes ("lock codes" / "- blue bike (Kryptonite cable): 4161"), an alarm's handover sheet,
# passports ("Passports" / "Raj — 740527360"), licence keys, a TAN list.
_HEADING_KINDS = (
    ("PASSWORD", re.compile(r"""(?i)\b(?:pass\s?words?|passwörter|passworte|kennwörter|mots\s+de\s+passe|contraseñas|senhas"""
                            r"""|wachtwoorden|passord|lösenord|hasła|logins?|zugangsdaten|credentials|zugänge)\b""")),
    ("CODE", re.compile(r"""(?i)\b(?:codes|c[óo]digos|codici|kody|pins|combinations?|kombinationen|combinaisons|digicodes"""
                        r"""|alarm(?:anlage)?|alarme|safe|tresor|coffre|caja\s+fuerte|keypad|tastenfeld|locks|schlösser|cadenas|candados)\b""")),
    ("ID_NUMBER", re.compile(r"""(?i)\b(?:passports?|reisepässe|reisepass|passeports?|pasaportes?|passaport[io]s?|ausweise)\b""")),
    ("LICENSE_KEY", re.compile(r"""(?i)\b(?:licen[cs]es?|lizenz(?:en|schlüssel)?|licences?|product\s+keys?|serial\s+(?:numbers|keys)|seriennummern)\b""")),
)
HEADING_TRIGGERS = ("pass", "login", "cred", "code", "digo", "pin", "combin", "kombin", "alarm", "keypad", "licen")
# Substrings one of which a heading of each kind holds (a kind's regex runs only then).
_HEADING_HINTS = (
    ("pass", "wörter", "login", "zugang", "cred", "contrase", "senha", "wachtwoord", "lösenord", "hasł"),
    ("code", "codig", "códig", "codic", "kody", "pins", "combin", "kombin", "alarm", "safe", "tresor", "coffre", "caja",
     "keypad", "tastenfeld", "locks", "schlösser", "cadenas", "candados"),
    ("pass", "päss", "ausweis"),
    ("licen", "lizenz", "product key", "serial", "seriennummer"),
)


_CODE_LINE = re.compile(r"""\w\(|[={};"`]|\b(?:def|return|class|import)\b""")  # source code, not a heading


_ANY_HINT = re.compile("|".join(re.escape(h) for hints in _HEADING_HINTS for h in hints))


def _heading_kind(low: str, line: str) -> str | None:
    if _ANY_HINT.search(low) is None:
        return None
    for (kind, rx), hints in zip(_HEADING_KINDS, _HEADING_HINTS, strict=True):
        if any(h in low for h in hints) and rx.search(line):
            return kind
    return None


HEADED_LIST_LINES = 40  # lines under a heading that are read at most
_LIST_SEP = re.compile(r"""[ \t]*(?:[:=：]|\.{3,}|…+|[ \t][—–-]|\t|[ \t]{2,})[ \t]*""")
_LIST_BULLET = re.compile(r"""[ \t]*(?:[-*+•][ \t]+|\d{1,2}[.)][ \t]+)?""")
_QUOTE_PAIRS = {"„": "“", "“": "”", "”": "”", "‘": "’", "‚": "‘", "«": "»", "»": "«", "「": "」", "『": "』", "`": "`", "'": "'", '"': '"'}
_CODE_SHAPE = re.compile(_ACCESS_VALUE.replace("(?P<val>", "(?:", 1))
_ID_SHAPE = re.compile(r"(?=[A-Z]{0,11}\d)[A-Z0-9]{6,12}")
_LICENSE_SHAPE = re.compile(r"[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){2,7}")
_HEADING_NOT = re.compile(r"""(?i)\b(?:policy|policies|requirements?|rules?|regeln|richtlinie|how\s+to|tips?|reset|manager|error|status"""
                          r"""|postal|zip|country|area|promo|discount|source|qr|bar|hints?|hinweise?)\b""")


def _strong_cell(v: str) -> bool:
    """A cell under a password heading: built like a chosen password (a digit and a letter,
    and mixed case or a symbol), not an e-mail, a URL, a path or a date."""
    if not 6 <= len(v) <= 64 or _NOT_ANSWER.match(v) or _EMAIL.search(v) or "://" in v:
        return False
    letters = any(c.isalpha() for c in v)
    digit = any(c.isdigit() for c in v)
    mixed = any(c.islower() for c in v) and any(c.isupper() for c in v)
    symbol = any(not c.isalnum() for c in v)
    return letters and digit and (mixed or symbol) and not (_CODE_VALUE.match(v) and not looks_random(v))


def _unquote(cell: str) -> tuple[int, str]:
    """A cell without the quotes around it (8 kinds: „x“ “x” ‘x’ «x» 「x」 `x` 'x' "x")."""
    if len(cell) >= 3 and cell[0] in _QUOTE_PAIRS and cell[-1] in (_QUOTE_PAIRS[cell[0]], "“", "”", "’", "»", "」"):
        return 1, cell[1:-1]
    return 0, cell


def _list_values(kind: str, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The values on one line under a heading of this kind."""
    b = _LIST_BULLET.match(text, start, end)
    pos = b.end() if b else start
    line = text[pos:end]
    if not line.strip():
        return
    cells: list[tuple[int, str]] = []
    for part in re.finditer(r"[^\t]+", line):
        sub = part.group(0)
        seps = list(_LIST_SEP.finditer(sub))
        a = 0
        for s in seps:
            if s.start() > a:
                cells.append((pos + part.start() + a, sub[a : s.start()]))
            a = s.end()
        if a < len(sub):
            cells.append((pos + part.start() + a, sub[a:]))
    if len(cells) < 2 and kind != "CODE":
        return
    if kind == "CODE" and len(cells) == 1:  # a value that opens the line: "712894 then #"
        c = _CODE_SHAPE.match(line)
        if c and (len(line) == c.end() or line[c.end()] in " \t#"):
            yield pos, pos + c.end()
        return
    for i, (a, raw) in enumerate(cells):
        if i == 0:
            continue  # the label
        cell = raw.strip()
        lead, cell = _unquote(cell)
        a += raw.index(raw.strip()[:1]) + lead if raw.strip() else 0
        if kind == "PASSWORD":
            if " " not in cell and (_strong_cell(cell) or (lead and len(cell) >= 6)):
                yield a, a + len(cell)
        elif kind == "CODE":
            c = _CODE_SHAPE.match(cell)
            if c and (c.end() == len(cell) or cell[c.end()] in " \t#(") and i == 1:
                yield a, a + c.end()
        elif kind == "ID_NUMBER":
            c = _ID_SHAPE.match(cell)
            if c and (c.end() == len(cell) or cell[c.end()] in " \t(") and i == 1:
                yield a, a + c.end()
        else:
            c = _LICENSE_SHAPE.search(cell)
            if c:
                yield a + c.start(), a + c.end()


def find_headed_lists(scan: Scan) -> None:
    """Values listed under a heading that names them (see _HEADING_KINDS)."""
    text = scan.text
    for start, end in scan.lines(HEADING_TRIGGERS):
        if end - start > 100 or end >= len(text) - 1 or text.startswith("    ", start):
            continue  # too long, the text's last line, or indented like code
        head = text[start:end]
        kind = _heading_kind(scan.low[start:end], head)
        if kind is None or head.lstrip()[:1] in ("|", "+") or _HEADING_NOT.search(head) \
                or _CODE_LINE.search(head.strip(" \t=#*_-")):
            continue
        if re.search(r"[:=：][ \t]*[^\s(]", head.strip(" \t=#*_-").split("(")[0]) or _ACCESS_CODE.search(head):
            continue  # a label with its value, not a heading
        pos, blank_ok, n = end, True, 0
        while pos < len(text) and n < HEADED_LIST_LINES:
            a = pos + 1
            b = text.find("\n", a)
            b = len(text) if b < 0 else b
            if not text[a:b].strip():
                if not blank_ok:
                    break
                blank_ok = False
                pos = b
                continue
            blank_ok = False
            if n and _heading_kind(scan.low[a:b], text[a:b]) and not _LIST_SEP.search(text, a, b):
                break  # the next heading
            if text[a:b].lstrip()[:1] in ("|", "+"):
                break  # a table: find_tables reads it
            for x, y in _list_values(kind, text, a, b):
                scan.add(x, y, "SECRET" if kind in ("PASSWORD", "CODE") else kind)
            pos, n = b, n + 1


# -- seed phrases by the BIP-39 word list -------------------------------------------------
# The English list of BIP-39 (public, 2048 words, filegram/redact/bip39_english.txt): a
# seed written as a numbered grid ("1. puzzle   13. spell") or as one line without a label.
_BIP39: dict[str, int] | None = None
_NUMBERED_WORD = re.compile(r"(?<![\w.])(?P<n>\d{1,2})[.):]?[ \t]+(?P<w>[a-z]{3,8})(?![\w\-])")
_GRID_START = re.compile(r"\n[ \t]*1[.):]?[ \t]+[a-z]{3,8}(?![\w\-])")
SEED_GRID_REACH = 2000  # characters a numbered grid of 12-24 words may span


def bip39_words() -> dict[str, int]:
    global _BIP39
    if _BIP39 is None:
        from importlib.resources import files
        words = files("filegram.redact").joinpath("bip39_english.txt").read_text("utf-8").split()
        _BIP39 = {w: i for i, w in enumerate(words)}
    return _BIP39


SEED_TRIGGERS = ("seed", "recovery", "mnemonic", "wallet")  # the words _SEED_PHRASE looks for too


def bip39_checksum_ok(words: list[str]) -> bool:
    """Words whose last bits are the SHA-256 checksum BIP-39 puts there (1 in 16 for 12 random
    list words, 1 in 256 for 24): a wallet's seed, not a list that happens to use its words."""
    index = bip39_words()
    if len(words) not in (12, 15, 18, 21, 24) or any(w not in index for w in words):
        return False
    bits = "".join(format(index[w], "011b") for w in words)
    cs = len(words) // 3
    entropy = int(bits[:-cs], 2).to_bytes((len(bits) - cs) // 8, "big")
    return format(hashlib.sha256(entropy).digest()[0], "08b")[:cs] == bits[-cs:]


def bip39_seed_in_some_order(words: list[str]) -> bool:
    """bip39_checksum_ok as the words are read, or read down the columns of a grid of 2-4
    columns (a seed written in columns is read across its rows)."""
    n = len(words)
    orders = [words] + [[words[r * k + c] for c in range(k) for r in range(n // k)] for k in (2, 3, 4) if n % k == 0]
    return any(bip39_checksum_ok(o) for o in orders)


def find_seed_words(scan: Scan) -> None:
    """A seed's words numbered in a grid below a line that names a seed, a wallet or a
    recovery ("TREZOR MODEL T — RECOVERY SEED (24 words)" / " 1. puzzle   13. spell"): each
    word is redacted when 12-24 of them are BIP-39 words numbered 1-24 (the one-line form is
    _SEED_PHRASE's). Only the text after such a line is read: a numbered list of ordinary
    words is common, a seed without any label is not looked for."""
    text = scan.text
    done = -1
    for start, end in scan.lines(SEED_TRIGGERS):
        if end <= done:
            continue
        if _GRID_START.search(text, end, min(len(text), end + 400)) is None:
            continue  # no "1. word" below the label
        stop = min(len(text), end + SEED_GRID_REACH)
        grid: dict[int, tuple[int, int]] = {}
        index = bip39_words()
        for m in _NUMBERED_WORD.finditer(text, start, stop):
            n = int(m.group("n"))
            if 1 <= n <= 24 and m.group("w") in index:
                grid.setdefault(n, (m.start("w"), m.end("w")))
        if len(grid) >= 12 and set(grid) >= set(range(1, 13)):
            if _SEED_LABEL.search(scan.low, start, end) is None:
                # a label that names no seed ("Trezor wallet", "Recovery week shopping list"):
                # the words in their order must carry a seed's checksum
                n = max(k for k in (24, 21, 18, 15, 12) if set(grid) >= set(range(1, k + 1)))
                if not bip39_checksum_ok([text[a:b] for a, b in (grid[i] for i in range(1, n + 1))]):
                    continue
            for a, b in grid.values():
                scan.add(a, b, "SEED_PHRASE")
            done = max(b for _, b in grid.values())


# -- passwords without a separator, questions and answers, chats, values said twice --------

_PW_LABEL = (r"""pass\s?words?|pass\s?code|passwort|kennwort|passwd|pwd|pw|pass\s?phrase|passnumm?ber|master\s+password|contraseña"""
             r"""|contrasena|senha|mot\s+de\s+passe(?:\s+ma[îi]tre)?|wachtwoord|hasło|haslo|heslo|parola|비밀번호|パスワード|密码|密碼""")
# "pw OskarBarcelona243", "contraseña BretagneBarcelona43", "비밀번호 MarmaladeSonnenschein137",
# "passphrase ("hidden wallet"): Nordkap71", "パスワード「md2aJiMlmS」", "Ziggo account (tv): snoopy8098#"
_PW_DIRECT = re.compile(
    r"""(?i)(?:(?<![\w\-])|(?<=\\n))(?P<key>""" + _PW_LABEL + r"""|(?P<acct>account|konto|compte|cuenta|conta|login))"""
    r"""(?:[ \t]*\((?P<note>[^()\n]{1,40})\))?(?P<sep>[ \t]*[:=：][ \t]*|[ \t]+(?:[—–-][ \t]+)?|(?=[「«“„]))"""
    r"""(?:(?P<q>[„“”"'‘«「`])(?P<qval>[^\s„“”"'’»」`]{3,64})[“”"'’»」`]|(?P<val>[^\s"'`«»「」()]{6,64}))"""
)
_STRONG_ALGORITHMS = frozenset({"argon2id", "argon2i", "argon2d", "pbkdf2", "sha256", "sha512", "bcrypt", "scrypt",
                                "yescrypt", "sha-256", "sha-512"})
# A phrase after a label that ends its line ("The 1Password account password (all lowercase,
# spaces included):" / "heavy naive olympic index amazing 42"), or a quoted value there
# ("Mot de passe maître :" / "« fix-myself-lumber-vital-62 »").
_LABEL_ENDS_LINE = re.compile(r"""(?i)(?:""" + _PW_LABEL + r""")\b[^\n:]{0,60}:[ \t]*$""")
_QUOTED_LINE = re.compile(r"""[ \t]*(?P<q>[«„“"'‘「])[ \t]?(?P<val>[^\n«»„“”"'’「」]{3,100}?)[ \t]?[»“”"'’」][ \t]*$""")
_PHRASE_LINE = re.compile(r"""[ \t]*(?P<val>[a-z]{2,12}(?:[ \-][a-z]{2,12}){2,11}(?:[ \-]\d{1,4})?)[ \t]*$""")
# "changed the Yahoo password from Teddy%TPU4 to Coco#3CYM": both are passwords
_FROM_TO = re.compile(r"""(?i)\b(?:pass\s?words?|passwort|pw|pin|kennwort)\s+(?:von|from|de)\s+(?P<old>\S{4,64})\s+(?:to|zu|auf|à|a)\s+(?P<new>\S{4,64})""")
# A security question and its answer: "- Mother's maiden name?   → Kowalczyk",
# `security Q "first pet": Pepper`, `memorable answer "fig tree"`.
_QUESTION_ANSWER = re.compile(r"""(?m)^[ \t]*(?:[-*•][ \t]+)?[^\n?]{3,80}\?[ \t]*(?:→|->|=>|:|—|–)[ \t]*(?P<val>[^\n]{2,60}?)[ \t]*$""")
_SECURITY_Q = re.compile(
    r"""(?i)\b(?:security\s+(?:q|question|answer)|sicherheitsfrage|question\s+secr[èe]te|pregunta\s+de\s+seguridad|memorable\s+(?:answer|word|info(?:rmation)?|phrase))"""
    r"""\b(?:[ \t]*["“'][^"”'\n]{1,60}["”'])?[ \t]*(?:[:=]|\bis\b)?[ \t]*(?:(?P<q>["“'])(?P<qval>[^"”'\n]{2,60})["”']|(?P<val>[^\s,;]{2,60}))""")
SECURITY_Q_TRIGGERS = ("security", "memorable")
# A chat line: "[03.05.24, 17:21:09] Papa: ...", "12/03/2024, 21:05 - Rachel: ...", "[2024-04-02 08:21] Jess: ..."
_CHAT_LINE = re.compile(r"""(?m)^(?:\[[^\]\n]{5,24}\][ \t]*|\d{1,4}[./\-]\d{1,2}[./\-]\d{2,4},?[ \t]+\d{1,2}:\d{2}(?::\d{2})?[ \t]*[-–][ \t]*)(?P<who>[^:\n]{1,30}):[ \t]+(?P<msg>[^\n]*)$""")
_CHAT_ASKS = re.compile(r"""(?i)pass|pw\b|kennwort|wifi|wi-fi|wlan|code|pin\b|login|contrase|senha|mot de passe|mdp|密码|パスワード"""
                        r"""|\bkod|\bkód|c[óo]digo|codice|koodi|\bblik\b|\btan\b|код""")
_CHAT_VALUE = re.compile(
    r"""(?i)^(?:it'?s|es ist|das ist|c'est|es|é)?[ \t]*(?:(?P<q>["'“„«])(?P<qval>[^\s"'”“»]{3,64})["'”“»]|(?P<val>[^\s"']{3,64}))(?:[ \t]+\S.*)?$""")


# A request without a question mark: "podaj mi kod BLIK", "send me the code", "schick mir die TAN".
_CHAT_REQUEST = re.compile(r"""(?i)\b(?:send|give|tell|read|text|forward|podaj|daj|wyślij|prześlij|schick|gib|sag|nenn"""
                           r"""|dime|manda|envía|envoie|donne|dis-moi|dammi|mandami|dimmi|pošli|řekni|napiš|stuur|geef|skicka|send"""
                           r"""|lähetä|kerro|gönder|söyle|пришли|скажи|отправь)\b""")
CHAT_HEAD_CHARS = 2000  # a chat export shows a message near its start (a title, a notice before)


def _chat_secret(value: str) -> bool:
    """A chat's answer to a question about a password or a code: a code, a password-like token
    or a passphrase of words with a number (field-desert-swing-78)."""
    v = value.rstrip(".,;!")
    if _CODE_SHAPE.fullmatch(v) or _strong_cell(v):
        return True
    return re.fullmatch(r"[a-z]{2,12}(?:-[a-z]{2,12}){2,8}-\d{1,4}", v) is not None


def find_password_values(scan: Scan) -> None:
    """A password right after its name without a separator, after a note in parentheses, in
    quotes that open right after it, on the line after a label ending in a colon; `x to y`
    changes; security questions and their answers; chat answers to "what's the wifi?"."""
    text = scan.text
    lines = sorted({*scan.lines(("pass", "pw", "account", "login")), *intl_lines(scan)})
    for start, end in lines:
        for m in _PW_DIRECT.finditer(text, start, end):
            if m.group("qval") is not None:
                v, a = m.group("qval"), m.start("qval")
                ok = _answer_like(v) and (not m.group("acct") or _strong_cell(v))
            else:
                v, a = re.sub(r"(?:\\[nrt])+$", "", strip_sentence_end(m.group("val"))), m.start("val")
                sep = m.group("sep").strip()
                ok = _strong_cell(v) and re.split(r"[-_.]", v.lower())[0] not in _STRONG_ALGORITHMS \
                    and not v.startswith(("http", "www.", "$", "{"))
                if m.group("acct"):
                    ok = ok and bool(sep) and any(c in _PASSWORD_SYMBOLS for c in v)
                elif not sep and "=" in v and not any(c.isdigit() for c in v.partition("=")[0]):
                    ok = ok and not _LEFT_IDENT.fullmatch(v.partition("=")[0]) or "~" in v
            if ok:
                scan.add(a, a + len(v), "SECRET")
        if text[start:end].rstrip().endswith(":") and _LABEL_ENDS_LINE.search(text, start, end):
            nxt = _next_line(text, end)
            if nxt is not None:
                q = _QUOTED_LINE.match(text, *nxt)
                p = _PHRASE_LINE.match(text, *nxt)
                if q is not None:
                    scan.add(q.start("val"), q.end("val"), "SECRET")
                elif p is not None and not any(w in PHRASE_STOP_WORDS for w in re.split(r"[ \-]", p.group("val"))):
                    scan.add(p.start("val"), p.end("val"), "SECRET")
        if " from" not in scan.low[start:end] and " von" not in scan.low[start:end]:
            continue
        stop = _next_line(text, end)
        for m in _FROM_TO.finditer(text, start, stop[1] if stop else end):
            for g in ("old", "new"):
                v = strip_sentence_end(m.group(g))
                if _strong_cell(v):
                    scan.add(m.start(g), m.start(g) + len(v), "SECRET")
    if any(scan.lines((w,)) for w in SECURITY_Q_TRIGGERS):
        for m in scan.finditer(_SECURITY_Q, SECURITY_Q_TRIGGERS):
            got = _group(m, "qval", "val")
            if got and plausible_secret(got[1], quoted=m.group("qval") is not None):
                scan.add(got[0], got[0] + len(got[1].rstrip(".,;")), "SECRET")
        if "security q" in scan.low or "sicherheitsfrage" in scan.low:
            for m in _QUESTION_ANSWER.finditer(text):
                scan.add(m.start("val"), m.end("val"), "SECRET")
    if _CHAT_LINE.search(text, 0, min(len(text), CHAT_HEAD_CHARS)) and (chats := list(_CHAT_LINE.finditer(text))):
        for i, m in enumerate(chats):
            msg = m.group("msg")
            if "?" not in msg and "wants a code" not in msg.lower() and not _CHAT_REQUEST.search(msg):
                continue
            asks = _CHAT_ASKS.search(msg) is not None
            for reply in chats[i + 1 : i + 3]:
                if reply.group("who") == m.group("who"):
                    continue
                r = _CHAT_VALUE.match(reply.group("msg"))
                if r is None:
                    break
                got = _group(r, "qval", "val")
                if got and (asks and _chat_secret(got[1]) or _strong_cell(got[1]) and any(c in _PASSWORD_SYMBOLS for c in got[1])):
                    a = reply.start("msg") + got[0]
                    scan.add(a, a + len(got[1].rstrip(".,;!")), "SECRET")
                break


REPEAT_REACH = 4000  # characters around a found value where it is looked for again (a note, a mail, a chat)


def find_repeats(scan: Scan) -> None:
    """A password found once is hidden wherever else the text says it again ("same as last
    year: X", "it's also X"): every other whole-token occurrence of a found value of 8 or more
    characters with a digit or a symbol in it, within REPEAT_REACH of it (so a text holding
    many secrets costs no scan of all of it per secret)."""
    text = scan.text
    seen: set[str] = set()
    for sp in list(scan.spans):
        if sp.kind not in ("SECRET", "URL_PASSWORD"):
            continue  # a format found by its shape is found wherever it is repeated
        v = text[sp.start : sp.end]
        if len(v) < 8 or v in seen or "\n" in v or v.isalpha():
            continue
        seen.add(v)
        stop = min(len(text), sp.end + REPEAT_REACH)
        i = text.find(v, max(0, sp.start - REPEAT_REACH), stop)
        while i >= 0:
            j = i + len(v)
            if i != sp.start and not (i and (text[i - 1].isalnum() or text[i - 1] in "_-")) \
                    and not (j < len(text) and (text[j].isalnum() or text[j] in "_")):
                scan.add(i, j, sp.kind)
            i = text.find(v, j, stop)


# -- more formats of the second red-team corpus (2026-12-02) ------------------------------

# A booking reference (airline PNR, DB Auftragsnummer, a hotel's confirmation number): with
# the traveller's surname it lets anyone change or cancel the booking.
_BOOKING_REF = re.compile(
    r"""(?i)\b(?:booking\s+(?:ref(?:erence)?|code|number|no\.?)|reservation\s+(?:code|number|no\.?)|confirmation\s+(?:code|number|no\.?|\#)"""
    r"""|pnr|record\s+locator|buchungs(?:code|nummer)|reservierungsnummer|best[äa]tigungsnummer"""
    r"""|r[ée]f[ée]rence\s+de\s+r[ée]servation|code\s+de\s+r[ée]servation|localizador|c[óo]digo\s+de\s+reserva)(?![\w])"""
    r"""[ \t]*(?:[:=#]|\bis\b)?[ \t]*:?[ \t]*(?-i:(?P<val>[A-Z0-9]{5,8}(?![\w\-])|\d{8,12}(?![\w\-])))"""
)
BOOKING_TRIGGERS = ("booking", "reserv", "confirmation", "buchungs")
# A tax identification number after its name (the German Steuer-ID: 11 digits; a US TIN/EIN).
_TAX_ID = re.compile(r"""(?i)\b(?:steuer-?id(?:entifikationsnummer)?|steuerliche\s+identifikationsnummer|idnr|tax\s+id|tin)\b"""
                     r"""[^\n:=\d]{0,20}[:=]?[ \t]*(?P<val>\d{2,3}[ \t]?\d{3}[ \t]?\d{3}[ \t]?\d{2,3}|\d{2}-\d{7})(?![\d\-])""")
# Netscape cookies.txt: domain, flag, path, secure, expiry, name, value (tab-separated)
TAX_ID_TRIGGERS = ("steuer", "tax id")
_COOKIE_JAR = re.compile(r"""(?m)^(?:#HttpOnly_)?[^\t\n#]+\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t\d+\t(?P<name>[^\t\n]+)\t(?P<val>[^\t\n]{8,})$""")
_SESSION_COOKIE = re.compile(r"(?i)sess|sid|auth|token|key|login|remember|jwt|csrf|xsrf")
# An invitation, password-reset or magic-login link: the token in its path.
_LINK_TOKEN = re.compile(
    r"""(?i)https?://[^\s"'<>]*?/(?:reset|password[-_]?reset|passwor[dt][-_]?reset|reset[-_]password|invite|invitation|team_invite"""
    r"""|redeem|verify|verification|confirm|activate|activation|magic(?:[-_]link)?|signin|sign[-_]in|login)/(?P<rest>[^\s"'<>?#]{20,400})""")
_LINK_WORD = re.compile(r"/(?:reset|passwor|invit|team_invite|redeem|verif|confirm|activat|magic|sign|login)")
# A signed URL's credentials and signature (S3 presigned, Google Cloud Storage signed URLs)
_SIGNED_QUERY = re.compile(r"""[?&](?:X-Amz-(?:Security-Token|Signature|Credential)|X-Goog-(?:Signature|Credential))=(?P<val>[^&\s"'#<>]{8,})""")
_SIGNED_WORD = re.compile(r"x-amz-|x-goog-")
# A LaTeX macro holding a password: \newcommand{\overleafpw}{jCsOjt3hDN}
_LATEX_DEF = re.compile(r"""\\(?:re)?newcommand\{?\\(?P<key>[A-Za-z]{2,40})\}?\{(?P<val>[^{}\n]{3,200})\}""")
_LATEX_SECRET_NAMES = ("pw", "pwd", "pass", "password", "passwd", "secret", "token", "apikey", "key")
# Redis: requirepass / masterauth; .NET appSettings: <add key="SmtpPassword" value="..."/>
_REDIS_AUTH = re.compile(r"""(?im)^[ \t]*(?:requirepass|masterauth)[ \t]+(?:"(?P<qval>[^"\n]+)"|(?P<val>\S+))""")
_REDIS_WORD = re.compile("requirepass|masterauth")
_ADD_KEY = re.compile(r"""<add\s+key=["'](?P<key>[^"'\n]{1,80})["']\s+value=(?P<q>["'])(?P<val>[^"'\n]{1,400})(?P=q)""")
# A YAML block scalar under a secret's key: `keystore-password: >-` and the value indented below.
_YAML_BLOCK = re.compile(r"""(?m)^(?P<indent>[ \t]*)(?:-[ \t]+)?(?P<key>[\w.\-]{1,60}):[ \t]*[|>][-+]?[ \t]*$""")
# A product key: five groups of five (Windows, Office), four of five (Affinity), letters and digits.
_PRODUCT_KEY = re.compile(r"(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{5}(?:-[A-Z0-9]{5}){3,4}")
# A licence block (Sublime Text): ----- BEGIN LICENSE ----- ... ----- END LICENSE -----
_LICENSE_BLOCK = re.compile(r"-{3,}[ \t]*BEGIN LICENSE[ \t]*-{3,}\n(?P<body>.{1,4000}?)\n-{3,}[ \t]*END LICENSE[ \t]*-{3,}", re.S)
# Groups of four capitals and digits on a line of their own under a recovery-code label
# (Bitwarden: MNOR WTUE VOCD RA4Y XDDX 95AM BD60 5TUX); a TAN list's "022: 132224" pairs.
_CODE_GROUPS_LINE = re.compile(r"""(?m)^[ \t]*(?P<val>[A-Z0-9]{4}(?:[ \t][A-Z0-9]{4}){3,9})[ \t]*$""")
_TAN_ROW = re.compile(r"""[ \t]*(?:\d{1,3}[:.)][ \t]*\d{4,8}[ \t]*)+$""")
_TAN_PAIR = re.compile(r"""\d{1,3}[:.)][ \t]*(?P<val>\d{4,8})""")
TAN_TRIGGERS = ("tan-li",)  # TAN-Liste, TAN-list


def find_more_formats(scan: Scan) -> None:
    """Booking references, tax IDs, cookies.txt, invitation and reset links, LaTeX macros,
    redis requirepass, .NET appSettings, YAML block scalars, licence blocks, recovery codes in
    groups of four, TAN lists."""
    text = scan.text
    for m in scan.finditer(_BOOKING_REF, BOOKING_TRIGGERS):
        v = m.group("val")
        if not re.fullmatch(r"[A-Z]+", v) or len(v) == 6:  # a PNR may be all letters (CVMCNG); a word is not a code
            scan.add(m.start("val"), m.end("val"), "BOOKING_REF")
    for m in scan.finditer(_TAX_ID, TAX_ID_TRIGGERS):
        scan.add(m.start("val"), m.end("val"), "ID_NUMBER")
    if "\t" in text and ("\tTRUE\t" in text or "\tFALSE\t" in text):
        for m in _COOKIE_JAR.finditer(text):
            if _SESSION_COOKIE.search(m.group("name")) or (re.fullmatch(r"[\w.%\-]+", m.group("val")) and looks_random(m.group("val"))):
                scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in (m for a, b in scan.lines(("://",)) if _LINK_WORD.search(scan.low, a, b) for m in _LINK_TOKEN.finditer(text, a, b)):
        a = m.start("rest")
        for seg in re.finditer(r"[^/]+", m.group("rest")):
            s = seg.group(0)
            if len(s) >= 20 and re.search(r"\d", s) and re.search(r"[A-Za-z]", s):
                scan.add(a + seg.start(), a + seg.end(), "SECRET")
    for m in (m for a, b in scan.lines(("://",)) if _SIGNED_WORD.search(scan.low, a, b) for m in _SIGNED_QUERY.finditer(text, a, b)):
        scan.add(m.start("val"), m.end("val"), "SECRET")  # the whole value, however long (a session token: 1 KB)
    for m in scan.finditer(_LATEX_DEF, ("newcommand",)):
        if m.group("key").lower().endswith(_LATEX_SECRET_NAMES) and plausible_secret(m.group("val"), quoted=True):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in (m for a, b in scan.lines(("pass", "auth")) if _REDIS_WORD.search(scan.low, a, b)
              for m in _REDIS_AUTH.finditer(text, a, b)):
        got = _group(m, "qval", "val")
        if got and plausible_secret(got[1], quoted=True):
            scan.add(got[0], got[0] + len(got[1]), "SECRET")
    for m in scan.finditer(_ADD_KEY, ("<add ",)):
        if secret_key(m.group("key")) and plausible_secret(m.group("val"), quoted=True):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for start, end in scan.lines((": |", ": >")):
        m = _YAML_BLOCK.match(text, start, end)
        if m is None or not secret_key(m.group("key")):
            continue
        pos = end
        while (nxt := _next_line(text, pos)) is not None and nxt[0] == pos + 1:
            line = text[nxt[0] : nxt[1]]
            if len(line) - len(line.lstrip()) <= len(m.group("indent")):
                break
            a = nxt[0] + len(line) - len(line.lstrip())
            if plausible_secret(line.strip(), quoted=True):
                scan.add(a, nxt[1] - (len(line) - len(line.rstrip())), "SECRET")
            pos = nxt[1]
    i = text.find("BEGIN LICENSE")
    if i >= 0 and (m := _LICENSE_BLOCK.search(text, max(0, i - 40))) is not None:
        scan.add(m.start("body"), m.end("body"), "LICENSE_KEY")
    for start, end in scan.lines(("code",)):
        if _CODES_LABEL_LOOSE.search(scan.low, start, end) is None:
            continue
        for _ in range(CODES_REACH_LINES):
            nxt = _next_line(text, end)
            if nxt is None:
                break
            g = _CODE_GROUPS_LINE.match(text, *nxt)
            if g is not None and re.search(r"\d", g.group("val")):
                scan.add(g.start("val"), g.end("val"), "SECRET")
            end = nxt[1]
    for _, end in scan.lines(TAN_TRIGGERS):
        pos = end
        for _ in range(12):
            nxt = _next_line(text, pos)
            if nxt is None or not _TAN_ROW.fullmatch(text, *nxt):
                break
            for p in _TAN_PAIR.finditer(text, *nxt):
                scan.add(p.start("val"), p.end("val"), "SECRET")
            pos = nxt[1]


# A recovery code's label that may end with a note: "two-step login recovery code (printed 12.01.)"
_CODES_LABEL_LOOSE = re.compile(  # run on the lowercase text
    r"""\b(?:recovery|backup|2fa|mfa|two[- ]step|two[- ]factor|emergency)(?:[\s\w-]{0,20})?\bcodes?\b[^\n]{0,40}$""")


def find_continued_values(scan: Scan) -> None:
    """The rest of a value that goes on on the next line: after a quoted-printable soft line
    break (`=` at the end of a line) and after a .properties backslash continuation."""
    text = scan.text
    qp = "quoted-printable" in scan.low
    for sp in list(scan.spans):
        end = sp.end
        while True:
            if qp and (text.startswith("=\n", end) or (text[end - 1 : end] == "=" and text.startswith("\n", end))):
                start = end + (2 if text.startswith("=\n", end) else 1)
                m = re.compile(r"[^\s=]+=?(?=\n)|[^\s=]+").match(text, start)
            elif text.startswith("\\\n", end) or (text[end - 1 : end] == "\\" and text.startswith("\n", end)):
                start = end + (2 if text.startswith("\\\n", end) else 1)
                m = re.compile(r"[ \t]*(?P<v>[^\s\\]+\\?)(?=\n|$)").match(text, start)
                if m is not None:
                    scan.add(m.start("v"), m.end("v"), sp.kind)
                    end = m.end("v")
                    continue
                break
            else:
                break
            if m is None:
                break
            scan.add(m.start(), m.end(), sp.kind)
            end = m.end()


# -- network devices, DevOps output and finance layouts (own corpus, round 3) ---------------

# Network device configurations: the value after the keyword that sets it, in Cisco IOS/ASA,
# Juniper, MikroTik, FortiOS, ProCurve and EdgeOS syntax. A type digit (0 plain, 5/8/9 hashes,
# 7 reversible) may stand between the keyword and the value: `enable secret 9 $9$...`,
# `password 7 0822455D0A16`, `key 0 RadSecr3t`, `key-string 7 110A...`.
_NET_VALUE = r"""(?:"(?P<qval>[^"\n]{1,200})"|(?P<val>[^\s"]{1,200}))"""
_NET_LINE = re.compile(
    r"""(?i)[ \t]*(?P<kw>"""
    r"""enable[ \t]+(?:password|secret)(?:[ \t]+level[ \t]+\d+)?"""
    r"""|username[ \t]+\S+(?:[ \t]+privilege[ \t]+\d+)?[ \t]+(?:password|secret)"""
    r"""|passwd|password|key|key-string|(?:ikev[12][ \t]+)?(?:local-|remote-)?pre-shared-key(?:[ \t]+(?:local|remote))?"""
    r"""|(?:tacacs|radius)-server[ \t]+(?:host[ \t]+\S+(?:[ \t]+(?:port|auth-port|acct-port|timeout|single-connection)(?:[ \t]+\d+)?)*[ \t]+)?key"""
    r"""|neighbor[ \t]+\S+[ \t]+password|ip[ \t]+ospf[ \t]+(?:message-digest-key[ \t]+\d+[ \t]+md5|authentication-key)"""
    r"""|crypto[ \t]+isakmp[ \t]+key|wpa-psk[ \t]+(?:ascii|hex)|ppp[ \t]+(?:chap|pap)[ \t]+(?:password|sent-username[ \t]+\S+[ \t]+password)"""
    r"""|plaintext-password|authentication-key|(?:set[ \t]+)?(?:secret|psksecret|passwd|password|auth-pwd|priv-pwd|auth-password|priv-password)(?=[ \t]+ENC[ \t])"""
    r""")[ \t]+(?P<type>[0-9][ \t]+)?(?P<enc>ENC[ \t]+)?""" + _NET_VALUE
    + r"""(?=[ \t]*(?:$|encrypted\b|address\b|privilege\b|\d+[ \t]*$|;))"""
)
# SNMP communities: `snmp-server community X RO 10`, ProCurve `snmp-server community "X" operator`,
# Junos `set snmp community X authorization ...` and `community X {`, EdgeOS the same block.
# A keyword with a type digit anywhere on a line (`standby 1 authentication md5 key-string 7 X`),
# VRRP/HSRP text authentication, a WLC's `config radius auth add 1 10.0.0.20 1812 ascii X`.
_NET_INLINE = re.compile(
    r"""(?i)(?<![\w-])(?:(?:key-string|key|password|secret|pre-shared-key)[ \t]+[05789]|authentication[ \t]+text"""
    r"""|(?:radius|tacacs)\b[^\n]{0,80}?[ \t](?:ascii|hex))[ \t]+(?P<val>[^\s"]{3,200})(?=[ \t]*$|[ \t]+(?:encrypted|address|privilege)\b)""")
_NET_TYPE_DIGIT = re.compile(r"[ \t][05789][ \t]")  # where _NET_INLINE may match: a type digit between spaces
_SNMP_COMMUNITY = re.compile(
    r"""(?im)(?:\bsnmp-server[ \t]+community|\bset[ \t]+snmp[ \t]+community|^[ \t]*community)[ \t]+"""
    + _NET_VALUE + r"""(?=[ \t]+(?:view[ \t]+\S+[ \t]+)?(?:ro|rw|operator|manager|unrestricted|restricted|authorization|clients|view)\b"""
    r"""|[ \t]+\d+[ \t]*$|[ \t]*\{|[ \t]*$)"""
)
# SNMPv3 users: `snmp-server user u g v3 auth sha X priv aes 128 Y`; NTP keys: `ntp authentication-key 1 md5 X 7`.
_SNMP_USER = re.compile(
    r"""(?i)\bsnmp-server[ \t]+user\b[^\n]{0,200}?\bauth[ \t]+(?:md5|sha\d*)[ \t]+(?P<auth>\S+)(?:[ \t]+priv[ \t]+(?:des|3des|aes(?:[ \t]+\d+)?)[ \t]+(?P<priv>\S+))?""")
_NTP_KEY = re.compile(r"""(?i)\bntp[ \t]+authentication-key[ \t]+\d+[ \t]+(?:md5|sha\d*|hmac-sha\d*)[ \t]+(?P<val>\S+)""")
_NET_GENERIC = frozenset({"password", "passwd", "key", "key-string", "plaintext-password", "authentication-key"})
NET_TRIGGERS = ("password", "passwd", "secret", "key", "community", "psk", "snmp", "auth")  # auth: VRRP text, a WLC's radius
NET_NOT_VALUES = frozenset({"public", "private", "word", "line", "string", "encrypted", "enc", "required", "none", "md5", "sha",
                            "hidden", "0", "5", "7", "8", "9", "level", "privilege", "chain", "config-key"})


def _net_value(value: str) -> bool:
    v = value.strip()
    return len(v) >= 3 and v.lower() not in NET_NOT_VALUES and not v.startswith(("<", "${", "$(", "[", "{")) \
        and not _MASKED.fullmatch(v) and plausible_secret(v, quoted=True) and not v.endswith(">")


_FORTI_COMMUNITY = re.compile(r"""(?i)config[ \t]+system[ \t]+snmp[ \t]+community\b(?P<block>.{1,2000}?)\n[ \t]*end\b""", re.S)
_SET_NAME = re.compile(r"""(?im)^[ \t]*set[ \t]+name[ \t]+"?(?P<val>[^"\s]{3,200})"?[ \t]*$""")


def find_network_configs(scan: Scan) -> None:
    """Secrets in network device configurations: enable and user passwords and secrets (plain,
    type 7, or a hash), TACACS+ and RADIUS keys, key chains, pre-shared keys, BGP/OSPF/NTP
    keys, SNMP communities and SNMPv3 users; the `$8$`/`$9$` shapes are PASSWORD_HASH's."""
    text = scan.text
    for start, end in scan.lines(NET_TRIGGERS):
        low = scan.low
        at = [start]  # the keyword opens the line, or follows a colon or a semicolon ("rotated: tacacs-server key X")
        line = low[start:end]
        for sep in ":;" if "-server" in line or "enable " in line or "username " in line else ():
            i = low.find(sep, start, end)
            while i >= 0:
                at.append(i + 1)
                i = low.find(sep, i + 1, end)
        for m in (m for a in at if (m := _NET_LINE.match(text, a, end)) is not None):
            got = _group(m, "qval", "val")
            generic = m.group("type") is None and m.group("enc") is None and m.group("kw").lower() in _NET_GENERIC
            if got and _net_value(got[1]) and (not generic or _answer_like(got[1])):  # "Password requirements"
                scan.add(got[0], got[0] + len(got[1]), "SECRET")
        inline = _NET_TYPE_DIGIT.search(line) or "authentication text" in line or ("radius" in line or "tacacs" in line) \
            and ("ascii" in line or "hex" in line)
        for m in _NET_INLINE.finditer(text, start, end) if inline else ():
            if _net_value(m.group("val")) and (_answer_like(m.group("val")) or re.fullmatch(r"[0-9A-F]{4,}", m.group("val"))):
                scan.add(m.start("val"), m.end("val"), "SECRET")
        for m in _NTP_KEY.finditer(text, start, end) if low.find("ntp", start, end) >= 0 else ():
            if _net_value(m.group("val")):
                scan.add(m.start("val"), m.end("val"), "SECRET")
        if low.find("community", start, end) < 0 and low.find("snmp", start, end) < 0:
            continue
        if (f := _FORTI_COMMUNITY.match(text, low.find("config", start, end))) if low.find("config", start, end) >= 0 else None:
            for n in _SET_NAME.finditer(text, f.start("block"), f.end("block")):
                if _net_value(n.group("val")):
                    scan.add(n.start("val"), n.end("val"), "SECRET")
        for m in _SNMP_COMMUNITY.finditer(text, start, end):
            got = _group(m, "qval", "val")
            if got and _net_value(got[1]) and not got[1].endswith("{"):
                scan.add(got[0], got[0] + len(got[1]), "SECRET")
        for m in _SNMP_USER.finditer(text, start, end):
            for g in ("auth", "priv"):
                if m.group(g) is not None and _net_value(m.group(g)):
                    scan.add(m.start(g), m.end(g), "SECRET")



# DevOps output and configuration: HashiCorp Vault's init and unseal lines, Ansible vault
# payloads, Terraform state, LDAP daemons' bind passwords, BMC command lines, Consul's ACL
# tokens and gossip key.
_VAULT_LINE = re.compile(
    r"""(?im)^[ \t]*(?:(?:unseal|recovery)[ \t]+key[ \t]+\d{1,2}|initial[ \t]+root[ \t]+token|root[ \t]+token)[ \t]*:[ \t]*(?P<val>[A-Za-z0-9+/=._\-]{16,400})[ \t]*$"""
    r"""|\bvault[ \t]+operator[ \t]+unseal[ \t]+(?:-[\w\-]+(?:=\S+)?[ \t]+)*(?P<arg>[A-Za-z0-9+/=]{20,400})(?![\w+/=])""")
_VAULT_KEYS_JSON = re.compile(r'''"(?:unseal|recovery)_keys_(?:b64|hex)"[ \t]*:[ \t]*\[(?P<list>[^\]]{1,4000})\]''')
VAULT_TRIGGERS = ("unseal", "recovery key", "root token")
_ANSIBLE_VAULT_LINE = re.compile(r"""[ \t]*(?P<val>[0-9a-f]{2,80})[ \t]*$""")
_TF_SECRET_OUTPUT = re.compile(r'''"(?P<key>[\w.\-]{1,60})"[ \t]*:[ \t]*\{\s*"value"[ \t]*:[ \t]*"(?P<val>(?:[^"\\\n]|\\.){1,400})"''')
_TF_SENSITIVE_VALUE = re.compile(r'''"value"[ \t]*:[ \t]*"(?P<val>(?:[^"\\\n]|\\.){1,400})"(?=[^{}]{0,300}?"sensitive"[ \t]*:[ \t]*true)''')
_TF_RANDOM_RESULT = re.compile(r'''"type"[ \t]*:[ \t]*"random_password"[^\]]{0,2000}?"result"[ \t]*:[ \t]*"(?P<val>(?:[^"\\\n]|\\.){1,400})"''')
_BIND_PW = re.compile(r"""(?im)^[ \t]*(?:bindpw|rootpw|olcrootpw|bind_pw|ldap_bind_pw|bindpassword)[ \t]*[ \t:=][ \t]*(?:"(?P<qval>[^"\n]{1,200})"|(?P<val>\S{1,200}))[ \t]*$""")
BMC_TRIGGERS = ("ipmi", "racadm")
_BMC_COMMAND = re.compile(
    r"""\b(?:ipmitool|ipmiutil)\b[^\n|;&]{0,400}?[ \t]-P[ \t]*(?:(?P<q1>['"])(?P<v1q>[^'"\n]+)(?P=q1)|(?P<v1>[^\s'"]+))"""
    r"""|\bracadm\b[^\n|;&]{0,400}?[ \t]-p[ \t]+(?:(?P<q2>['"])(?P<v2q>[^'"\n]+)(?P=q2)|(?P<v2>[^\s'"]+))""")
_GOSSIP_KEY = re.compile(r"""(?im)^[ \t]*["']?encrypt["']?[ \t]*[=:][ \t]*["'](?P<val>[A-Za-z0-9+/]{22,86}={0,2})["']""")  # Consul, Nomad
_CONSUL_TOKENS = re.compile(r"""tokens[ \t]*(?:=[ \t]*)?\{(?P<block>[^{}]{1,2000})\}""")
_BLOCK_VALUE = re.compile(r"""(?P<key>[\w\-]{2,40})[ \t]*[=:][ \t]*"(?P<val>[^"\n]{16,200})\"""")


def find_devops_formats(scan: Scan) -> None:
    """Vault's unseal and recovery keys and root tokens (init output, `vault operator unseal
    KEY`, the JSON form), Ansible vault payloads, Terraform state (a secret output's value, a
    value marked sensitive, random_password's result), `bindpw`/`rootpw` lines, `ipmitool -P`
    and `racadm -p`, Consul's ACL tokens block."""
    text = scan.text
    for m in scan.finditer(_VAULT_LINE, VAULT_TRIGGERS):
        got = _group(m, "val", "arg")
        if got and not public_or_example(got[1]) and (looks_random(got[1]) or re.search(r"\d", got[1])):
            scan.add(got[0], got[0] + len(got[1]), "SECRET")
    if scan.lines(("unseal",)) and "_keys_" in text:  # "unseal_keys_b64"
        for m in _VAULT_KEYS_JSON.finditer(text):
            for k in re.finditer(r'"([A-Za-z0-9+/=]{16,})"', m.group("list")):
                scan.add(m.start("list") + k.start(1), m.start("list") + k.end(1), "SECRET")
    i = text.find("$ANSIBLE_VAULT;")
    while i >= 0:
        pos = text.find("\n", i)
        while pos >= 0 and (v := _ANSIBLE_VAULT_LINE.match(text, pos + 1, _line_end(text, pos + 1))) is not None:
            scan.add(v.start("val"), v.end("val"), "SECRET")
            pos = text.find("\n", pos + 1)
        i = text.find("$ANSIBLE_VAULT;", i + 1)
    if '"outputs"' in text or '"sensitive"' in text:  # Terraform state or `output -json`
        for m in _TF_SECRET_OUTPUT.finditer(text):
            if secret_key(m.group("key")) and plausible_secret(m.group("val"), quoted=True):
                scan.add(m.start("val"), m.end("val"), "SECRET")
        if '"sensitive"' in text:
            for m in _TF_SENSITIVE_VALUE.finditer(text):
                if plausible_secret(m.group("val"), quoted=True):
                    scan.add(m.start("val"), m.end("val"), "SECRET")
    if "random_password" in text:
        for m in _TF_RANDOM_RESULT.finditer(text):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in scan.finditer(_BIND_PW, ("bindpw", "rootpw", "bind_pw", "bindpassword")):
        got = _group(m, "qval", "val")
        if got and plausible_secret(got[1], quoted=True) and not got[1].startswith(PLACEHOLDER_PREFIX):
            scan.add(got[0], got[0] + len(got[1]), "SECRET")
    for m in scan.finditer(_BMC_COMMAND, BMC_TRIGGERS):
        got = _group(m, "v1q", "v1", "v2q", "v2")
        if got and plausible_secret(got[1], quoted=True):
            scan.add(got[0], got[0] + len(got[1]), "SECRET")
    for m in scan.finditer(_GOSSIP_KEY, ("encrypt",)):
        if looks_random(m.group("val")):
            scan.add(m.start("val"), m.end("val"), "SECRET")
    for m in (m for a, b in scan.lines(("tokens",)) if (m := _CONSUL_TOKENS.match(text, scan.low.find("tokens", a, b)))):
        for v in _BLOCK_VALUE.finditer(m.group("block")):
            val = v.group("val")
            if re.search(r"\d", val) and re.search(r"[a-z]", val, re.I) and " " not in val and plausible_secret(val, quoted=True):
                a = m.start("block") + v.start("val")
                scan.add(a, a + len(val), "SECRET")


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end


# Finance layouts: a seed's words in any layout below or after a seed's label, TAN lists in
# grids and tables, a hardware wallet's passphrase (the "25th word").
_SEED_LABEL = re.compile(  # run on the lowercase text
    r"""\b(?:seed(?:[ \t]+(?:phrase|words?|backup|sentence)|[ \t]*[:=(,]|[ \t]*$)|mnemonic|bip-?39|recovery[ \t]+(?:phrase|words?|seed|sentence|sheet|card)|backup[ \t]+(?:phrase|words?|seed)"""
    r"""|wallet[ \t]+(?:words?|seed|backup|phrase)|secret[ \t]+recovery|(?:12|18|24|twelve|eighteen|twenty[ \t-]four)[ \t-]words?"""
    r"""|wiederherstellungs(?:phrase|satz|wörter)|phrase[ \t]+de[ \t]+r[ée]cup[ée]ration|mots[ \t]+de[ \t]+r[ée]cup[ée]ration"""
    r"""|frase[ \t]+(?:semilla|de[ \t]+recupera[cç][aã]o|de[ \t]+recuperaci[oó]n|de[ \t]+respaldo)|herstelzin|palavras[ \t]+de[ \t]+recupera)""")
# (" words", "24 words", is the one no other detector looks for: each absent word costs a scan of the text; "Wiederherstellungsphrase"
# and "phrase de récupération" are on the lines of "phrase", a label in Spanish or Portuguese holds an accent)
SEED_LABEL_TRIGGERS = ("seed", "mnemonic", "recovery", "backup", "wallet", "phrase", " words", "recuperación", "recuperação", "récup")
SEED_RUN_REACH = 2000  # characters after a seed's label where its words are read
_SEED_GAP = re.compile(r"""[\s\d.,;:()\-–—|/#*•"'`]*""")  # what may stand between two words of a seed
_WORD = re.compile(r"[A-Za-z]+")
_SEED_GAP_CHARS = r"""[\s\d.,;:()\-–—|/#*•"'`]+"""
# Twelve or more short words in a row, all lowercase or all capitals: where a seed may be (a
# regex at C speed, so the words are looked up only there).
_SEED_STRETCH = re.compile(r"""(?<![A-Za-z])(?:(?:[a-z]{3,8}""" + _SEED_GAP_CHARS + r"""){11,}[a-z]{3,8}"""
                           r"""|(?:[A-Z]{3,8}""" + _SEED_GAP_CHARS + r"""){11,}[A-Z]{3,8}"""
                           r"""|(?:[A-Z][a-z]{2,7}""" + _SEED_GAP_CHARS + r"""){11,}[A-Z][a-z]{2,7})(?![A-Za-z])""")


def _seed_runs(text: str, start: int, stop: int) -> Iterator[list[tuple[int, int]]]:
    """Runs of 12-30 BIP-39 words (lowercase or capitals, or all in Title Case) between start and
    stop, in any layout: one line, one word a line, commas, dashes, numbered, a grid read row by
    row. A colon right after a word ends a run ("in order: ...": a label's last word)."""
    index = bip39_words()
    run: list[tuple[int, int]] = []
    last, title = start, False
    for w in _WORD.finditer(text, start, stop):
        word = w.group(0)
        is_title = word[0].isupper() and word[1:].islower()
        seed_word = 3 <= len(word) <= 8 and (word.islower() or word.isupper() or is_title) and word.lower() in index
        gap = text[last : w.start()]
        if not seed_word or (run and (_SEED_GAP.fullmatch(gap) is None or gap.lstrip(" \t").startswith(":") or is_title != title)):
            if 12 <= len(run) <= 30:
                yield run
            run = []
        if seed_word:
            if not run:
                title = is_title
            run.append((w.start(), w.end()))
        last = w.end()
    if 12 <= len(run) <= 30:
        yield run


_WALLET_PASSPHRASE = re.compile(
    r"""(?i)\b(?:pass[ \t]?phrase|(?:25|13)th[ \t]+word)(?:[ \t]*\([^()\n]{1,40}\))?[ \t]*(?::|=|\bis\b)[ \t]*(?P<val>[^\s,;]{4,64})""")
# A TAN list's rows: index/TAN pairs ("01 482913", "Nr 1: 4829", "č. 1 – 48291", "hasło 1:
# 483920", "Code n° 01 : 123456", "01/483920", "1. 734 291") in one or more columns, and the
# rows of a code card (matrix) with a row label and three or more codes.
_TAN_PREFIX = r"""(?:#|(?:nr|no|n°|nº|č|poz|pos|lp)\.?[ \t]*|(?:tan|code|kod|kód|hasło|haslo)(?:[ \t-]*(?:n[°oº]|nr|č)\.?)?[ \t]*)?"""
_TAN_CODE = r"""(?:\d{3}[ ]\d{3}(?![ ]?\d)|\d{4,8})"""
_TAN_INDEX_SEP = r"""\d{1,3}(?:[:.)=/][ \t|:=]*|[ \t|:=]+(?:[–\-][ \t]+)?)"""
_TAN_GRID_ROW = re.compile(r"""[ \t|]*(?:[-*•][ \t]+)?(?:""" + _TAN_PREFIX + _TAN_INDEX_SEP + _TAN_CODE + r"""[ \t|]*)+"""
                           r"""|[ \t|]*(?:\d{1,2}|[a-j])[ \t:|]+(?:\d{3,6}[ \t|]+){2,}\d{3,6}[ \t|]*""", re.I)
_TAN_GRID_PAIR = re.compile(_TAN_PREFIX + _TAN_INDEX_SEP + r"""(?P<val>""" + _TAN_CODE + r""")""", re.I)
_TAN_INLINE = re.compile(r"""(?:[ \t,;]*""" + _TAN_PREFIX + _TAN_INDEX_SEP + _TAN_CODE + r"""){2,}[ \t,;.]*""", re.I)
_TAN_MATRIX_ROW = re.compile(r"""[ \t|]*(?:\d{1,2}|[a-j])[ \t:|]+(?P<codes>(?:\d{3,6}[ \t|]+){2,}\d{3,6})[ \t|]*""", re.I)
_TAN_HEADER = re.compile(r"""(?:[ \t|]*(?:nr\.?|no\.?|n°|#|index|idx|pos\.?|poz\.?|poř\.?|lp\.?|č\.?|číslo|[im]?tan|kod|kód|code|codes"""
                         r"""|hasło|pin)[ \t|]*)+|[\s|:+\-=]+|(?:[ \t|]+[a-j])+[ \t|]*""", re.I)
# The words for a TAN list or a code card in German, Austrian, Swiss, Polish, Czech and Slovak
# banks' letters (run on the lowercase line).
_TAN_LIST_WORDS = re.compile(
    r"""streichliste|code-?liste|liste[ \t]+de[ \t]+codes|zugangs-?codes|matrix-?karte|matrix[ \t]+card|code[ \t]?card"""
    r"""|karta[ \t]+kodów|kod(?:y|ów)[ \t]+jednorazow|(?:lista|listy)[ \t]+(?:haseł|kodów)|hasła[ \t]+jednorazowe|haseł[ \t]+jednorazowych"""
    r"""|transakční[ \t]+kódy|autorizační[ \t]+kódy|jednorázov(?:é|ých)[ \t]+kód|tan[ \t-]?kód|seznam[ \t]+(?:tan|kódů)"""
    r"""|jednorazov(?:é|ých)[ \t]+kód|zoznam[ \t]+(?:tan|kódov|jednorazových)|autorizačn(?:é|ých)[ \t]+kód""")
# "code" holds Codeliste, liste de codes, Zugangscodes, code card; "kod" kody and kodów.
TAN_LABEL_TRIGGERS = ("tan", "streichliste", "matrix", "code", "kod", "haseł", "hasła", "kódy", "kódů", "kódov")
_TAN_LIST_HINTS = re.compile(r"list|card|kart|zugangs|kod|kód|has[łl]|streich|matrix")  # before the long regex, on a line of "code"
TAN_GRID_LINES = 60  # lines under a TAN list's label that are read at most
TAN_LEAD_LINES = 3  # lines (a note, a contract number) that may stand between a TAN list's label and its rows
def _tan_label(low: str, start: int, end: int) -> bool:
    """Does a line name a TAN list (TAN, TANs, iTAN, mTAN, TAN-Liste, Streichliste, karta kodów,
    transakční kódy ...), not a word holding "tan"?"""
    if _TAN_LIST_HINTS.search(low, start, end) and _TAN_LIST_WORDS.search(low, start, end):
        return True
    i = low.find("tan", start, end)
    while i >= 0:
        a = i - 1 if i > start and low[i - 1] in "imc" else i
        j = i + 4 if low.startswith("tans", i) else i + 3
        if (a == start or not low[a - 1].isalpha()) and (j >= end or not low[j].isalpha()):
            return True
        i = low.find("tan", i + 3, end)
    return False


def _one_word_seed(words: list[str]) -> bool:
    """abandon abandon ... about: the standard's test vector, not a wallet's seed."""
    return bool(words) and Counter(words).most_common(1)[0][1] * 2 > len(words)


def find_finance_layouts(scan: Scan) -> None:
    """A seed's 12-24 words after a label that names a seed (recovery phrase, mnemonic, 24
    words, Wiederherstellungsphrase ...), in any layout (_seed_runs); a TAN list's index/TAN
    pairs in rows and columns below its label; a wallet's passphrase ("25th word") after its
    label."""
    text = scan.text
    done = -1
    for start, end in scan.lines(SEED_LABEL_TRIGGERS):
        if end <= done:
            continue
        label = _SEED_LABEL.search(scan.low, start, end)
        if label is None:
            continue
        stretches = _SEED_STRETCH.finditer(text, label.end(), min(len(text), end + SEED_RUN_REACH))
        for run in (run for st in stretches for run in _seed_runs(text, st.start(), st.end())):
            line_start = text.rfind("\n", 0, run[0][0]) + 1
            first = [w for w in run if w[0] < _line_end(text, run[0][0])]
            if len(first) <= 2 and len(run) - len(first) >= 12 and _WORD.search(text, line_start, run[0][0]):
                run = run[len(first):]  # "checked twice" / "1. puzzle ...": the grid starts on the next line
            if len(run) < 12 or _one_word_seed([text[a:b].lower() for a, b in run]):
                continue
            for a, b in run:
                scan.add(a, b, "SEED_PHRASE")
            done = max(done, run[-1][1])
    for m in scan.finditer(_WALLET_PASSPHRASE, ("phrase", "th word")):
        v = strip_sentence_end(m.group("val"))
        if _answer_like(v) and not is_placeholder(v):
            scan.add(m.start("val"), m.start("val") + len(v), "SECRET")
    for start, end in scan.lines(present(scan.low, TAN_LABEL_TRIGGERS)):
        if not _tan_label(scan.low, start, end):
            continue
        colon = text.find(":", start, end)  # "Meine restlichen TANs: 21) 212078, 22) 414807"
        if colon >= 0 and _TAN_INLINE.fullmatch(text, colon + 1, end):
            for p in _TAN_GRID_PAIR.finditer(text, colon + 1, end):
                scan.add(p.start("val"), p.end("val"), "SECRET")
        pos, rows, blank, lead = end, 0, False, 0
        for _ in range(TAN_GRID_LINES):
            nxt = pos + 1
            if nxt >= len(text):
                break
            line_end = _line_end(text, nxt)
            if not text[nxt:line_end].strip():
                if blank and rows:
                    break
                blank = True
            elif (mx := _TAN_MATRIX_ROW.fullmatch(text, nxt, line_end)) is not None:
                for p in re.finditer(r"\d{3,6}", mx.group("codes")):
                    scan.add(mx.start("codes") + p.start(), mx.start("codes") + p.end(), "SECRET")
                rows += 1
            elif _TAN_GRID_ROW.fullmatch(text, nxt, line_end):
                for p in _TAN_GRID_PAIR.finditer(text, nxt, line_end):
                    scan.add(p.start("val"), p.end("val"), "SECRET")
                rows += 1
            elif rows:
                break
            elif not _TAN_HEADER.fullmatch(text, nxt, line_end):
                lead += 1  # a note under the label ("Bitte jede Nummer nach Verwendung streichen.")
                if lead > TAN_LEAD_LINES:
                    break
            pos = line_end


# PINs and codes in other languages and scripts, a password's digits right after its name, and
# a value alone on the line below a label in any language ("Пароль от почты:" / "LetoMore_88",
# "รหัสผ่าน wifi บ้าน" / "BaanSuk2566", "PIN κινητού" / "1397").
INTL_CODE_LABELS = ("пин-код", "пин код", "пин", "пін-код", "пін", "код", "รหัส", "קוד", "رمز", "کد", "پین",
                    "الرقم السري", "الرمز السري", "পিন", "暗証番号", "tunnusluku", "pin-koodi", "pin-kód",
                    "namba ya siri", "nambari ya siri", "pin kodu", "kod pin", "clave", "pin")
INTL_CODE_TRIGGERS = ("tunnusluku", "namba", "clave")  # ASCII "pin" is _PIN's
INTL_CODE_NON_ASCII = ("pin", "пин", "пін", "код", "รหัส", "קוד", "رمز", "کد", "پین", "السري", "পিন", "暗証番号", "kód")
# every label, longest first (รหัสผ่าน before รหัส, пин-код before пин)
_INTL_ANY_LABEL = "|".join(re.escape(w).replace(r"\ ", r"[ \t]+")
                           for w in sorted({*INTL_CODE_LABELS, *INTL_LABELS}, key=len, reverse=True))
# Words that say a code is no secret: an error, a postcode, a country, a product, source code.
INTL_NOT_CODES = ("ошибк", "индекс", "страны", "региона", "города", "товар", "продукт", "валют", "языка", "ответа",
                  "שגיאה", "מיקוד", "מקור", "خطا", "خطأ", "پستی", "البريدي", "ไปรษณีย์", "ข้อผิดพลาด", "σφάλματος",
                  "προϊόν", "ταχυδρομ", "מוצר", "الدولة", "البريد", "کشور", "ملی", "error", "postal", "país", "producto",
                  "fuente", "qr", "http")
# The label, maybe a few words (what it opens), maybe a separator, and a code: digits, a combination.
_INTL_CODE = re.compile(  # these three run on the lowercase text: one case of each label is faster
    r"""(?P<key>""" + _INTL_ANY_LABEL + r""")"""
    r"""(?P<gap>(?:[ \t\u3000]+[^\s:：=\d]{1,24}){0,3}?)[ \t\u3000]*(?P<sep>[:：=]|[—–-](?=[ \t])|[はがは是为는은이](?=[ \t\u3000\d])|)[ \t\u3000]*"""
    r"""(?P<val>\d{4}(?:[ \t]\d{4}){1,5}(?![\d\-])|\d{1,3}(?:[ \t]*[-–][ \t]*\d{1,3}){2,5}(?![\d\-])|\d{3,12}#?(?![\d.,/:]\d|\d))"""
)
# A code word that also means password, a few words and a separator, then a password: "رمز وای‌فای: Karaj#1402".
_INTL_CODE_WORD_PW = re.compile(
    r"""(?P<key>""" + _INTL_ANY_LABEL + r""")(?P<gap>(?:[ \t]+[^\s:：=]{1,24}){0,3}?)[ \t]*[:：=][ \t]*(?P<val>[^\s"'`，。、()]{6,64})""")
# A password right after its name: "Wi-Fi şifresi Ankara06Bahce", "nenosiri Arusha2019x".
_INTL_DIRECT = re.compile(r"""(?P<key>""" + _INTL_ANY_LABEL + r""")[ \t\u3000]+(?P<val>[^\s"'`，。、()]{6,64})""")
_LETTER_BEFORE = re.compile(r"[^\W\d_]")
_NO_SPACE_SCRIPT = re.compile(r"[\u0e00-\u0e7f\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")  # Thai, CJK, kana, Hangul, full width
_DELIMITERS = re.compile(r"[,;\t|]")
INTL_NEXT_LINE_CHARS = 80  # a label line longer than this is a sentence, not a label


_INTL_LABEL_ANYWHERE = re.compile(r"(?:" + _INTL_ANY_LABEL + r"|password|\bpw\b)")  # run on the lowercase text


def _inside_word(text: str, line_start: int, start: int, key: str) -> bool:
    """Is a label the end of a longer word (штрихкод)? Not asked of labels in scripts without spaces."""
    if key.startswith((*_INTL_NO_SPACE, "暗証番号", "รหัส")):
        return False
    return start > line_start and _LETTER_BEFORE.match(text, start - 1) is not None


def _intl_code_lines(scan: Scan) -> list[tuple[int, int]]:
    words = INTL_CODE_TRIGGERS if scan.ascii else INTL_CODE_TRIGGERS + INTL_CODE_NON_ASCII
    return sorted({*scan.lines(words), *intl_lines(scan)})


def find_intl_codes(scan: Scan) -> None:
    """PINs and codes under their names in other languages ("ПИН-код карты: 5829", "รหัส ATM
    739105", "קוד כניסה לבניין: 2580#", "الرقم السري: 8842", "kortin tunnusluku: 4097"), digits
    or a password right after a password's name without a separator ("取款密码 602915",
    "Wi-Fi şifresi Ankara06Bahce"), and a value alone on the line below a label in any
    language."""
    text, low = scan.text, scan.low
    for start, end in _intl_code_lines(scan):
        for m in _INTL_CODE.finditer(low, start, end):
            key = m.group("key")
            if _inside_word(text, start, m.start(), key):
                continue  # штрихкод, Passwortmanager
            gap, sep, v = m.group("gap") or "", m.group("sep"), m.group("val")
            if any(w in gap for w in INTL_NOT_CODES):
                continue
            if len(re.sub(r"\D", "", v)) < 4 or (not sep and (key in _LABEL_WORDS and gap or re.fullmatch(r"(?:19|20)\d\d", v))):
                continue  # "Код ошибки 404", "HTTP-код: 200", "Passwort 2 Mal falsch", a year
            scan.add(m.start("val"), m.end("val"), "SECRET")
        for m in _INTL_CODE_WORD_PW.finditer(low, start, end):
            key = m.group("key")
            v = strip_sentence_end(text[m.start("val") : m.end("val")])
            if key not in _LABEL_WORDS and (not key.isascii() or key == "clave") and not _inside_word(text, start, m.start(), key) \
                    and _strong_cell(v) \
                    and not any(w in (m.group("gap") or "") for w in INTL_NOT_CODES) and not _NO_SPACE_SCRIPT.search(v):
                scan.add(m.start("val"), m.start("val") + len(v), "SECRET")
        for m in _INTL_DIRECT.finditer(low, start, end):
            key = m.group("key")
            v = strip_sentence_end(text[m.start("val") : m.end("val")])
            if key.startswith(_INTL_NO_SPACE):
                v = _ASCII_RUN.match(v).group(0)  # type: ignore[union-attr]  # "密码长度为8-16位" is a policy
            if key in _LABEL_WORDS and not _inside_word(text, start, m.start(), key) and _strong_cell(v) \
                    and not v.startswith(("http", "www.")) and not is_placeholder(v):
                scan.add(m.start("val"), m.start("val") + len(v), "SECRET")
    colon_lines = (line for line in scan.lines(("pass", "pw")) if text[line[0] : line[1]].rstrip().endswith((":", "：")))
    for start, end in sorted({*_intl_code_lines(scan), *colon_lines}):
        # a label alone on its line (maybe with a few words), the value alone on the next one
        if end - start > INTL_NEXT_LINE_CHARS or _DIGIT.search(text, start, end) or _DELIMITERS.search(text, start, end):
            continue  # a sentence, a label with its value, a table's header
        head = low[start:end].strip(" \t*_#>-:：")
        label = _INTL_LABEL_ANYWHERE.search(head)
        if label is None or head.endswith(("?", ".", "!", "؟")) or len(head.split()) > (12 if text[start:end].rstrip().endswith((":", "：")) else 8):
            continue
        nxt = _next_line(text, end)
        if nxt is None:
            continue
        value = text[nxt[0] : nxt[1]].strip()
        v = strip_sentence_end(value.lstrip("-*•> \t"))
        if " " in v or not v or v.startswith(PLACEHOLDER_PREFIX) or _NO_SPACE_SCRIPT.search(v) or _DELIMITERS.search(v):
            continue  # "・8文字以上" under パスワード is a rule
        code_label = label.group(0) not in _LABEL_WORDS and label.group(0) not in ("password", "passwort", "pw")
        if (re.fullmatch(r"\d{4,12}#?|\d{1,3}(?:-\d{1,3}){2,5}", v) and not re.fullmatch(r"(?:19|20)\d\d", v)) \
                or (not code_label and _answer_like(v) and len(v) >= 6 and _DIGIT.search(v) and re.search(r"[^\W\d_]", v)):
            a = text.index(v, nxt[0])
            scan.add(a, a + len(v), "SECRET")


DETECTORS: tuple[Callable[[Scan], None], ...] = (
    find_tokens, find_cards, find_credentials, find_assignments, find_tables, find_delimited, find_prose, find_intl,
    find_labelled, find_high_entropy, find_password_forms, find_config_formats, find_keys_codes_and_documents,
    find_access_codes, find_headed_lists, find_seed_words, find_password_values, find_more_formats,
    find_network_configs, find_devops_formats, find_finance_layouts, find_intl_codes, find_one_time_codes,
    find_continued_values, find_repeats,  # last: they read what the others found
)

# Every word some detector needs on a line, for the quick check of short texts (file names,
# queries, window titles): a text with none of them, no long token, no long digit run and no
# pgpass-like colons cannot hold anything the detectors find.
QUICK_WORDS = tuple(sorted({
    *SECRET_TRIGGERS, "login", "user", "account", "u/p", "admin", "root", "sa ", "postgres",
    "pi ", "ubuntu", "guest", "operator", "superuser", "://", "authorization", "api-key",
    "basic", "mysql", "mariadb", "sshpass", "curl", "wget", "http", "docker", "podman", "helm",
    "oras", "redis-cli", "htpasswd", "sudo", "signing", "signature", "webhook", "-----begin",
    "putty-user-key", "code", "cred", "alarm", "@tcp", "@udp", "@unix", "combination", "combo", "seed",
    "recovery", "mnemonic", "backup", "wallet", "phrase", "ssn", "$", "md5", "pbkdf2", "scram", "identified",
    "define", "xauth", " / ", "mfa", "puk", *TOTP_TRIGGERS, *PIN_TRIGGERS, *PIN_TRIGGERS_NON_ASCII, *ID_TRIGGERS,
    *ID_TRIGGERS_NON_ASCII, *NETSH_LABELS, "cvv", "cvc", "private", "priv", "secret", "signer", "deployer",
    "aes", "hmac", "cipher", "crypt", "userlist", "securestring", "master.key", "social security", '"auth"', "wifi:",
    *INTL_TRIGGERS, *INTL_NON_ASCII,
    *INTL_LATIN_NON_ASCII, "passwort", "passord", "de passe", *ACCESS_TRIGGERS, *ACCESS_TRIGGERS_NON_ASCII,
    *HEADING_TRIGGERS, *SEED_TRIGGERS, *SECURITY_Q_TRIGGERS, *BOOKING_TRIGGERS, *TAN_TRIGGERS,
    *TAX_ID_TRIGGERS, *NET_TRIGGERS, *VAULT_TRIGGERS, "$ansible_vault", "_keys_", '"value"', "random_password", "bindpw",
    "rootpw", "bind_pw", "bindpassword", "encrypt", *OTP_TRIGGERS, *BACKUP_TRIGGERS, *SECRET_FILES, *SEED_LABEL_TRIGGERS, "th word", *INTL_CODE_TRIGGERS, *INTL_CODE_NON_ASCII, *TAN_LABEL_TRIGGERS, *BMC_TRIGGERS, "tokens", "initialadminpassword", "newcommand", "requirepass", "masterauth", "<add ", "begin license", "\ttrue\t", "\tfalse\t",
}))
_QUICK_TOKEN = re.compile(
    r"AKIA|ASIA|ABIA|ACCA|A3T|gh[pousr]_|github_pat_|gl[a-z]{1,3}-|xox|sk-|[srp]k_|whsec_|AIza|ya29\.|GOCSPX"
    r"|SG\.|SK[0-9a-fA-F]{8}|npm_|pypi-|hf_|_v1_|shp|key-|-us\d|:AA|sq0|ATATT|lin_api|secret_|ntn_|hv[sb]\."
    r"|dapi|gls|NRA|PMAK|AGE-|ccountKey|sig=|eyJ|\.[\w\-]{6}\.|\d[\d -]{11,}\d"
    r"|gsk_|xai-|pplx-|r8_|ops_|A3-|p8e-|LTAI|AKCp|Q~|CLOJARS_|v1\.0-|dckr_|dp\.|dt0c01|EZ[AT]K|figd_|fo1_|FLW"
    r"|GR1348941|glc_|pat\.|sat\.|HRKU-|nfp_|oy2|sha256~|pscale_|pnu_|pul-|rdme_|rubygems_|xkeysib-|sntry|shippo_"
    r"|xapp-|sgp_|sbp_|sb_secret_|tskey-|atlasv1|tfp_|webhook|discord|zapier|hooks\.slack|LS0tLS1CRUdJTi"
    r"|pat[A-Za-z0-9]{14}\.|oauth:|xprv|yprv|zprv|tprv|uprv|vprv"
)


_QUICK_WORD = re.compile("|".join(re.escape(w) for w in QUICK_WORDS))
# Shapes that are no TOKEN_FORMATS (find_tokens need not try its formats on them) but that
# another detector finds without a word: password hashes, DER keys, WIF keys.
_QUICK_SHAPE = re.compile(r"\$(?:1|apr1|md5|2[abxy]?|5|6|8|9|y|gy|7|argon2\w{1,2}|pbkdf2[\w\-]*)\$|pbkdf2_|SCRAM-|md5[0-9a-f]{32}"
                          r"|\{(?:S?SHA|S?MD5|CRYPT|PBKDF2|ARGON2)"
                          r"|MI[IJ]|MHcCAQEE|(?<![\w])[5KL9c][1-9A-HJ-NP-Za-km-z]{50,51}(?![\w])|[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}")


def may_hold_secret(text: str) -> bool:
    low = text.lower()
    if _QUICK_WORD.search(low) is not None:
        return True
    return text.count(":") >= 4 or _QUICK_TOKEN.search(text) is not None or _QUICK_SHAPE.search(text) is not None \
        or may_hold_id(text, low)
