"""Identity, health-insurance and bank numbers, found by their own structure and a label.

A personal number on an HR form, a health card number in an insurer's letter, an account
number in a refund mail: none is a credential, but each opens accounts or records in the
person's name (docs/privacy.md, "Identity numbers are secret"). They are bare digits, and so
are order, invoice, phone and tracking numbers, so a number is only taken when

* a label in the document names what it is ("PESEL", "AHV-Nr.", "NHS No", "身份证号码",
  "Versichertennummer", "Sort code"), on its line before it, alone on the line above it, or
  as its column's header in a CSV sheet or a table, and the number has the shape of a format
  that label names (length, letters, date of birth); a short label that is also a word or an
  abbreviation of something else ("CF", "SIN", "PAN", "RUT", "ABA") also needs the format's
  check digit to hold; or
* no label is needed because the format checks itself and its shape is its own: a Swiss AHV
  number written 756.xxxx.xxxx.xx (EAN-13 check), an Italian codice fiscale (a check letter
  over 15 characters in a fixed pattern), a Mexican CURP.

A number under an order, invoice, customer, phone or tracking label is never taken, even
when a national-ID label stands earlier on the line. Check digits are computed here from
each format's published rule; tests/redteam/round4_make.py builds its numbers independently.

The search starts from digits, not from the labels (there are ~200 of them in 25 languages
and each absent word would cost a scan of the text): runs of five or more digits are found at
C speed, and only the 80 characters before each run, the line above it or its column's
header are matched against the labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol


class Scan(Protocol):
    """What the detectors here use of rules.Scan (rules imports this module, not the other
    way round): the text, its lowercase copy, and where to put what is found."""

    text: str
    low: str

    def add(self, start: int, end: int, kind: str) -> None: ...

# -- check digits -----------------------------------------------------------------------


def luhn(d: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(d)):
        n = int(c)
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def _weighted(d: str, weights: list[int]) -> int:
    return sum(int(c) * w for c, w in zip(d, weights, strict=False))


def mod11_10(d: str) -> bool:
    """ISO 7064 MOD 11,10 over all digits (Croatian OIB, German Steuer-ID)."""
    p = 10
    for c in d[:-1]:
        s = (int(c) + p) % 10 or 10
        p = (s * 2) % 11
    return (11 - p) % 10 == int(d[-1])


def _date_ok(yy: int, mm: int, dd: int) -> bool:
    return 1 <= mm <= 12 and 1 <= dd <= 31


def pesel_ok(d: str) -> bool:
    mm = int(d[2:4]) % 20
    return _date_ok(0, mm, int(d[4:6])) and (10 - _weighted(d, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10) % 10 == int(d[10])


def rodne_cislo_ok(d: str) -> bool:
    if len(d) != 10:
        return False
    mm = int(d[2:4])
    mm = mm - 50 if mm > 50 else mm
    mm = mm - 20 if mm > 20 else mm
    return _date_ok(0, mm, int(d[4:6])) and (int(d) % 11 == 0 or (int(d[:9]) % 11 == 10 and d[9] == "0"))


def ean13_ok(d: str) -> bool:
    return sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d)) % 10 == 0


def svnr_ok(d: str) -> bool:
    if d[0] == "0" or not _date_ok(0, int(d[6:8]), int(d[4:6])) and d[6:8] not in ("13", "14", "15", "16", "17", "18"):
        return False
    c = _weighted(d[:3] + d[4:], [3, 7, 9, 5, 8, 4, 2, 1, 6]) % 11
    return c == int(d[3])


def bsn_ok(d: str) -> bool:
    d = d.zfill(9)
    return len(d) == 9 and (_weighted(d[:8], [9, 8, 7, 6, 5, 4, 3, 2]) - int(d[8])) % 11 == 0 and d != "000000000"


def belgian_number_ok(d: str) -> bool:
    body, check = int(d[:9]), int(d[9:])
    return (97 - body % 97 == check or 97 - (2000000000 + body) % 97 == check) and (int(d[2:4]) <= 12)


def nir_ok(d: str) -> bool:
    body = d[:13].replace("2A", "19").replace("2B", "18")
    return d[0] in "12378" and body.isdigit() and 97 - int(body) % 97 == int(d[13:])


_CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def codice_fiscale_ok(d: str) -> bool:
    s = 0
    for i, c in enumerate(d[:15]):
        v = int(c) if c.isdigit() else ord(c) - 65
        s += _CF_ODD[v] if i % 2 == 0 else v
    return chr(65 + s % 26) == d[15]


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni_ok(d: str) -> bool:
    n = d[:-1]
    if n[0] in "XYZ":
        n = str("XYZ".index(n[0])) + n[1:]
    return n.isdigit() and _DNI_LETTERS[int(n) % 23] == d[-1]


def nif_pt_ok(d: str) -> bool:
    c = 11 - _weighted(d[:8], [9, 8, 7, 6, 5, 4, 3, 2]) % 11
    return d[0] in "1235689" and (0 if c >= 10 else c) == int(d[8])


def pps_ok(d: str) -> bool:
    s = _weighted(d[:7], [8, 7, 6, 5, 4, 3, 2])
    if len(d) == 9 and d[8] != "W":
        s += (ord(d[8]) - 64) * 9
    return "WABCDEFGHIJKLMNOPQRSTUV"[s % 23] == d[7]


def personnummer_ok(d: str) -> bool:
    d = d[-10:]
    return _date_ok(0, int(d[2:4]), int(d[4:6]) % 60) and luhn(d)


def fodselsnummer_ok(d: str) -> bool:
    if not _date_ok(0, int(d[2:4]) % 40, int(d[:2]) % 40):
        return False
    k1 = 11 - _weighted(d, [3, 7, 6, 1, 8, 9, 4, 5, 2]) % 11
    k2 = 11 - _weighted(d, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
    return (k1 % 11) == int(d[9]) and (k2 % 11) == int(d[10])


def cpr_ok(d: str) -> bool:
    return _date_ok(0, int(d[2:4]), int(d[:2]))  # the modulus-11 check was given up in 2007


_HETU = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def hetu_ok(d: str) -> bool:
    """On the compact value: the century sign is a letter or `+`, or was a dash (taken out)."""
    return _date_ok(0, int(d[2:4]), int(d[:2])) and d[-4:-1].isdigit() and _HETU[int(d[:6] + d[-4:-1]) % 31] == d[-1]


def isikukood_ok(d: str) -> bool:
    if d[0] not in "123456" or not _date_ok(0, int(d[3:5]), int(d[5:7])):
        return False
    r = _weighted(d, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11
    if r == 10:
        r = _weighted(d, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11 % 10
    return r == int(d[10])


def cnp_ok(d: str) -> bool:
    c = _weighted(d, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11
    return d[0] != "0" and _date_ok(0, int(d[3:5]), int(d[5:7])) and (1 if c == 10 else c) == int(d[12])


def egn_ok(d: str) -> bool:
    c = _weighted(d, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11
    return _date_ok(0, int(d[2:4]) % 20, int(d[4:6])) and c % 10 == int(d[9])


def emso_ok(d: str) -> bool:
    k = 11 - _weighted(d, [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
    return _date_ok(0, int(d[2:4]), int(d[:2])) and k != 10 and k % 11 == int(d[12])


def amka_ok(d: str) -> bool:
    return _date_ok(0, int(d[2:4]), int(d[:2])) and luhn(d)


def tckn_ok(d: str) -> bool:
    n = [int(c) for c in d]
    return n[0] != 0 and ((n[0] + n[2] + n[4] + n[6] + n[8]) * 7 - (n[1] + n[3] + n[5] + n[7])) % 10 == n[9] \
        and sum(n[:10]) % 10 == n[10]


def cpf_ok(d: str) -> bool:
    n = [int(c) for c in d]
    if len(set(n)) == 1:
        return False
    for k in (9, 10):
        if sum(x * (k + 1 - i) for i, x in enumerate(n[:k])) * 10 % 11 % 10 != n[k]:
            return False
    return True


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp_ok(d: str) -> bool:
    s = sum(_CURP_CHARS.index(c) * (18 - i) for i, c in enumerate(d[:17]))
    return _date_ok(0, int(d[6:8]), int(d[8:10])) and (10 - s % 10) % 10 == int(d[17])


def cuil_ok(d: str) -> bool:
    c = 11 - _weighted(d, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
    return d[:2] in ("20", "23", "24", "27", "30", "33", "34") and c != 10 and c % 11 == int(d[10])


def rut_ok(d: str) -> bool:
    s, w = 0, 2
    for c in reversed(d[:-1]):
        s += int(c) * w
        w = 2 if w == 7 else w + 1
    c = 11 - s % 11
    return ("0" if c == 11 else "K" if c == 10 else str(c)) == d[-1]


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
       [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]


def verhoeff_ok(d: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(d)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def china_id_ok(d: str) -> bool:
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    c = (12 - _weighted(d, w) % 11) % 11
    return 1900 <= int(d[6:10]) <= 2030 and _date_ok(0, int(d[10:12]), int(d[12:14])) and ("X" if c == 10 else str(c)) == d[17]


def my_number_ok(d: str) -> bool:
    s = sum(int(d[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12))
    r = s % 11
    return (0 if r <= 1 else 11 - r) == int(d[11])


def rrn_ok(d: str) -> bool:
    return _date_ok(0, int(d[2:4]), int(d[4:6])) and d[6] in "12345678"  # numbers since 2020 carry no check digit


def za_id_ok(d: str) -> bool:
    return _date_ok(0, int(d[2:4]), int(d[4:6])) and d[10] in "01" and luhn(d)


def tfn_ok(d: str) -> bool:
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10] if len(d) == 9 else [10, 7, 8, 4, 6, 3, 5, 1]
    return _weighted(d, w) % 11 == 0


def sin_ok(d: str) -> bool:
    return d[0] not in "08" and luhn(d)


def ssn_ok(d: str) -> bool:
    return d[:3] not in ("000", "666") and d[3:5] != "00" and d[5:] != "0000"


def nhs_ok(d: str) -> bool:
    c = 11 - _weighted(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11
    return c != 10 and c % 11 == int(d[9])


def kvnr_ok(d: str) -> bool:
    s = f"{ord(d[0]) - 64:02d}" + d[1:9]
    total = 0
    for i, c in enumerate(s):
        p = int(c) * (1 if i % 2 == 0 else 2)
        total += p // 10 + p % 10
    return total % 10 == int(d[9])


def au_medicare_ok(d: str) -> bool:
    return d[0] in "23456" and _weighted(d, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 == int(d[8])


def bc_phn_ok(d: str) -> bool:
    s = sum((int(x) * w) % 11 for x, w in zip(d[1:9], [2, 4, 8, 5, 10, 9, 7, 3], strict=True))
    return d[0] == "9" and 11 - s % 11 == int(d[9])


def aba_ok(d: str) -> bool:
    return _weighted(d, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 == 0 and d[:2] != "00"


# -- formats: a shape on the compact value (separators taken out) and a check ------------

Check = Callable[[str], bool]
_MBI = r"[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d[AC-HJKMNP-RT-Y]{2}\d{2}"
FORMATS: dict[str, tuple[re.Pattern[str], Check | None]] = {name: (re.compile(shape), check) for name, shape, check in (
    ("pesel", r"\d{11}", pesel_ok),
    ("rodne_cislo", r"\d{9,10}", rodne_cislo_ok),
    ("ahv", r"756\d{10}", ean13_ok),
    ("svnr", r"\d{10}", svnr_ok),
    ("bsn", r"\d{8,9}", bsn_ok),
    ("be_nn", r"\d{11}", belgian_number_ok),
    ("nir", r"[1-478][\dAB]\d{11}\d{2}|[1-478]\d{14}", nir_ok),
    ("codice_fiscale", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", codice_fiscale_ok),
    ("dni", r"\d{8}[A-Z]|[XYZ]\d{7}[A-Z]", dni_ok),
    ("nif_pt", r"\d{9}", nif_pt_ok),
    ("steuer_id", r"[1-9]\d{10}", mod11_10),
    ("nino", r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]?", None),
    ("pps", r"\d{7}[A-W][A-IW]?", pps_ok),
    ("personnummer", r"(?:19|20)?\d{10}", personnummer_ok),
    ("fodselsnummer", r"\d{11}", fodselsnummer_ok),
    ("cpr", r"\d{10}", cpr_ok),
    ("hetu", r"\d{6}[+A-FU-Y]?\d{3}[\dA-Y]", hetu_ok),
    ("isikukood", r"[1-6]\d{10}", isikukood_ok),
    ("cnp", r"[1-9]\d{12}", cnp_ok),
    ("egn", r"\d{10}", egn_ok),
    ("oib", r"\d{11}", mod11_10),
    ("emso", r"\d{13}", emso_ok),
    ("amka", r"\d{11}", amka_ok),
    ("tckn", r"[1-9]\d{10}", tckn_ok),
    ("teudat_zehut", r"\d{5,9}", lambda d: luhn(d.zfill(9))),
    ("cpf", r"\d{11}", cpf_ok),
    ("curp", r"[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z\d]\d", curp_ok),
    ("ar_dni", r"\d{7,8}", None),
    ("cuil", r"\d{11}", cuil_ok),
    ("rut", r"\d{7,8}[\dK]", rut_ok),
    ("aadhaar", r"[2-9]\d{11}", verhoeff_ok),
    ("pan", r"[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]", None),
    ("china_id", r"\d{17}[\dX]", china_id_ok),
    ("my_number", r"\d{12}", my_number_ok),
    ("rrn", r"\d{6}[1-8]\d{6}", rrn_ok),
    ("za_id", r"\d{13}", za_id_ok),
    ("tfn", r"\d{8,9}", tfn_ok),
    ("sin", r"\d{9}", sin_ok),
    ("ssn", r"(?!9)\d{9}", ssn_ok),
    ("itin", r"9\d{2}(?:5\d|6[0-5]|7\d|8[0-8]|9[0-24-9])\d{4}", None),
    ("nhs", r"\d{10}", nhs_ok),
    ("kvnr", r"[A-Z]\d{9}", kvnr_ok),
    ("ehic", r"80\d{18}", None),
    ("mbi", _MBI, None),
    ("au_medicare", r"[2-6]\d{9,10}", au_medicare_ok),
    ("ohip", r"\d{10}[A-Z]{0,2}", lambda d: luhn(d[:10])),
    ("bc_phn", r"9\d{9}", bc_phn_ok),
    ("ramq", r"[A-Z]{4}\d{8}", None),
    ("aba", r"\d{9}", aba_ok),
    ("sort_code", r"\d{6}", None),
    ("bsb", r"\d{6}", None),
    # A number the label alone makes secret (a member, policy or account number has no
    # public structure): 5-24 letters and digits, five digits at least.
    ("labelled", r"(?=(?:[A-Z]*\d){5})[A-Z\d]{5,24}", None),
    ("account", r"\d{6,30}", None),
    ("card", r"\d{12,19}", luhn),
)}

# -- labels ------------------------------------------------------------------------------
# Label (lowercase; a space stands for any run of spaces, `_`, `-` or `.`) -> the formats it
# names. A `~` marks a short label that is also an ordinary word or another abbreviation:
# a number after it needs the format's check digit to hold, where the format has one.
_LABELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # identity, social security and tax numbers
    ("pesel|numer pesel|nr pesel", ("pesel",)),
    ("rodné číslo|rodne cislo|rodného čísla|~r.č.|~rč", ("rodne_cislo",)),
    ("číslo pojištěnce|cislo pojistence|číslo poistenca|číslo pojištěného", ("rodne_cislo", "labelled")),
    ("ahv-nr|ahv-nummer|ahv nr|ahv nummer|~ahv|n° avs|no avs|numéro avs|~avs|sozialversicherungsnummer"
     "|numero avs|sv-nummer|sv-nr|~svnr|sv nummer|versicherungsnummer|versicherungsnr|sozialversicherungs-nr",
     ("ahv", "svnr", "labelled")),
    ("burgerservicenummer|~bsn|sofinummer|sofi-nummer", ("bsn",)),
    ("numéro de registre national|registre national|rijksregisternummer|rijksregister|numéro national|~niss|~insz"
     "|national number|numéro niss|insz-nummer", ("be_nn",)),
    ("numéro de sécurité sociale|n° de sécurité sociale|no de sécurité sociale|sécurité sociale|securite sociale"
     "|numéro de sécu|n° de sécu|n° sécu|~sécu"
     "|~nir|numéro vitale|carte vitale|numéro d'identification personnel|numéro d'inscription au répertoire",
     ("nir", "labelled")),
    ("codice fiscale|~cf|~c.f.", ("codice_fiscale",)),
    ("~dni|documento nacional de identidad|número de dni|nº dni", ("dni", "ar_dni")),
    ("~nie|número de identidad de extranjero", ("dni",)),
    ("~nif|número de contribuinte|numero de contribuinte|contribuinte|número de identificação fiscal", ("nif_pt", "dni")),
    ("steuer-id|steuerid|steuer-idnr|steuer-identifikationsnummer|steueridentifikationsnummer"
     "|steuerliche identifikationsnummer|identifikationsnummer|~idnr|steuer-ident-nr", ("steuer_id",)),
    ("national insurance number|national insurance no|ni number|ni no|~nino|ni-nummer", ("nino",)),
    ("pps number|ppsn|pps no|personal public service number|~pps", ("pps",)),
    ("personnummer|personnr|person-nr|personnummeret", ("personnummer", "fodselsnummer", "cpr")),
    ("fødselsnummer|fødselsnr|fodselsnummer|~f.nr", ("fodselsnummer",)),
    ("cpr-nr|cpr-nummer|cpr nr|~cpr", ("cpr",)),
    ("henkilötunnus|henkilotunnus|~hetu|~sotu|personbeteckning", ("hetu",)),
    ("isikukood|asmens kodas|personas kods", ("isikukood",)),
    ("~cnp|cod numeric personal", ("cnp",)),
    ("егн|~egn|единен граждански номер", ("egn",)),
    ("~oib|osobni identifikacijski broj", ("oib",)),
    ("emšo|~emso|enotna matična številka", ("emso",)),
    ("αμκα|~amka|α.μ.κ.α.", ("amka",)),
    ("t.c. kimlik no|tc kimlik no|t.c. kimlik|tc kimlik|kimlik no|kimlik numarası|kimlik numaranı|kimlik numaram"
     "|kimlik numarasi|~tckn|t.c. no", ("tckn",)),
    ("מספר זהות|ת.ז.|ת\"ז|תעודת זהות|teudat zehut", ("teudat_zehut",)),
    ("~cpf|cadastro de pessoas físicas", ("cpf",)),
    ("~curp|clave única de registro de población", ("curp",)),
    ("~cuil|~cuit", ("cuil",)),
    ("~rut|~run|rol único tributario", ("rut",)),
    ("aadhaar|aadhar|आधार|uidai", ("aadhaar",)),
    ("~pan|pan no|pan number|permanent account number", ("pan",)),
    ("身份证号码|身份证号|身份证|公民身份号码|身分證字號", ("china_id",)),
    ("マイナンバー|個人番号", ("my_number",)),
    ("주민등록번호|주민번호", ("rrn",)),
    ("id number|identity number|identification number|national id|national identity number|id no|id-nr"
     "|identity no|citizen id|personal number|personal id|personal identity number", ("za_id", "labelled")),
    ("tax file number|~tfn", ("tfn",)),
    ("social insurance number|numéro d'assurance sociale|~sin|~nas", ("sin",)),
    ("social security number|social security no|social security #|soc sec no|~ssn|social security|~social", ("ssn", "itin")),
    ("~itin|individual taxpayer identification number", ("itin",)),
    # health and insurance numbers
    ("nhs number|nhs no|~nhs|nhs-nummer", ("nhs",)),
    ("krankenversichertennummer|versichertennummer|versicherten-nr|versichertennr|~kvnr|krankenversicherungsnummer"
     "|persönliche kennnummer", ("kvnr", "labelled")),
    ("kennnummer der karte|card identification number|identification number of the card"
     "|numéro d'identification de la carte|numero di identificazione della tessera|identifikační číslo průkazu"
     "|identifikační číslo karty|číslo průkazu|numer identyfikacyjny karty|numer karty ekuz|ekuz|card identification"
     "|número de identificación de la tarjeta|~ehic|ehic number|ehic-nummer", ("ehic", "labelled")),
    ("medicare number|medicare card number|medicare no|medicare #|medicare id|~mbi|medicare beneficiary identifier"
     "|medicare card", ("mbi", "au_medicare", "labelled")),
    ("medicaid id|medicaid number|medicaid #|medicaid no|medi-cal id|member id|member number|member #|member no"
     "|subscriber id|subscriber number|subscriber #|group number|group #|group no|policy number|policy no|policy #"
     "|policyholder id|polisnummer|numer polisy|nr polisy|numero di polizza|numero polizza|número de póliza"
     "|n° de police|numéro de police|versicherungsschein-nr|versicherungsscheinnummer|versicherungsschein nr"
     "|polizzennummer|polizzen-nr|försäkringsnummer|forsikringsnummer|forsikringsnr|vakuutusnumero|číslo pojistky"
     "|číslo pojistné smlouvy|n° d'affiliation|numéro d'affiliation|nº d'affiliation|adhérent n°|numéro d'adhérent"
     "|n° adhérent|número de afiliado|nº de afiliado|número de afiliación|nº afiliación|numero di tessera"
     "|health card number|health card no|health card|personal health number|~phn|numéro d'assurance maladie"
     "|~cipa|código de identificación|tarjeta sanitaria|número de tarjeta sanitaria|tessera sanitaria"
     "|karta ubezpieczenia|versichertenkarte|verzekerdennummer|保険者番号|被保険者番号|記号番号"
     "|건강보험증번호|保险卡号|医保卡号|社保卡号", ("labelled",)),
    ("health insurance number|insurance number|insurance no|insurance id|numer ubezpieczenia|numero assicurato"
     "|número de seguro|número da apólice|apólice", ("labelled",)),
    # bank details
    ("sort code|sortcode", ("sort_code",)),
    ("account number|account no|account #|acct no|acct #|a/c no|kontonummer|konto-nr|kontonr|číslo účtu|cislo uctu"
     "|nr rachunku|numer rachunku|nr konta|numer konta|numéro de compte|n° de compte|número de cuenta|nº de cuenta"
     "|numero di conto|numero conto|rekeningnummer|tilinumero|bankkonto|účet|konto", ("account",)),
    ("routing number|routing no|routing #|~routing|~aba|aba routing|~rtn|transit number", ("aba",)),
    ("ohip|ohip number|ohip no|ohip #|health number|numéro d'assurance-maladie", ("ohip", "labelled")),
    ("~acct|~acc|acc no|acc #|~a/c", ("account",)),
    ("~sort", ("sort_code",)),
    ("~bsb|bsb number", ("bsb",)),
    ("card number|card no|card #|kartennummer|kreditkartennummer|numer karty|číslo karty|numéro de carte"
     "|número de tarjeta|numero di carta|numero carta|kaartnummer|kortnummer|cc number|~card|~karte|~cc", ("card",)),
)
LABEL_FORMATS: dict[str, tuple[str, ...]] = {}
WEAK_LABELS: set[str] = set()
for _words, _formats in _LABELS:
    for _w in _words.split("|"):
        _key = re.sub(r"[ _.\-]+", " ", _w.lstrip("~")).strip()
        LABEL_FORMATS[_key] = (*LABEL_FORMATS.get(_key, ()), *_formats)
        if _w.startswith("~"):
            WEAK_LABELS.add(_key)


def _word_rx(part: str) -> str:
    """A label's word; a short abbreviation may be written with dots (N.I., S.S.N.)."""
    if len(part) <= 4 and part.isascii() and part.isalpha():
        return r"\.?".join(re.escape(c) for c in part)
    return re.escape(part)


def _label_rx(words: list[str]) -> str:
    """One alternation of all labels, longest first, grouped by their first character: the
    regex engine then tries ~40 branches at a position instead of ~340 (5x faster)."""
    groups: dict[str, list[str]] = {}
    for w in sorted(words, key=len, reverse=True):
        piece = (r"[ \t_.\-]*".join(_word_rx(p) for p in re.split(r"[ _.\-]+", w) if p)
                 + (r"\.?" if w.endswith(".") else ""))
        first = piece[:2] if piece.startswith("\\") else piece[:1]
        groups.setdefault(first, []).append(piece[len(first) :])
    return "|".join(first + "(?:" + "|".join(rest) + ")" for first, rest in groups.items())


_SEP_CHARS = r"[ \t_.\-]"
# A label: not the end or the start of a longer word (ASCII and Latin letters around it).
_LABEL = re.compile(r"(?<![a-zà-ÿ0-9\-])(?:" + _label_rx([re.sub(r"[.]+$", "", w) or w for w in LABEL_FORMATS]) + r")(?![a-zà-ÿ])")
# Words that say the number is something else: an order, invoice, customer, ticket or phone number.
_NOT_ID = re.compile(
    r"order|bestell|rechnung|invoice|kunden|customer|client|tracking|sendung|auftrag|ticket|telefon|phone|\btel\b|fax|mobil"
    r"|handy|zamówien|faktur|pedido|commande|facture|fattura|ordine|factuur|objednáv|sipariş|заказ|订单|注文|주문|vorgang"
    r"|aktenzeichen|referen|\bref\b|hotline|service|iban|bic|blz|swift|datum|date|fecha|gültig|valid|expir|ablauf|vom\b|from\b"
    r"|artikel|article|sku|ean|isbn|serial|serien|imei|version|build|room|zimmer|amount|betrag|summe|total|preis|price"
    r"|e\.g\.|z\.[ ]?b\.|example|beispiel|exemple|ejemplo|esempio|przykład|příklad|format|looks like|such as|sample|muster")
_GAP_MAX = 45  # characters between a label and its number
PLACEHOLDER = "[redacted:"  # a label's word inside a placeholder ("[REDACTED:ID_NUMBER]") names nothing


def _normal(label: str) -> str:
    return re.sub(r"[ \t_.\-]+", " ", label).strip()


# Short labels that are ordinary words elsewhere ("sort", "acc"): only in a text about a bank.
NEEDS_BANK_CONTEXT = frozenset({"sort", "acc", "a/c", "social"})
_BANK_CONTEXT = re.compile(r"bank|iban|account|konto|barclays|hsbc|lloyds|natwest|santander|monzo|revolut|sort code|payroll"
                           r"|mortgage|loan|deposit|transfer|wire|social security|tax|salary")
CONTEXT_REACH = 300


def label_formats(label: str) -> tuple[tuple[str, ...], bool]:
    """The formats a matched label names, and whether it is a weak (short) one."""
    key = _normal(label)
    if key not in LABEL_FORMATS:
        key = _normal(label.rstrip("."))
    if key not in LABEL_FORMATS:  # n.i. number -> ni number
        key = _normal(re.sub(r"\b(\w)\.(?=\w)", r"\1", label))
    return LABEL_FORMATS.get(key, ()), key in WEAK_LABELS


def _last_label(low: str, start: int, end: int) -> re.Match[str] | None:
    last = None
    for m in _LABEL.finditer(low, start, end):
        last = m
    return last


# -- finding the numbers -----------------------------------------------------------------

# Five or more digits, maybe in groups (a space, dot, slash or dash between them).
_DIGIT_RUN = re.compile(r"\d(?:[ ./\-]?\d){4,39}")  # at most 40 digits: no format is longer (and a run of 10,000 would be read whole)
_GROUP = re.compile(r"[A-Z0-9]{1,24}")
_EDGE_SEP = re.compile(r"[ ./\-]")
# Formats that hold few digits in a row, found by their letters: codice fiscale, CURP, PAN,
# a Medicare MBI (maybe with dashes).
_LETTER_IDS = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]|[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z\d]\d"
    r"|[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]|[1-9][A-Z][A-Z\d]\d-?[A-Z][A-Z\d]\d-?[A-Z]{2}\d{2})(?![A-Za-z0-9])")
_DELIMS = (",", ";", "\t", "|")
HEADER_REACH_LINES = 200  # rows under a header that are read as its table's
MAX_ROW_CHARS = 2000  # a longer line is no row of a sheet


def _groups(text: str, start: int, end: int, line_start: int, line_end: int) -> list[tuple[int, int]]:
    """The digit run's groups and up to two groups of capitals and digits on either side
    (AB 12 34 56 C, ABCD 1234 5678, 8001015009087, 12345678Z)."""
    while start > line_start and ("A" <= text[start - 1] <= "Z"):
        start -= 1  # X1234567L, A123456789
    while end < line_end and (text[end].isdigit() or "A" <= text[end] <= "Z"):
        end += 1
    out = [(m.start(), m.end()) for m in _GROUP.finditer(text, start, end)]
    for _ in range(2):
        a = out[0][0]
        if a - 2 >= line_start and _EDGE_SEP.match(text, a - 1) and (m := re.search(r"[A-Z0-9]{1,6}$", text[max(line_start, a - 8) : a - 1])):
            s = a - 1 - len(m.group(0))
            if s == line_start or not text[s - 1].isalnum():
                out.insert(0, (s, a - 1))
    for _ in range(2):
        b = out[-1][1]
        if b + 1 < line_end and _EDGE_SEP.match(text, b) and (m := re.compile(r"[A-Z0-9]{1,6}").match(text, b + 1, min(line_end, b + 7))):
            if m.end() == line_end or not text[m.end()].isalnum():
                out.append((m.start(), m.end()))
    return out


def _matches(compact: str, formats: tuple[str, ...], weak: bool) -> bool:
    for f in formats:
        shape, check = FORMATS[f]
        if shape.fullmatch(compact) and (check is None or check(compact) or (not weak and f not in _ALWAYS_CHECKED)):
            return True
    return False


# Formats checked even under a strong label: a card number is only one when Luhn holds.
_ALWAYS_CHECKED = frozenset({"card", "aba", "codice_fiscale", "curp"})


MAX_GROUPS = 9  # groups of one number at most (NIR: 1 85 05 78 006 084 36 is seven)


def _best_window(text: str, groups: list[tuple[int, int]], formats: tuple[str, ...], weak: bool,
                 core: tuple[int, int]) -> tuple[int, int] | None:
    """The longest run of whole groups, holding the digit run's start, that is one of the formats."""
    n = len(groups)
    for size in range(min(n, MAX_GROUPS), 0, -1):
        for i in range(n - size + 1):
            a, b = groups[i][0], groups[i + size - 1][1]
            if a > core[0] or b <= core[0]:
                continue
            compact = "".join(text[x:y] for x, y in groups[i : i + size])
            if len(compact) <= 34 and _matches(compact, formats, weak):
                return a, b
    return None


def _cell_index(text: str, line_start: int, line_end: int, pos: int, delim: str) -> int:
    return text.count(delim, line_start, pos)


HeaderCache = dict[tuple[int, str, int], "tuple[int, int] | None"]


def _header_label(scan: Scan, line_start: int, pos: int, cache: HeaderCache) -> re.Match[str] | None:
    """The label of a delimited row's column, from the header at the top of its table (the
    header found for the row above is the cache's: a sheet of 10,000 rows is read once)."""
    text, low = scan.text, scan.low
    line_end = text.find("\n", pos)
    line_end = len(text) if line_end < 0 else line_end
    if line_end - line_start > MAX_ROW_CHARS:
        return None  # not a sheet's row (and counting its cells for each number would be quadratic)
    for delim in _DELIMS:
        if text.find(delim, line_start, line_end) < 0:
            continue
        count = text.count(delim, line_start, line_end)
        idx = _cell_index(text, line_start, line_end, pos, delim)
        header = None
        a = line_start
        for _ in range(HEADER_REACH_LINES):
            if a == 0:
                break
            prev = text.rfind("\n", 0, a - 1) + 1
            if (prev, delim, count) in cache:
                header = cache[(prev, delim, count)] or header
                break
            line = text[prev : a - 1]
            if not line.strip() or line.count(delim) != count:
                break
            if not re.fullmatch(r"[\s|:+\-=]*", line):
                header = (prev, a - 1)
            a = prev
        cache[(line_start, delim, count)] = header
        if header is None:
            continue
        cells = text[header[0] : header[1]].split(delim)
        if idx < len(cells) and not _DIGIT_RUN.search(text, header[0], header[1]):
            cell_start = header[0] + sum(len(c) + 1 for c in cells[:idx])
            m = _last_label(low, cell_start, cell_start + len(cells[idx]))
            if m is not None:
                return m
    return None


def _labels_before(scan: Scan, line_start: int, pos: int, groups_from: int) -> list[re.Match[str]]:
    """Labels on the number's line before it, nearest first (a later one may be a word like
    "e-card" between the label and its number), or one alone on the line above when the
    number starts its line (maybe after a word and a colon: "Gerne: ...")."""
    low = scan.low
    found = [m for m in _LABEL.finditer(low, max(line_start, pos - 80), pos)
             if (m.end() <= groups_from or m.end() <= pos) and low.rfind(PLACEHOLDER, max(0, m.start() - 12), m.start()) < 0]
    out = []
    for m in reversed(found[-3:]):
        gap = low[m.end() : groups_from] if m.end() <= groups_from else ""
        if len(gap) <= _GAP_MAX and not any(c.isdigit() for c in gap) and not _NOT_ID.search(gap):
            out.append(m)
    if found:
        return out
    m = _label_above(scan, line_start, groups_from)
    return [m] if m is not None else []


# Before a value that answers the line above: a bullet, a word and a colon ("Gerne:"), a chat
# line's time and speaker ("[14:03] Murat:", "12.01.26, 09:14 - Jonas:").
_BULLET = re.compile(r"[ \t\-*•>|]*")
_CHAT_PREFIX = r"(?:\[[\d:. ,/\-]{4,22}\][ \t]*|\d{1,2}[./]\d{1,2}[./]\d{2,4},?[ \t]+\d{1,2}:\d{2}[ \t]*[-–][ \t]*)"
_WORD_COLON = r"[^\W\d_][^\W\d_ ]{0,11}(?:[ \t][^\W\d_]{1,12})?[ \t]*[:：][ \t]*"
# A chat line's time and speaker ("[14:03] Murat:", "12.01.26, 09:14 - Jonas:"), and a short
# reply word ("Gerne:") under a quoted request or a question.
_CHAT_LEAD = re.compile(r"[ \t\-*•>|]*" + _CHAT_PREFIX + r"(?:" + _WORD_COLON + r")?")
_REPLY_LEAD = re.compile(r"[ \t\-*•>|]*" + _WORD_COLON)


def _label_above(scan: Scan, line_start: int, pos: int) -> re.Match[str] | None:
    """A label alone on the line above a number that starts its line, or above a chat reply,
    or above a short reply to a quoted request ("> Bitte um Ihre SV-Nummer" / "Gerne: ...").
    Not above "Číslo OP: ..." when the label's own field was left empty: that line names its
    own number."""
    low = scan.low
    if line_start == 0:
        return None
    plain = _BULLET.fullmatch(low, line_start, pos) is not None
    chat = not plain and _CHAT_LEAD.fullmatch(low, line_start, pos) is not None
    reply = not plain and not chat and _REPLY_LEAD.fullmatch(low, line_start, pos) is not None
    if not (plain or chat or reply):
        return None
    prev_end = line_start - 1
    prev = low.rfind("\n", 0, prev_end) + 1
    if not low[prev:prev_end].strip() and prev > 0:  # one blank line may stand between
        prev_end = prev - 1
        prev = low.rfind("\n", 0, prev_end) + 1
    if prev_end - prev > 60 or PLACEHOLDER in low[prev:prev_end]:
        return None
    if reply and not (low[prev:prev_end].lstrip().startswith(">") or low[prev:prev_end].rstrip().endswith("?")):
        return None
    m = _last_label(low, prev, prev_end)
    if m is not None and len(low[m.end() : prev_end].strip(" \t:：-—()?")) <= 12 and not _DIGIT_RUN.search(low, prev, prev_end):
        return m
    return None


def _labels_of(scan: Scan, line_start: int, pos: int, groups_from: int, cache: HeaderCache) -> list[re.Match[str]]:
    got = _labels_before(scan, line_start, pos, groups_from)
    if not got and (h := _header_label(scan, line_start, groups_from, cache)) is not None:
        got = [h]
    return got


def _id_cluster(scan: Scan, s: int, e: int, cache: HeaderCache) -> None:
    """A run of five or more digits: an identity, health or bank number when a label names it."""
    text = scan.text
    if s and (text[s - 1] in "+_" or "a" <= text[s - 1] <= "z") or (e < len(text) and ("a" <= text[e] <= "z" or text[e] == "_")):
        return  # a phone number (+48 ...), an identifier in code
    line_start = text.rfind("\n", 0, s) + 1
    line_end = text.find("\n", e)
    line_end = len(text) if line_end < 0 else line_end
    groups = _groups(text, s, e, line_start, line_end)
    core = next(g for g in groups if g[0] <= s < g[1])
    for label in _labels_of(scan, line_start, core[0], groups[0][0], cache):
        formats, weak = label_formats(label.group(0))
        if _normal(label.group(0)) in NEEDS_BANK_CONTEXT and not _BANK_CONTEXT.search(
                scan.low, max(0, s - CONTEXT_REACH), e + CONTEXT_REACH):
            continue
        got = _best_window(text, [g for g in groups if g[0] >= label.end()], formats, weak, (s, e))
        if got is not None:
            scan.add(got[0], got[1], "ID_NUMBER")
            return


def _letter_id(scan: Scan, m: re.Match[str], cache: HeaderCache) -> None:
    """A codice fiscale or a CURP (their check letter or digit holds: no label needed); a
    PAN or a Medicare MBI under a label that names it."""
    text = scan.text
    v = m.group(0).replace("-", "")
    if (len(v) == 16 and codice_fiscale_ok(v)) or (len(v) == 18 and curp_ok(v)):
        scan.add(m.start(), m.end(), "ID_NUMBER")
    elif len(v) in (10, 11):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if any(_matches(v, label_formats(lb.group(0))[0], False) for lb in _labels_of(scan, line_start, m.start(), m.start(), cache)):
            scan.add(m.start(), m.end(), "ID_NUMBER")


# A date or a time is no number of any format here (a log's timestamps are the commonest runs).
_DATE_TIME = re.compile(r"(?:19|20)\d\d[-./]\d\d[-./]\d\d|\d\d[-./]\d\d[-./](?:19|20)\d\d|\d\d[.:]\d\d[.:]\d\d")
_TWO_DIGITS = re.compile(r"[0-9]{2,}")  # a whole run at a time; ASCII digits are a third faster than \d
_LETTER_ID_OFFSETS = frozenset({6, 4, 5, 9, 11})  # codice fiscale, CURP, PAN, MBI (without and with dashes): where the token starts


def find_numbers(scan: Scan, card_spans: list[tuple[int, int]]) -> None:
    """Every number format of this module, from one pass over the text's runs of two or more
    digits (a regex over the whole text costs ~20 ms per MB; each format is then matched only
    where such a run is): identity, health and bank numbers under their labels, the letter
    formats, cards and bank details in unusual layouts."""
    text = scan.text
    found_cards: list[tuple[int, int]] = []
    cache: HeaderCache = {}
    done = split_done = -1
    for m in _TWO_DIGITS.finditer(text):
        s = m.start()
        p = text[s - 1] if s else " "
        if p == "_" or (p == "." and s >= 2 and text[s - 2].isdigit()) or p.isdigit():
            continue  # an identifier, a decimal, a non-ASCII digit before
        if "a" <= p <= "z":  # in an identifier or a hash; only a lower-case IBAN starts like this
            if s >= 2 and "a" <= text[s - 2] <= "z" and (s < 3 or not text[s - 3].isalnum()):
                _iban(scan, s - 2)
            continue
        if "A" <= p <= "Z":
            j = s - 1  # where the token holding the run starts: CF, CURP, PAN, MBI and IBANs start 2-11 before
            while j > 0 and s - j <= 12 and (text[j - 1].isalnum() or text[j - 1] == "-"):
                j -= 1
            k = s - j
            if k > 12:
                continue  # inside a long token (base64, a key): no number format is there
            if k in _LETTER_ID_OFFSETS and (lm := _LETTER_IDS.match(text, j)) is not None:
                _letter_id(scan, lm, cache)
            if s >= 2 and "A" <= text[s - 2] <= "Z":
                _iban(scan, s - 2)
        e = m.end()
        if e < len(text) and ("a" <= text[e] <= "z" or (text[e] == "_" and e - s != 4)):
            continue  # 100ms, utf8, a UUID's 550e8400, a hash: no number format goes on in lower case
        run = e - s
        if s >= done and (r := _DIGIT_RUN.match(text, s)) is not None:
            done = r.end()
            if not _DATE_TIME.fullmatch(r.group(0)):
                _id_cluster(scan, s, r.end(), cache)
        if run == 4 and (c := _CARD_ODD.match(text, s)) is not None:
            _odd_card(scan, c, found_cards)
        if run in (2, 6) and (sa := _SORT_ACCOUNT.match(text, s)) is not None:
            _sort_account(scan, sa)
        if 3 <= run <= 8 and s > split_done and text.startswith("\n", e + len(text[e : e + 4]) - len(text[e : e + 4].lstrip(" \t"))):
            line_start = text.rfind("\n", 0, s) + 1
            if (block := _CARD_LINES.match(text, line_start)) is not None:
                split_done = block.end()
                _card_block(scan, block, found_cards)
    for a, b in [*card_spans, *found_cards]:
        _card_row(scan, a, b)


def may_hold_id(text: str, low: str) -> bool:
    """For the quick check of short texts: a run of digits (or a letter format) and a label."""
    if _SPLIT_CARD.search(text) is not None or _IBAN_ANY.search(text) is not None:
        return True
    if _DIGIT_RUN.search(text) is None and _LETTER_IDS.search(text) is None:
        return False
    return _LABEL.search(low) is not None or _LETTER_IDS.search(text) is not None


# -- cards and bank details in unusual layouts --------------------------------------------

def card_network_ok(d: str) -> bool:
    """Is this a length some card network issues with this prefix (IIN)? A number that
    passes Luhn but starts like no card of its length is an IMEI, an EAN or an order number."""
    n = len(d)
    if d[0] == "4":
        return n in (13, 16, 19)
    two, four = int(d[:2]), int(d[:4])
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if 3528 <= four <= 3589 or d.startswith(("6011", "65", "62")) or 644 <= int(d[:3]) <= 649 or 2200 <= four <= 2204:
        return 16 <= n <= 19
    if 300 <= int(d[:3]) <= 305 or two in (36, 38, 39):
        return 14 <= n <= 16
    if two == 50 or 56 <= two <= 69:
        return 16 <= n <= 19  # Maestro
    return False


# Four digits, then groups after any of the separators people type (dots, slashes, underscores,
# dashes with spaces around them, two or three spaces).
_CARD_ODD = re.compile(r"(?<![\w.\-/])\d{4}(?:(?:[ \t]*[.\-/_–][ \t]*|[ \t]{1,3})\d{3,6}){2,4}(?![\w]|[.\-/][\d])")
_SPLIT_CARD = re.compile(r"\d{3}[ \t]*\n[ \t]*\d{3}")
_CARD_LINE = r"[ \t]*(?:\d{4}[ \t]\d{4}|\d{3,8})[ \t]*"
_CARD_LINES = re.compile(r"(?m)^" + _CARD_LINE + r"(?:\n" + _CARD_LINE + r"){1,3}$")
_CARD_COLUMN = re.compile(r"(?i)(?<![^\W_])(?:cvv2?|cvc2?|cid|csc|security[ _]code|prüfnummer|exp(?:iry|iration)?(?:[ _]date)?|valid[ _]thru|ablauf)(?![^\W_])")
_IBAN_ANY = re.compile(r"(?i)(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ \t.\-]?[A-Z0-9]{2,4}){3,8}")
_SORT_ACCOUNT = re.compile(r"(?<![\d\-])(?P<sort>\d{2}-?\d{2}-?\d{2})[ \t]*[/,][ \t]*(?P<acct>\d{8})(?![\d\-])")
_BANK_WORDS = re.compile(r"(?i)\b(?:pay|paid|bank|account|acct|a/c|s/c|transfer|refund|send|monzo|starling|barclays|hsbc|lloyds"
                         r"|natwest|santander|nationwide|revolut|halifax|tsb|metro)")


def iban_checks(compact: str) -> bool:
    compact = compact.upper()
    if not (15 <= len(compact) <= 34) or not compact[2:4].isdigit():
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _card_digits(text: str, start: int, end: int) -> str:
    return "".join(c for c in text[start:end] if c.isdigit())


def _odd_card(scan: Scan, m: re.Match[str], found: list[tuple[int, int]]) -> None:
    d = _card_digits(scan.text, m.start(), m.end())
    if 13 <= len(d) <= 19 and luhn(d) and card_network_ok(d):
        scan.add(m.start(), m.end(), "CARD")
        found.append((m.start(), m.end()))


def _card_block(scan: Scan, block: re.Match[str], found: list[tuple[int, int]]) -> None:
    lines: list[tuple[int, int]] = []
    pos = block.start()
    for line in block.group(0).split("\n"):
        if line.strip():
            lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    _split_card(scan, lines, found)


def _iban(scan: Scan, start: int) -> None:
    """An IBAN in lower case or split by tabs, dots or dashes (the plain forms are _IBAN's)."""
    text = scan.text
    m = _IBAN_ANY.match(text, start)
    if m is None or (m.start() and text[m.start() - 1] in "-_."):
        return  # a piece of a UUID or an identifier
    groups = list(re.finditer(r"[A-Za-z0-9]+", m.group(0)))
    if len(set(re.findall(r"[ \t.\-]", m.group(0)))) > 1:
        return
    for k in range(len(groups), 0 if len(groups) == 1 else max(2, len(groups) - 3), -1):
        end = m.start() + groups[k - 1].end()
        compact = re.sub(r"[^A-Za-z0-9]", "", text[m.start() : end])
        bban = compact[4:]
        if sum(c.isdigit() for c in bban) < 10 or sum(c.isalpha() for c in bban) > 4 \
                or not (compact[:2].isupper() or compact.islower()):
            continue
        if iban_checks(compact):
            scan.add(m.start(), end, "IBAN")
            return


def _sort_account(scan: Scan, m: re.Match[str]) -> None:
    """A UK sort code and account number written as a pair, on a line about paying."""
    text = scan.text
    line_start = max(text.rfind("\n", 0, m.start()) + 1, m.start() - 200)
    line_end = text.find("\n", m.end(), m.end() + 200)
    if _BANK_WORDS.search(text, line_start, min(len(text), m.end() + 200) if line_end < 0 else line_end):
        scan.add(m.start("sort"), m.end("sort"), "ID_NUMBER")
        scan.add(m.start("acct"), m.end("acct"), "ID_NUMBER")


def _split_card(scan: Scan, lines: list[tuple[int, int]], found: list[tuple[int, int]]) -> None:
    """A card written over 2-4 lines of digit groups (4111 1111 / 1111 1111, or 4111 / ...)."""
    text = scan.text
    for i in range(len(lines)):
        digits = ""
        for j in range(i, min(len(lines), i + 4)):
            if j > i and lines[j][0] != lines[j - 1][1] + 1:
                break
            digits += _card_digits(text, *lines[j])
            if j > i and 13 <= len(digits) <= 19 and luhn(digits) and card_network_ok(digits):
                a = lines[i][0] + len(text[lines[i][0] : lines[i][1]]) - len(text[lines[i][0] : lines[i][1]].lstrip())
                b = lines[j][1] - (len(text[lines[j][0] : lines[j][1]]) - len(text[lines[j][0] : lines[j][1]].rstrip()))
                scan.add(a, b, "CARD")
                found.append((a, b))
                return


def _card_row(scan: Scan, start: int, end: int) -> None:
    """A card in a table or CSV row: the cells of its CVV and expiry columns."""
    text = scan.text
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if line_start == 0 or line_end - line_start > MAX_ROW_CHARS:
        return
    for delim in _DELIMS:
        if text.find(delim, line_start, line_end) < 0:
            continue
        head_end = line_start - 1
        head_start = text.rfind("\n", 0, head_end) + 1
        if re.fullmatch(r"[\s|:+\-=]*", text[head_start:head_end]) and head_start > 0:  # markdown's |---|
            head_end = head_start - 1
            head_start = text.rfind("\n", 0, head_end) + 1
        header = text[head_start:head_end].split(delim)
        row = text[line_start:line_end].split(delim)
        if len(header) != len(row):
            continue
        pos = line_start
        for name, cell in zip(header, row, strict=True):
            if _CARD_COLUMN.search(name) and (v := re.search(r"\d{2}/\d{2,4}|\d{4}-\d{2}|\d{3,4}", cell)):
                scan.add(pos + v.start(), pos + v.end(), "CARD")
            pos += len(cell) + 1
        return
