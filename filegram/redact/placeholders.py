"""Placeholder phrases written where a password goes: "Passwort: bitte ändern", "mot de
passe : à définir", "contraseña: ver bóveda".

A password label followed by a value is the strongest sign of a secret the detectors have,
so a note or a form saying that the password is still to be set, or where to find it, was
redacted like one ("Passwort: [REDACTED:SECRET] ändern"). These phrases are the same few
in every language: please change, to be defined, see (the vault), ask, unknown, empty,
none, not set. They are listed here for the languages whose password label the detectors
know (rules.INTL_LABELS and English), and a value that starts with one is not a secret.

A phrase is only taken when it is made of words (it ends at a space, a sentence mark or
the end of the text): "bitte123" or "ver-8Yq!" are not placeholders, and a real secret
written after a phrase ("Passwort: bitte Tr0ub4dor&3 nehmen") is not the detectors' value
anyway (they take the token right after the label).
"""

from __future__ import annotations

# Language -> phrases (lower case) that begin a value meaning "no password here (yet)".
PHRASES_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "en": ("please change", "please set", "change me", "change it", "to be changed", "to be set",
           "to be defined", "to be confirmed", "tbd", "tba", "tbc", "see vault", "see below",
           "see above", "ask", "unknown", "not set", "none yet", "will be sent", "sent separately",
           "in the vault", "in 1password", "in the password manager", "same as above",
           "on the sticker", "on the label", "on the back of the router", "in vault", "sso", "via sso", "in keepass",
           "in bitwarden", "in lastpass"),
    "de": ("bitte", "ändern", "aendern", "siehe", "folgt", "wird nachgereicht", "wird mitgeteilt",
           "nachfragen", "erfragen", "unbekannt", "leer", "keins", "keines", "nicht gesetzt",
           "noch nicht", "noch offen", "zu ändern", "im tresor", "im passwortmanager", "neu setzen",
           "steht auf", "steht im", "steht in", "auf dem aufkleber"),
    "nl": ("graag wijzigen", "wijzigen", "alsjeblieft", "alstublieft", "zie", "volgt", "onbekend",
           "leeg", "geen", "nog niet", "nader te bepalen", "ntb", "te wijzigen", "in de kluis"),
    "fr": ("à changer", "a changer", "à modifier", "a modifier", "à définir", "a definir",
           "à venir", "a venir", "voir", "svp", "s'il vous plaît", "s'il vous plait", "changer",
           "modifier", "inconnu", "vide", "aucun", "demander", "non défini", "dans le coffre"),
    "es": ("por favor", "cambiar", "cámbiala", "cambiala", "cámbialo", "cambialo", "ver", "véase",
           "pendiente", "por definir", "a definir", "desconocida", "desconocido", "vacía", "vacío",
           "ninguna", "ninguno", "preguntar", "no definida", "en la bóveda"),
    "ca": ("si us plau", "canviar", "a canviar", "vegeu", "pendent", "per definir", "desconeguda",
           "buida"),
    "pt": ("por favor", "alterar", "altere", "mudar", "trocar", "veja", "ver", "pendente",
           "a definir", "desconhecida", "vazia", "nenhuma", "perguntar", "não definida"),
    "it": ("per favore", "da cambiare", "cambiare", "vedi", "da definire", "sconosciuta", "vuota",
           "nessuna", "chiedere", "non impostata"),
    "no": ("vennligst", "endre", "se", "ukjent", "tomt", "ingen", "spør", "kommer", "ikke satt"),
    "da": ("venligst", "ændr", "ændres", "se", "ukendt", "ingen", "spørg", "følger", "ikke sat"),
    "sv": ("vänligen", "ändra", "ändras", "se", "okänt", "okänd", "tomt", "ingen", "inget",
           "fråga", "kommer", "ej satt", "inte satt"),
    "fi": ("ole hyvä", "vaihda", "vaihdettava", "katso", "tuntematon", "tyhjä", "ei mitään",
           "ei asetettu", "kysy", "tulossa"),
    "pl": ("proszę", "prosze", "zmienić", "zmienic", "zmień", "do zmiany", "patrz", "zobacz",
           "nieznane", "puste", "brak", "zapytaj", "nie ustawione", "do ustalenia"),
    "cs": ("prosím", "prosim", "změnit", "změňte", "viz", "neznámé", "prázdné", "žádné", "zeptat",
           "nenastaveno"),
    "sk": ("prosím", "zmeniť", "zmeňte", "pozri", "neznáme", "prázdne", "žiadne", "opýtať"),
    "hu": ("kérem", "kérlek", "változtasd", "módosítsd", "lásd", "ismeretlen", "üres", "nincs",
           "kérdezd"),
    "tr": ("lütfen", "değiştir", "değiştirin", "bakınız", "bkz", "bilinmiyor", "boş", "yok",
           "sorun", "belirlenecek"),
    "ru": ("пожалуйста", "измените", "сменить", "поменять", "см.", "смотри", "неизвестен",
           "пусто", "нет", "спросить", "не задан", "уточнить"),
    "zh": ("请修改", "请更改", "请设置", "待定", "见", "参见", "未知", "空", "无", "未设置", "询问"),
    "ja": ("変更してください", "変更", "未定", "参照", "不明", "なし", "未設定", "要確認"),
    "ko": ("변경하세요", "변경", "미정", "참조", "알 수 없음", "없음", "미설정", "문의"),
}
PHRASES: tuple[str, ...] = tuple(sorted({p for ps in PHRASES_BY_LANGUAGE.values() for p in ps}, key=len, reverse=True))
# By first character: a value is compared with the few phrases that can begin it.
_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _p in PHRASES:
    _BY_FIRST[_p[0]] = (*_BY_FIRST.get(_p[0], ()), _p)
_LEADING = " \t*_`\"'“‘«「("
_ENDS = ".,;:!?)]}…。，、！？：»」"


def _ends_word(text: str, i: int, phrase: str) -> bool:
    """The phrase ends where its last word does: the end, a space or a sentence mark (a
    phrase written in CJK may run on into more of the same script: 请修改为新的)."""
    if i >= len(text):
        return True
    c = text[i]
    if c.isspace() or c in _ENDS:
        return True
    return _unspaced(phrase[-1]) and _unspaced(c)


def _unspaced(c: str) -> bool:
    """A letter of a script written without spaces between words (Chinese, Japanese; Korean
    phrases are listed whole)."""
    return c.isalpha() and not c.isascii() and c > "\u2e7f"


def is_placeholder(value: str) -> bool:
    """Does a value (what follows a password's label, up to the end of its line) begin with
    a placeholder phrase of one of the languages above?"""
    v = value.lstrip(_LEADING)[:40].lower()
    if not v:
        return False
    for phrase in _BY_FIRST.get(v[0], ()):
        if v.startswith(phrase) and _ends_word(v, len(phrase), phrase):
            return True
    return False
