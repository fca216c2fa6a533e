"""The corpora the redaction layer is measured on.

Planted: realistic texts (config files, notes, shell history, HTTP requests, chat lines)
each holding secrets in one format. A template marks a secret as «generator»; the values
are generated from a fixed seed, so nothing here is a live credential and the corpus is the
same on every run. Recall counts the planted values that survive redaction.

Ordinary: prose and code with no secret in it (this project's own documentation and
source, and hand-written notes that talk about passwords, tokens and keys without holding
one), stored as text files next to this module. Every redaction in it is a false positive.
"""

from __future__ import annotations

import base64
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ORDINARY_DIR = Path(__file__).with_name("ordinary")
SEED = 14

_WORDS = ("maple", "river", "falcon", "copper", "winter", "orchid", "lantern", "harbor", "velvet",
          "thunder", "cobalt", "meadow", "saffron", "granite", "juniper", "pepper", "marble", "zephyr")


def _rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


AN = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
UP = string.ascii_uppercase + string.digits


def _password(rng: random.Random) -> str:
    style = rng.randrange(6)
    w = rng.choice(_WORDS)
    if style == 0:
        return f"{w.capitalize()}{rng.randrange(10, 99)}{rng.choice('!@#$%&*?')}{rng.choice(_WORDS)}"
    if style == 1:
        return f"{w}{rng.randrange(1, 9)}"  # hunter2-style
    if style == 2:
        return "-".join(rng.sample(_WORDS, 4))  # a passphrase
    if style == 3:
        return _rand(rng, AN + "!#%+", rng.randrange(12, 20))
    if style == 4:
        return f"{w.upper()}_{rng.randrange(1000, 9999)}{rng.choice(_WORDS)}"
    return f"{w[0].upper()}{w[1:3]}{rng.randrange(0, 9)}{w[3:]}{rng.choice('!?.')}{rng.randrange(10, 99)}"


def _jwt(rng: random.Random) -> str:
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    head = b64(b'{"alg":"HS256","typ":"JWT"}')
    claims = f'{{"sub":"{rng.randrange(10**6)}","name":"{rng.choice(_WORDS)}","iat":{1700000000 + rng.randrange(10**6)}}}'
    body = b64(claims.encode())
    return f"{head}.{body}.{_rand(rng, AN + '-_', 43)}"


def _pem(rng: random.Random, kind: str = "RSA ") -> str:
    lines = [_rand(rng, AN + "+/", 64) for _ in range(rng.randrange(4, 9))]
    return f"-----BEGIN {kind}PRIVATE KEY-----\n" + "\n".join(lines) + f"\n-----END {kind}PRIVATE KEY-----"


def _card(rng: random.Random) -> str:
    digits = [4] + [rng.randrange(10) for _ in range(14)]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    digits.append((10 - total % 10) % 10)
    s = "".join(map(str, digits))
    return " ".join(s[i : i + 4] for i in range(0, 16, 4))


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "pw": _password,
    "akia": lambda r: "AKIA" + _rand(r, UP, 16),
    "awssecret": lambda r: _rand(r, AN + "+/", 40),
    "ghp": lambda r: "ghp_" + _rand(r, AN, 36),
    "gho": lambda r: "gho_" + _rand(r, AN, 36),
    "ghpat": lambda r: "github_pat_" + _rand(r, AN, 22) + "_" + _rand(r, AN, 59),
    "glpat": lambda r: "glpat-" + _rand(r, AN + "-_", 20),
    "skproj": lambda r: "sk-proj-" + _rand(r, AN + "-_", 64),
    "sk": lambda r: "sk-" + _rand(r, AN, 48),
    "skant": lambda r: "sk-ant-api03-" + _rand(r, AN + "-_", 80),
    "xoxb": lambda r: f"xoxb-{r.randrange(10**10, 10**11)}-{r.randrange(10**12, 10**13)}-{_rand(r, AN, 24)}",
    "xoxp": lambda r: f"xoxp-{r.randrange(10**10, 10**11)}-{r.randrange(10**10, 10**11)}-{_rand(r, HEX, 32)}",
    "slackhook": lambda r: f"https://hooks.slack.com/services/T{_rand(r, UP, 8)}/B{_rand(r, UP, 10)}/{_rand(r, AN, 24)}",
    "stripe": lambda r: "sk_live_" + _rand(r, AN, 24),
    "rkstripe": lambda r: "rk_live_" + _rand(r, AN, 24),
    "whsec": lambda r: "whsec_" + _rand(r, AN, 32),
    "aiza": lambda r: "AIza" + _rand(r, AN + "-_", 35),
    "sendgrid": lambda r: "SG." + _rand(r, AN + "-_", 22) + "." + _rand(r, AN + "-_", 43),
    "twilio": lambda r: "SK" + _rand(r, HEX, 32),
    "npm": lambda r: "npm_" + _rand(r, AN, 36),
    "pypi": lambda r: "pypi-AgEIcHlwaS5vcmc" + _rand(r, AN + "-_", 60),
    "hf": lambda r: "hf_" + _rand(r, AN, 34),
    "dop": lambda r: "dop_v1_" + _rand(r, HEX, 64),
    "shpat": lambda r: "shpat_" + _rand(r, HEX, 32),
    "mailgun": lambda r: "key-" + _rand(r, HEX, 32),
    "telegram": lambda r: f"{r.randrange(10**8, 10**9)}:AA{_rand(r, AN + '-_', 33)}",
    "vault": lambda r: "hvs." + _rand(r, AN, 90),
    "jwt": _jwt,
    "rsa": _pem,
    "openssh": lambda r: _pem(r, "OPENSSH "),
    "ec": lambda r: _pem(r, "EC "),
    "pgp": lambda r: _pem(r, "PGP ").replace("PGP PRIVATE KEY", "PGP PRIVATE KEY BLOCK"),
    "card": _card,
    "hex32": lambda r: _rand(r, HEX, 32),
    "hex64": lambda r: _rand(r, HEX, 64),
    "b64_32": lambda r: _rand(r, AN + "+/", 32) + "==",
    "tok": lambda r: _rand(r, AN, 32),
    "tok_ = ": lambda r: _rand(r, AN + "_-", 40),
    "basic": lambda r: base64.b64encode(f"{r.choice(_WORDS)}:{_password(r)}".encode()).decode(),
    "pin": lambda r: str(r.randrange(1000, 999999)),
    "azure": lambda r: _rand(r, AN + "+/", 86) + "==",
}


# (format, template). «name» is a planted secret from GENERATORS; everything else stays.
PLANTED: tuple[tuple[str, str], ...] = (
    # JSON
    ("json", '{\n  "db_host": "db.internal",\n  "db_password": "«pw»",\n  "port": 5432\n}'),
    ("json", '{"api_key": "«tok»", "region": "eu-west-1"}'),
    ("json", '{"auth": {"username": "deploy", "password": "«pw»"}}'),
    ("json", '{"client_id": "web-app", "client_secret": "«tok»"}'),
    ("json", '"github": {"token": "«ghp»", "org": "acme"}'),
    ("json", '{"stripe": {"secretKey": "«stripe»", "currency": "eur"}}'),
    ("json", '{"openai_api_key": "«skproj»"}'),
    ("json", '{"credentials": {"accessKeyId": "«akia»", "secretAccessKey": "«awssecret»"}}'),
    ("json", '{"mail": {"smtp_pass": "«pw»", "smtp_user": "noreply@example.org"}}'),
    # YAML
    ("yaml", "database:\n  host: localhost\n  user: app\n  password: «pw»\n"),
    ("yaml", "spring:\n  datasource:\n    password: '«pw»'\n"),
    ("yaml", "slack:\n  bot_token: «xoxb»\n  channel: '#ops'\n"),
    ("yaml", "env:\n  - name: POSTGRES_PASSWORD\n    value: «pw»\n  - POSTGRES_PASSWORD=«pw»\n"),
    ("yaml", "registry:\n  auth_token: \"«glpat»\"\n"),
    ("yaml", "sendgrid:\n  apiKey: «sendgrid»\n"),
    ("yaml", "vault:\n  token: «vault»\n  addr: https://vault.internal:8200\n"),
    ("yaml", "webhooks:\n  signing_secret: «whsec»\n"),
    # TOML / INI / properties
    ("toml", '[database]\nuser = "app"\npassword = "«pw»"\n'),
    ("toml", '[tool.poetry.http-basic.private]\nusername = "ci"\npassword = "«pypi»"\n'),
    ("toml", '[llm]\nmodel = "gpt-4o"\napi_key = "«sk»"\n'),
    ("ini", "[client]\nuser=root\npassword=«pw»\nhost=127.0.0.1\n"),
    ("ini", "[smtp]\nserver = mail.example.com\nsmtp_password = «pw»\n"),
    ("properties", "spring.datasource.url=jdbc:mysql://localhost/app\nspring.datasource.password=«pw»\n"),
    ("properties", "app.jwt.secret=«b64_32»\n"),
    # .env
    ("env", "DATABASE_URL=postgres://app:«pw»@localhost:5432/app\nDEBUG=false\n"),
    ("env", "DB_PASS=«pw»\nDB_USER=app\n"),
    ("env", "STRIPE_KEY=«stripe»\n"),
    ("env", "SECRET_KEY='«tok»'\nALLOWED_HOSTS=*\n"),
    ("env", "export AWS_ACCESS_KEY_ID=«akia»\nexport AWS_SECRET_ACCESS_KEY=«awssecret»\n"),
    ("env", "HF_TOKEN=«hf»\n"),
    ("env", "MAILGUN_API_KEY=«mailgun»\n"),
    ("env", "TELEGRAM_BOT=«telegram»\n"),
    ("env", "REDIS_AUTH=«pw»\n"),
    ("env", "JWT_SIGNING_KEY=\"«tok»\"\n"),
    ("env", "ADMIN_PIN=«pin»\n"),
    ("env", "SESSION_SECRET=«hex64»\n"),
    # .netrc, .pgpass, htpasswd-like
    ("netrc", "machine api.github.com\n  login octocat\n  password «ghp»\n"),
    ("netrc", "machine ftp.example.org login backup password «pw»\n"),
    ("pgpass", "db.internal:5432:app:app_user:«pw»\n"),
    # markdown notes
    ("markdown", "## Staging server\n\n- Host: staging.example.com\n- **Password**: «pw»\n"),
    ("markdown", "| service | user | password |\n|---|---|---|\n| grafana | admin | «pw» |\n"),
    ("markdown", "**API key:** `«tok»`\n"),
    ("markdown", "Router login: admin / «pw»\n"),
    ("markdown", "> WiFi: HomeNet, pass: «pw»\n"),
    ("markdown", "* Jenkins — user `ci`, token `«hex32»`\n"),
    ("markdown", "PW: «pw»\n"),
    # prose
    ("prose", "The password is «pw» for the shared drive."),
    ("prose", "fyi the wifi password is «pw» now"),
    ("prose", "My new passphrase: «pw»"),
    ("prose", "The door pin is «pin»."),
    ("prose", "password for the NAS is «pw»"),
    ("prose", "Use «pw» as the password when it asks."),
    ("prose", "Login with admin / «pw» and change it after."),
    ("prose", "credentials: alice / «pw»"),
    ("prose", "root / «pw» works on the old box"),
    ("prose", "the api key is «tok» (rotate in June)"),
    ("prose", "He said the password was '«pw»'."),
    ("prose", "My card number is «card», expiry 09/27."),
    ("prose", "pw is «pw»"),
    # credentials in URLs
    ("url", "postgres://app:«pw»@db.internal:5432/app"),
    ("url", "mysql://root:«pw»@127.0.0.1:3306/shop"),
    ("url", "mongodb+srv://admin:«pw»@cluster0.abcde.mongodb.net/test"),
    ("url", "redis://:«pw»@cache.internal:6379/0"),
    ("url", "amqp://guest:«pw»@rabbit:5672/"),
    ("url", "git clone https://oauth2:«glpat»@gitlab.com/team/repo.git"),
    ("url", "https://x-access-token:«ghp»@github.com/acme/site.git"),
    ("url", "ftp://backup:«pw»@ftp.example.org/nightly/"),
    ("url", "Slack alerts go to «slackhook»"),
    # HTTP headers and requests
    ("http", "GET /v1/orders HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer «tok»\n"),
    ("http", "curl -H 'Authorization: Bearer «jwt»' https://api.example.com/me"),
    ("http", "Authorization: Basic «basic»"),
    ("http", 'curl -H "X-API-Key: «hex32»" https://api.example.com'),
    ("http", "Cookie: sessionid=«tok»; csrftoken=«tok»"),
    ("http", "requests.get(url, headers={'Authorization': 'token «ghp»'})"),
    ("http", "PRIVATE-TOKEN: «glpat»"),
    ("http", "fetch(url, { headers: { Authorization: `Bearer «skant»` } })"),
    # shell history
    ("shell", "mysql -u root -p«pw» production"),
    ("shell", "sshpass -p '«pw»' ssh deploy@10.0.0.5"),
    ("shell", "curl -u admin:«pw» https://jenkins.internal/api/json"),
    ("shell", "docker login -u ci -p «pw» registry.example.com"),
    ("shell", "export GITHUB_TOKEN=«ghp»"),
    ("shell", "echo '«pw»' | sudo -S systemctl restart nginx"),
    ("shell", "htpasswd -b .htpasswd admin «pw»"),
    ("shell", "PGPASSWORD=«pw» psql -h db -U app"),
    ("shell", "redis-cli -h cache -a «pw» ping"),
    ("shell", "aws configure set aws_secret_access_key «awssecret»"),
    ("shell", "openssl enc -aes-256-cbc -in a.tar -out a.enc -pass pass:«pw»"),
    ("shell", "./deploy.sh --password=«pw» --env prod"),
    ("shell", "gh auth login --with-token <<< «gho»"),
    ("shell", "npm config set //registry.npmjs.org/:_authToken «npm»"),
    ("shell", "kubectl create secret generic db --from-literal=password=«pw»"),
    ("shell", "heroku config:set API_TOKEN=«tok»"),
    # code
    ("python", 'OPENAI_API_KEY = "«sk»"\nclient = OpenAI(api_key=OPENAI_API_KEY)\n'),
    ("python", 'conn = psycopg2.connect(host="db", user="app", password="«pw»")'),
    ("python", 'stripe.api_key = "«rkstripe»"'),
    ("python", "HF_HUB_TOKEN = '«hf»'"),
    ("javascript", "const apiKey = '«aiza»';"),
    ("javascript", 'const config = { password: "«pw»", user: "sa" };'),
    ("go", 'var slackToken = "«xoxp»"'),
    ("php", "$db = ['host' => 'localhost', 'password' => '«pw»'];"),
    ("xml", "<connection>\n  <user>sa</user>\n  <password>«pw»</password>\n</connection>"),
    ("csharp", 'var conn = "Server=db;Database=app;User Id=sa;Password=«pw»;";'),
    ("azure", "DefaultEndpointsProtocol=https;AccountName=files;AccountKey=«azure»;EndpointSuffix=core.windows.net"),
    ("java", 'String twilioKey = "«twilio»";'),
    ("ruby", "Shopify.access_token = '«shpat»'"),
    ("terraform", 'provider "digitalocean" {\n  token = "«dop»"\n}'),
    # token prefixes alone, pasted into notes
    ("token", "new token: «ghpat»"),
    ("token", "«akia»"),
    ("token", "sk key for the bot «skproj»"),
    ("token", "«sendgrid»"),
    ("token", "«npm»"),
    ("token", "hf «hf»"),
    ("token", "«jwt»"),
    ("token", "«glpat»"),
    ("token", "«xoxb»"),
    # private keys
    ("key", "«rsa»"),
    ("key", "deploy key:\n«openssh»\n"),
    ("key", "«ec»"),
    ("key", "«pgp»"),
    # high-entropy tokens near secret words
    ("entropy", "signing secret «b64_32»"),
    ("entropy", "webhook secret -> «tok»"),
    ("entropy", "auth «hex64»"),
    ("entropy", "Client secret (prod) «tok_ = »"),
    ("entropy", "the bearer for staging «tok»"),
    ("entropy", "salt «b64_32»"),
    # a second batch, written after the detectors were tuned on the first (held out)
    ("json", '{"smtp": {"host": "smtp.example.com", "port": 587, "passwd": "«pw»"}}'),
    ("json", '[{"name": "prod", "apiToken": "«tok»"}]'),
    ("yaml", "production:\n  secret_key_base: «hex64»\n"),
    ("yaml", "auth:\n  admin_password: \"«pw»\"\n"),
    ("toml", '[pypi]\ntoken = "«pypi»"\n'),
    ("ini", "[mysqld]\nroot-password = «pw»\n"),
    ("env", "NEXTAUTH_SECRET=«b64_32»\n"),
    ("env", "OPENAI_KEY=«skproj»\n"),
    ("env", "POSTGRES_PASSWORD: «pw»\n"),
    ("markdown", "### VPN\nusername: jdoe\npassword: «pw»\n"),
    ("markdown", "- [ ] change the DB password (currently `«pw»`)\n"),
    ("prose", "Password: «pw» (don't share)"),
    ("prose", "new pass for the printer admin page is «pw»"),
    ("prose", "the passcode is «pin»"),
    ("prose", "set the wifi passphrase to «pw» yesterday"),
    ("prose", "my github token: «ghp»"),
    ("chat", "[10:42] dana: can you send me the staging pw?\n[10:43] luis: «pw»"),
    ("chat", "tom: token is «tok» fyi"),
    ("shell", "mysql --user=root --password=«pw» shop < dump.sql"),
    ("shell", "curl https://api.example.com -H 'Authorization: Token «hex32»'"),
    ("shell", "export OPENAI_API_KEY=\"«sk»\""),
    ("shell", "git push https://bob:«pw»@git.example.com/repo.git"),
    ("shell", "psql 'postgresql://report:«pw»@10.1.2.3/analytics'"),
    ("python", 'r = requests.post(url, auth=("svc", "«pw»"))'),
    ("python", 'client = Client(token="«xoxb»")'),
    ("javascript", "process.env.STRIPE_SECRET = '«stripe»';"),
    ("xml", '<add key="ApiSecret" value="«tok»" />'),
    ("http", "POST /login HTTP/1.1\n\nusername=alice&password=«pw»"),
    ("url", "https://api.example.com/v1/data?api_key=«hex32»&format=json"),
    ("url", "jdbc:postgresql://db:5432/app?user=app&password=«pw»"),
    # a third batch, written after the second was fixed and not tuned on (held out)
    ("json", '{"Password": "«pw»", "Username": "svc_backup"}'),
    ("yaml", "mail:\n  smtp:\n    pass: «pw»\n"),
    ("yaml", "  github_token: «ghp»\n"),
    ("env", "DJANGO_SECRET_KEY=«tok»\n"),
    ("env", "MONGO_URI=mongodb://root:«pw»@mongo:27017\n"),
    ("markdown", "**Wi-Fi password:** «pw»\n"),
    ("markdown", "| Account | Login | Pass |\n| --- | --- | --- |\n| bank | jdoe | «pw» |\n"),
    ("prose", "Her password was «pw», she told me over the phone."),
    ("prose", "PIN: «pin»"),
    ("prose", "The alarm code is «pin»."),
    ("shell", "sudo mysql -uroot -p«pw» -e 'show databases'"),
    ("shell", "export SLACK_BOT_TOKEN=«xoxb»"),
    ("shell", "wget --user=admin --password=«pw» https://files.example.com/a.zip"),
    ("python", "AWS_SECRET = '«awssecret»'"),
    ("python", 'login(user="bob", pwd="«pw»")'),
    ("go", 'db, _ := sql.Open("mysql", "app:«pw»@tcp(127.0.0.1:3306)/shop")'),
    ("http", "Proxy-Authorization: Basic «basic»"),
    ("http", "x-api-key: «tok»"),
    ("token", "copied this: «hf»"),
    ("key", "ssh key\n«openssh»"),
)


@dataclass(frozen=True)
class Planted:
    format: str
    text: str
    secrets: tuple[str, ...]


def planted_corpus(seed: int = SEED) -> list[Planted]:
    """Every template with generated secrets filled in."""
    rng = random.Random(seed)
    out = []
    for fmt, template in PLANTED:
        pieces = re.split(r"«([^»]+)»", template)
        secrets = [GENERATORS[name](rng) for name in pieces[1::2]]
        pieces[1::2] = secrets
        out.append(Planted(fmt, "".join(pieces), tuple(secrets)))
    return out


def ordinary_texts() -> dict[str, str]:
    """The no-secret corpus: file name -> text."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(ORDINARY_DIR.glob("*.txt"))}
