"""One-time codes in messages and 2FA backup codes in notes, in many languages.

A one-time code is only secret for minutes, but a chat export or a pasted SMS keeps it with
the account it opens, and a person asked for it on the phone is being phished: the code is
what the message names it ("Twój kod weryfikacyjny to 482913", "Váš ověřovací kód je 482
913", "验证码482913", "482-913 is your Facebook confirmation code"). Backup codes open the
account whenever used. Both are found by the words a message or a note uses for them, in
~25 languages; the code itself is 4-8 digits (maybe split 3+3 by a space or a dash), backup
codes are the shapes services print (`1234-5678`, `abcd efgh`, 8-10 digits or letters and
digits) listed after or below their label.

Codes that open nothing stay: order, ticket, error and postcodes, promo codes, a code named
without digits ("the verification code expires after 10 minutes"), a year.
"""

from __future__ import annotations

import re
from typing import Protocol


class Scan(Protocol):
    """What the detectors here use of rules.Scan (rules imports this module)."""

    text: str
    low: str

    def lines(self, words: tuple[str, ...]) -> list[tuple[int, int]]: ...

    def add(self, start: int, end: int, kind: str) -> None: ...


# The words for a one-time code (lowercase), by language.
OTP_LABELS = (
    # en
    r"verification[ \t]+code|verify[ \t]+code|confirmation[ \t]+code|security[ \t]+code|one[ \t-]?time[ \t]+(?:code|password|passcode|pin)"
    r"|log[ \t-]?in[ \t]+code|sign[ \t-]?in[ \t]+code|authentication[ \t]+code|2fa[ \t]+code|mfa[ \t]+code|otp(?:[ \t]+code)?|sms[ \t]+code"
    # de
    r"|bestätigungscode|sicherheitscode|verifizierungscode|anmeldecode|einmalcode|einmalpasswort|einmal-code|freigabecode"
    r"|authentifizierungscode|bestätigungs-code|sms-code|(?<![a-z])(?:mobile|sms|push|chip|photo|app|m|i)?[ \t-]?tan(?![a-z])"
    # pl, cs, sk
    r"|kod(?:u|em)?[ \t]+(?:weryfikacyjny|jednorazowy|sms|potwierdzaj[ąa]cy|potwierdzenia|autoryzacyjny|autoryzacji|logowania|bezpiecze[ńn]stwa)"
    r"|(?:ověřovací|overovací|potvrzovací|potvrdzovací|jednorázový|jednorazový|autorizační|autorizačný|bezpečnostní|přihlašovací|sms)[ \t]+kód"
    # fr, es, pt, it, ro
    r"|code[ \t]+(?:de[ \t]+)?(?:vérification|confirmation|sécurité|connexion|validation)|code[ \t]+à[ \t]+usage[ \t]+unique"
    r"|c[óo]digo[ \t]+(?:de[ \t]+)?(?:verificaci[óo]n|confirmaci[óo]n|seguridad|verifica[çc][ãa]o|confirma[çc][ãa]o|seguran[çc]a|acesso|acceso)"
    r"|codice[ \t]+(?:di[ \t]+)?(?:verifica|conferma|sicurezza|accesso)|codice[ \t]+otp"
    r"|cod(?:ul)?(?:[ \t]+(?:tău|tau|dvs\.?|dumneavoastră))?[ \t]+de[ \t]+(?:verificare|confirmare|securitate|autentificare)"
    # nl, nordic
    r"|verificatiecode|bevestigingscode|beveiligingscode|inlogcode|eenmalige[ \t]+code|sms-code"
    r"|engångskod(?:en)?|verifieringskod(?:en)?|bekräftelsekod(?:en)?|säkerhetskod(?:en)?"
    r"|engangskode(?:n)?|verifiseringskode(?:n)?|bekreftelseskode(?:n)?|sikkerhetskode(?:n)?|bekræftelseskode(?:n)?"
    r"|verifikationskode(?:n)?|sikkerhedskode(?:n)?"
    r"|vahvistuskoodi(?:si)?|kertakäyttökoodi(?:si)?|tunnistuskoodi(?:si)?|varmennuskoodi(?:si)?|turvakoodi(?:si)?"
    # tr, hu, el
    r"|doğrulama[ \t]+kodu(?:nuz|n)?|onay[ \t]+kodu(?:nuz|n)?|güvenlik[ \t]+kodu(?:nuz|n)?|tek[ \t]+kullanımlık[ \t]+(?:kod|şifre)"
    r"|ellenőrző[ \t]+kód(?:od|ja|ja)?|megerősítő[ \t]+kód(?:od|ja)?|biztonsági[ \t]+kód(?:od|ja)?|egyszer[ \t]+használatos[ \t]+kód"
    r"|κωδικός[ \t]+(?:επαλήθευσης|επιβεβαίωσης|ασφαλείας|μίας[ \t]+χρήσης)"
    # ru, uk
    r"|код[ \t]+(?:подтверждения|из[ \t]+смс|для[ \t]+входа|підтвердження|доступа)|проверочный[ \t]+код|одноразовый[ \t]+код"
    r"|одноразовий[ \t]+код|смс-код"
    # vi, id, ms
    r"|mã[ \t]+(?:xác[ \t]+thực|xác[ \t]+nhận|otp|bảo[ \t]+mật)|kode[ \t]+(?:verifikasi|otp|konfirmasi|keamanan)"
    # zh, ja, ko
    r"|验证码|校验码|动态码|驗證碼|認証番号|認証コード|確認コード|ワンタイムパスワード|인증[ \t]?번호|인증[ \t]?코드|확인[ \t]?코드"
)
# Words whose lines are read (each absent word costs a scan of the text, per text: few and
# shared with other detectors; "cod" holds code, codice, codul, cod de, código's "cód"...).
OTP_TRIGGERS = ("code", "cod", "kod", "kód", "digo", "kood", "tan", "otp", "sign in", "log in", "код", "κωδικ", "验证码",
                "校验码", "动态码", "驗證碼", "認証", "確認コード", "ワンタイム", "인증", "확인", "mã ")
# Between the label and the code: a few words ("is", "lautet", "to", "je", "för Instagram"),
# an operation's number and date ("do operacji nr 3 z dnia 12-01-2026:"), brackets or quotes.
_GAP = r"""(?:[^\d\n]|\b(?:nr|no|n°|č|#)\.?[ \t]*\d{1,3}(?!\d)|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}(?!\d))"""
_VALUE = r"""(?:[a-z]-)?(?P<val>\d{3}[ \-]\d{3}|\d{4,8})(?![\d]|[.,]\d|[ \-]\d)"""
_OTP_VALUE = re.compile(r"(?<![\d+A-Za-z_])" + _VALUE)
_OTP_LABEL = re.compile(OTP_LABELS)
_THREE_DIGITS = re.compile(r"[0-9]{3}")
_OTP_GAP = re.compile(_GAP + r"*")
LABEL_REACH = 110  # characters before a code where the words for it are looked for
# The code first: "482-913 is your Facebook confirmation code", "482913 ist dein Anmeldecode".
_OTP_FIRST = re.compile(
    r"(?<![\w\-+])(?:[a-z]-)?(?P<val>\d{3}[ \-]\d{3}|\d{4,8})[ \t]+(?:is|ist|est|es|é|è|jest|je|är|er|on|là|adalah)[ \t]+"
    r"[^\n\d]{0,40}?(?:code|kod|kód|código|codice|koodi|kode|código)"
    # "Use 473 680 to sign in", "Gib 482913 ein, um dich anzumelden"
    r"|(?<![\w\-])(?:use|enter|type|utilisez|saisissez|verwende|nutze|gib|użyj|wpisz|zadejte|usa|introduce|digite|voer)[ \t]+"
    r"(?:[a-z]-)?(?P<val2>\d{3}[ \-]\d{3}|\d{4,8})[ \t]+(?:to|um|pour|para|aby|per|om|ein)\b[^\n\d]{0,30}?"
    r"(?:sign|log|verif|confirm|reset|access|connect|anmeld|zaloguj|přihl|iniciar|accedi|inlog|bestätig)")
GAP_MAX = 60  # characters between a label and its code ("mobileTAN für die Überweisung an ... lautet:")
_NOT_OTP_GAP = re.compile(r"expir|läuft|gültig|valid|minut|sekund|second|hour|stunde|heure|hora|ora\b|godzin|order|bestell|ticket|"
                          r"tel\b|phone|telefon|\+\d")

BACKUP_LABEL = re.compile(
    r"(?:backup|recovery|emergency|scratch|2fa|mfa|two[- ]factor)[ \t_-]*(?:verification[ \t]+)?codes?|2fa[ \t]+backup|mfa[ \t]+backup"
    r"|sicherungscodes?|backup-codes?|wiederherstellungscodes?|wiederherstellungsschlüssel|notfallcodes?|ersatzcodes?"
    r"|codes?[ \t]+de[ \t]+(?:secours|récupération|recuperation|sauvegarde)"
    r"|c[óo]digos?[ \t]+de[ \t]+(?:respaldo|recuperaci[óo]n|recupera[çc][ãa]o|backup|seguran[çc]a)"
    r"|codici[ \t]+di[ \t]+(?:backup|recupero|emergenza)|kody[ \t]+(?:zapasowe|odzyskiwania|awaryjne|kopii[ \t]+zapasowej)"
    r"|záložní[ \t]+kódy|záložné[ \t]+kódy|obnovovací[ \t]+kódy|reservekoder|reservkoder|back-?up[ \t-]?codes|herstelcodes"
    r"|varmuuskoodit|yedek[ \t]+kodlar(?:ı)?|kurtarma[ \t]+kodlar(?:ı)?|резервные[ \t]+коды|коды[ \t]+восстановления"
    r"|резервні[ \t]+коди|备用码|备用验证码|恢复码|バックアップコード|リカバリーコード|백업[ \t]?코드|복구[ \t]?코드")
BACKUP_TRIGGERS = ("backup", "recovery", "2fa", "коды", "коди", "备用", "恢复码", "バックアップ", "リカバリー", "백업", "복구")
# The other labels hold a word of OTP_TRIGGERS (Sicherungscodes, kody zapasowe, códigos de
# respaldo, záložní kódy, back-up codes ...): those lines are read when they hold one of these stems.
BACKUP_STEMS = ("sicherung", "wiederherstell", "notfall", "ersatz", "secours", "récup", "recup", "sauvegarde", "respaldo",
                "zapasow", "odzysk", "awaryj", "záložn", "obnovov", "reserv", "herstel", "varmuus", "yedek", "kurtarma",
                "emergency", "scratch", "back-up", "mfa", "two-factor", "two factor")
BACKUP_LINES = 14  # lines under a backup-code label that are read at most
_BACKUP_CODE = re.compile(
    r"(?<![\w\-])(?:[A-Za-z0-9]{3,6}(?:-[A-Za-z0-9]{3,6}){1,3}|\d{3,6}[ ]\d{3,6}(?![ ]\d)|\d{6,10}|(?=[A-Za-z]*\d)[A-Za-z0-9]{6,12}"
    r"|[a-z]{8,12}|[A-Z]{8,12})(?![\w\-])")
_LIST_REST = re.compile(r"[\s,;|·•*\-.)\]]*(?:\d{1,2}[.)][\s]*)?(?:\([^()\n]{0,60}\))?[\s.,;]*")


def _code_line(line: str) -> list[re.Match[str]] | None:
    """The codes of a line that holds only codes (bullets, numbers, commas, a note in parentheses)."""
    codes = list(_BACKUP_CODE.finditer(line))
    if not codes:
        return None
    rest = _BACKUP_CODE.sub(" ", line)
    rest = re.sub(r"(?m)^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+", " ", rest)
    return codes if _LIST_REST.fullmatch(rest) else None


def present(low: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """The words that are in a short text (`in` at C speed: cheaper than asking Scan.lines
    for each absent word); on a long text each `in` would be a scan, as Scan.lines' own, which
    also skips the words of a script the text does not use."""
    if len(low) > PRESENT_MAX_CHARS:
        return words
    return tuple(w for w in words if w in low)


PRESENT_MAX_CHARS = 20_000


def find_one_time_codes(scan: Scan) -> None:
    """One-time codes after (or before) the words for them; 2FA backup codes after or below
    their label in ~25 languages."""
    text, low = scan.text, scan.low
    otp_words = present(low, OTP_TRIGGERS)
    for start, end in scan.lines(otp_words):
        if _THREE_DIGITS.search(low, start, end) is None:
            continue  # most lines with "code" or "tan" in them hold no code (instance, decode)
        for v in _OTP_VALUE.finditer(low, start, end):  # the code first, then its words before it: one
            a = v.start()                                # regex over a line, the long one over 110 characters
            labels = list(_OTP_LABEL.finditer(low, max(start, a - LABEL_REACH), a))
            if not labels:
                continue
            gap = low[labels[-1].end() : a]
            if len(gap) > GAP_MAX or not _OTP_GAP.fullmatch(gap) or _NOT_OTP_GAP.search(gap) \
                    or re.fullmatch(r"(?:19|20)\d\d", v.group("val")):
                continue
            scan.add(v.start("val"), v.end("val"), "SECRET")
        for m in _OTP_FIRST.finditer(low, start, end):
            g = "val" if m.group("val") else "val2"
            scan.add(m.start(g), m.end(g), "SECRET")
    otp_lines = scan.lines(otp_words)
    joined = "\n".join(low[a:b] for a, b in otp_lines)  # the stems are looked for on these lines only
    in_text = [w for w in BACKUP_STEMS if w in joined]
    stems = [line for line in scan.lines(otp_words) if any(w in low[line[0] : line[1]] for w in in_text)] if in_text else []
    for start, end in sorted({*scan.lines(present(low, BACKUP_TRIGGERS)), *stems}):
        label = BACKUP_LABEL.search(low, start, end)
        if label is None:
            continue
        found = []
        rest = text[label.end() : end]
        colon = re.match(r"[^:\n：]{0,40}[:：]", rest)
        if colon is not None and (codes := _code_line(rest[colon.end() :])):
            found += [(label.end() + colon.end() + c.start(), label.end() + colon.end() + c.end(), c.group(0)) for c in codes]
        pos, skipped = end, 0
        for _ in range(BACKUP_LINES):
            if pos >= len(text):
                break
            a = pos + 1
            b = text.find("\n", a)
            b = len(text) if b < 0 else b
            line = text[a:b]
            codes = _code_line(line) if line.strip() else None
            if codes:
                found += [(a + c.start(), a + c.end(), c.group(0)) for c in codes]
            elif found or skipped >= 1 or line.strip() and len(line.split()) > 4:
                break
            else:
                skipped += 1
            pos = b
        if len(found) >= 2 and sum(any(ch.isdigit() for ch in c) for _, _, c in found) * 2 >= len(found):
            for a, b, _ in found:
                scan.add(a, b, "SECRET")
