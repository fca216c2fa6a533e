"""How tests/redteam/round4_own.jsonl was made (round4_own.md says why and what is in it).

`python tests/redteam/round4_make.py > tests/redteam/round4_own.jsonl` writes it again, the
same bytes (a fixed seed). The identity, health and bank numbers are computed here from each
format's published rule (check digits, dates of birth), independently of the redactor's own
validators in filegram/redact/ids.py, so a wrong validator there shows as a miss; look-alikes
are built with a check digit that fails, or as the order, invoice, phone and tracking numbers
that surround such numbers in the same kind of document. Batch 1 (ids without a `b` prefix)
was written before the detectors; batch 2 (`b..`) is in round4_make2.py, written after them.
"""

from __future__ import annotations

import json
import random
import string

R = random.Random(20261202)
ITEMS: list[dict] = []


def add(id_: str, kind: str, text: str, secrets: list[str]) -> None:
    for s in secrets:
        assert s in text, (id_, s)
    ITEMS.append({"id": id_, "kind": kind, "text": text, "secrets": secrets})


def digits(n: int, first: str = "123456789") -> str:
    return R.choice(first) + "".join(R.choice(string.digits) for _ in range(n - 1))


def luhn_digit(body: str) -> str:
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return str((10 - total % 10) % 10)


def mod11_10(body: str) -> str:
    """ISO 7064 MOD 11,10 (Croatian OIB, German Steuer-ID)."""
    p = 10
    for c in body:
        s = (int(c) + p) % 10 or 10
        p = (s * 2) % 11
    return str((11 - p) % 10)


def bad(number: str) -> str:
    """The same number with its last digit changed: the check fails."""
    last = number[-1]
    return number[:-1] + str((int(last) + 3) % 10) if last.isdigit() else number[:-1] + ("A" if last != "A" else "B")


def date_parts() -> tuple[int, int, int]:
    return R.randint(1950, 2003), R.randint(1, 12), R.randint(1, 28)


# -- identity numbers ---------------------------------------------------------------------

def pesel() -> str:
    y, m, d = date_parts()
    mm = m + (20 if y >= 2000 else 0)
    body = f"{y % 100:02d}{mm:02d}{d:02d}{R.randint(0, 9999):04d}"
    w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
    return body + str((10 - sum(int(c) * x for c, x in zip(body, w, strict=True)) % 10) % 10)


def rodne_cislo(female: bool = False) -> str:
    while True:
        y, m, d = R.randint(1954, 1999), R.randint(1, 12), R.randint(1, 28)
        first = f"{y % 100:02d}{m + (50 if female else 0):02d}{d:02d}{R.randint(0, 999):03d}"
        c = int(first) % 11
        if c < 10:
            return f"{first[:6]}/{first[6:]}{c}"


def ahv() -> str:
    body = "756" + "".join(R.choice(string.digits) for _ in range(9))
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    n = body + str((10 - s % 10) % 10)
    return f"{n[:3]}.{n[3:7]}.{n[7:11]}.{n[11:]}"


def svnr() -> str:
    while True:
        y, m, d = date_parts()
        serial = digits(3)
        dob = f"{d:02d}{m:02d}{y % 100:02d}"
        w = [3, 7, 9, 5, 8, 4, 2, 1, 6]
        c = sum(int(a) * b for a, b in zip(serial + dob, w, strict=True)) % 11
        if c < 10:
            return f"{serial}{c} {dob}"


def bsn() -> str:
    while True:
        body = digits(8)
        s = sum(int(c) * (9 - i) for i, c in enumerate(body))
        c = s % 11
        if c < 10:
            return body + str(c)


def belgian_nn() -> str:
    y, m, d = date_parts()
    body = f"{y % 100:02d}{m:02d}{d:02d}{R.randint(1, 997):03d}"
    base = int(body) + (2000000000 if y >= 2000 else 0)
    c = 97 - base % 97
    return f"{body[:2]}.{body[2:4]}.{body[4:6]}-{body[6:]}.{c:02d}"


def nir(spaced: bool = True) -> str:
    y, m, _ = date_parts()
    body = f"{R.choice('12')}{y % 100:02d}{m:02d}{R.randint(1, 95):02d}{R.randint(1, 999):03d}{R.randint(1, 999):03d}"
    key = 97 - int(body) % 97
    if not spaced:
        return f"{body}{key:02d}"
    return f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key:02d}"


_CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def codice_fiscale() -> str:
    cons = "BCDFGHLMNPRSTVZ"
    y, m, d = date_parts()
    day = d + (40 if R.random() < 0.5 else 0)
    body = ("".join(R.choice(cons) for _ in range(6)) + f"{y % 100:02d}" + "ABCDEHLMPRST"[m - 1] + f"{day:02d}"
            + R.choice("ADFHLMRT") + f"{R.randint(1, 999):03d}")
    s = 0
    for i, c in enumerate(body):
        v = int(c) if c.isdigit() else ord(c) - 65
        s += _CF_ODD[v] if i % 2 == 0 else v
    return body + chr(65 + s % 26)


def dni() -> str:
    n = R.randint(10000000, 99999999)
    return f"{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def nie() -> str:
    p = R.choice("XYZ")
    n = R.randint(1000000, 9999999)
    full = int(f"{'XYZ'.index(p)}{n}")
    return f"{p}{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[full % 23]}"


def nif_pt() -> str:
    while True:
        body = R.choice("1235") + "".join(R.choice(string.digits) for _ in range(7))
        s = sum(int(c) * (9 - i) for i, c in enumerate(body))
        c = 11 - s % 11
        return body + str(0 if c >= 10 else c)


def steuer_id() -> str:
    while True:
        ds = R.sample("0123456789", 9)
        if ds[0] == "0":
            continue
        dup = R.choice(ds)
        body = ds[:]
        body.insert(R.randint(1, 9), dup)
        b = "".join(body)
        if b[0] != "0":
            n = b + mod11_10(b)
            return f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}"


def nino() -> str:
    first = R.choice("ABCEGHJKLMNPRSTWXYZ")
    second = R.choice("ABCEGHJKLMNPRSTWXYZ")
    return f"{first}{second} {R.randint(10, 99)} {R.randint(10, 99)} {R.randint(10, 99)} {R.choice('ABCD')}"


def pps() -> str:
    body = digits(7, "0123456789")
    s = sum(int(c) * (8 - i) for i, c in enumerate(body))
    return body + "WABCDEFGHIJKLMNOPQRSTUV"[s % 23]


def personnummer() -> str:
    y, m, d = date_parts()
    body = f"{y % 100:02d}{m:02d}{d:02d}{R.randint(0, 999):03d}"
    return f"{body[:6]}-{body[6:]}{luhn_digit(body)}"


def fodselsnummer() -> str:
    while True:
        y, m, d = date_parts()
        ind = f"{R.randint(0, 499):03d}" if y < 2000 else f"{R.randint(500, 999):03d}"
        b = f"{d:02d}{m:02d}{y % 100:02d}{ind}"
        k1 = 11 - sum(int(c) * w for c, w in zip(b, [3, 7, 6, 1, 8, 9, 4, 5, 2], strict=True)) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        b += str(k1)
        k2 = 11 - sum(int(c) * w for c, w in zip(b, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=True)) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 < 10:
            return b + str(k2)


def cpr() -> str:
    while True:
        y, m, d = R.randint(1950, 1999), R.randint(1, 12), R.randint(1, 28)
        b = f"{d:02d}{m:02d}{y % 100:02d}{R.randint(0, 3)}{R.randint(0, 99):02d}"
        c = 11 - sum(int(c) * w for c, w in zip(b, [4, 3, 2, 7, 6, 5, 4, 3, 2], strict=True)) % 11
        if c < 10:
            return f"{b[:6]}-{b[6:]}{0 if c == 11 else c}"


def hetu() -> str:
    y, m, d = date_parts()
    sep = "-" if y < 2000 else "A"
    ind = R.randint(2, 899)
    n = int(f"{d:02d}{m:02d}{y % 100:02d}{ind:03d}")
    return f"{d:02d}{m:02d}{y % 100:02d}{sep}{ind:03d}{'0123456789ABCDEFHJKLMNPRSTUVWXY'[n % 31]}"


def isikukood() -> str:
    y, m, d = date_parts()
    g = (3 if y < 2000 else 5) + R.randint(0, 1)
    b = f"{g}{y % 100:02d}{m:02d}{d:02d}{R.randint(0, 999):03d}"
    w1, w2 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1], [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]
    r = sum(int(c) * w for c, w in zip(b, w1, strict=True)) % 11
    if r == 10:
        r = sum(int(c) * w for c, w in zip(b, w2, strict=True)) % 11
        r = 0 if r == 10 else r
    return b + str(r)


def cnp() -> str:
    y, m, d = date_parts()
    s = (1 if y < 2000 else 5) + R.randint(0, 1)
    b = f"{s}{y % 100:02d}{m:02d}{d:02d}{R.randint(1, 46):02d}{R.randint(1, 999):03d}"
    c = sum(int(a) * int(w) for a, w in zip(b, "279146358279", strict=True)) % 11
    return b + str(1 if c == 10 else c)


def egn() -> str:
    y, m, d = date_parts()
    b = f"{y % 100:02d}{m + (40 if y >= 2000 else 0):02d}{d:02d}{R.randint(0, 999):03d}"
    c = sum(int(a) * w for a, w in zip(b, [2, 4, 8, 5, 10, 9, 7, 3, 6], strict=True)) % 11
    return b + str(0 if c == 10 else c)


def oib() -> str:
    b = digits(10)
    return b + mod11_10(b)


def emso() -> str:
    while True:
        y, m, d = date_parts()
        b = f"{d:02d}{m:02d}{y % 1000:03d}50{R.randint(0, 999):03d}"
        s = sum(int(a) * w for a, w in zip(b, [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=True))
        k = 11 - s % 11
        if k == 10:
            continue
        return b + str(0 if k == 11 else k)


def amka() -> str:
    y, m, d = date_parts()
    b = f"{d:02d}{m:02d}{y % 100:02d}{R.randint(0, 9999):04d}"
    return b + luhn_digit(b)


def tckn() -> str:
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d.append(d10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


def teudat_zehut() -> str:
    b = digits(8, "0123")
    return b + luhn_digit(b)


def cpf() -> str:
    b = [R.randint(0, 9) for _ in range(9)]
    for n in (10, 11):
        s = sum(x * (n - i) for i, x in enumerate(b))
        b.append((s * 10) % 11 % 10)
    s = "".join(map(str, b))
    return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp() -> str:
    y, m, d = R.randint(1950, 1999), R.randint(1, 12), R.randint(1, 28)
    body = (R.choice("BGHLMPRS") + R.choice("AEIOU") + R.choice("AEGLMORS") + R.choice("ABCDEJLMRS")
            + f"{y % 100:02d}{m:02d}{d:02d}" + R.choice("HM") + R.choice(["DF", "JC", "NL", "MC", "PL", "GT", "VZ"])
            + "".join(R.choice("BCDFGHJKLMNPRSTVZ") for _ in range(3)) + "0")
    s = sum(_CURP_CHARS.index(c) * (18 - i) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


def cuil() -> str:
    while True:
        pre = R.choice(["20", "27", "23"])
        b = pre + f"{R.randint(10000000, 45000000):08d}"
        c = 11 - sum(int(a) * w for a, w in zip(b, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=True)) % 11
        if c == 10:
            continue
        return f"{b[:2]}-{b[2:]}-{0 if c == 11 else c}"


def rut() -> str:
    n = R.randint(5000000, 25000000)
    s, w = 0, 2
    for c in reversed(str(n)):
        s += int(c) * w
        w = 2 if w == 7 else w + 1
    c = 11 - s % 11
    dv = "0" if c == 11 else "K" if c == 10 else str(c)
    return f"{n:,}".replace(",", ".") + "-" + dv


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]]
for _i in range(2, 8):
    _VP.append([_VP[_i - 1][_VP[1][j]] for j in range(10)])
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def aadhaar() -> str:
    b = digits(11, "23456789")
    c = 0
    for i, ch in enumerate(reversed(b)):
        c = _VD[c][_VP[(i + 1) % 8][int(ch)]]
    n = b + str(_VINV[c])
    return f"{n[:4]} {n[4:8]} {n[8:]}"


def pan() -> str:
    return "".join(R.choice(string.ascii_uppercase) for _ in range(3)) + "P" + R.choice("KSMRAGD") + f"{R.randint(1000, 9999)}" + R.choice(string.ascii_uppercase)


def china_id() -> str:
    y, m, d = date_parts()
    b = R.choice(["110105", "310104", "440305", "510107", "330106"]) + f"{y}{m:02d}{d:02d}" + f"{R.randint(0, 999):03d}"
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    c = (12 - sum(int(a) * x for a, x in zip(b, w, strict=True)) % 11) % 11
    return b + ("X" if c == 10 else str(c))


def my_number() -> str:
    b = digits(11)
    s = 0
    for n in range(1, 12):
        p = int(b[11 - n])
        q = n + 1 if n <= 6 else n - 5
        s += p * q
    r = s % 11
    n = b + str(0 if r <= 1 else 11 - r)
    return f"{n[:4]} {n[4:8]} {n[8:]}"


def rrn() -> str:
    y, m, d = R.randint(1950, 1999), R.randint(1, 12), R.randint(1, 28)
    b = f"{y % 100:02d}{m:02d}{d:02d}{R.choice('12')}{R.randint(0, 99999):05d}"
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    c = (11 - sum(int(a) * x for a, x in zip(b, w, strict=True)) % 11) % 10
    return f"{b[:6]}-{b[6:]}{c}"


def za_id() -> str:
    y, m, d = date_parts()
    b = f"{y % 100:02d}{m:02d}{d:02d}{R.randint(0, 9999):04d}08"
    return b + luhn_digit(b)


def tfn() -> str:
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    while True:
        b = digits(9)
        if sum(int(c) * x for c, x in zip(b, w, strict=True)) % 11 == 0:
            return f"{b[:3]} {b[3:6]} {b[6:]}"


def sin() -> str:
    b = digits(8, "1234567")
    n = b + luhn_digit(b)
    return f"{n[:3]} {n[3:6]} {n[6:]}"


def ssn() -> str:
    return f"{R.randint(100, 665):03d}-{R.randint(10, 99):02d}-{R.randint(1000, 9999):04d}"


def itin() -> str:
    return f"9{R.randint(0, 99):02d}-{R.choice([70, 71, 78, 83, 88, 90, 92, 94, 99])}-{R.randint(1000, 9999):04d}"


# -- health numbers -----------------------------------------------------------------------

def nhs() -> str:
    while True:
        b = digits(9, "4")
        c = 11 - sum(int(x) * (10 - i) for i, x in enumerate(b)) % 11
        if c == 10:
            continue
        n = b + str(0 if c == 11 else c)
        return f"{n[:3]} {n[3:6]} {n[6:]}"


def kvnr() -> str:
    letter = R.choice(string.ascii_uppercase)
    body = digits(8, "0123456789")
    s = f"{ord(letter) - 64:02d}" + body
    total = 0
    for i, c in enumerate(s):
        p = int(c) * (1 if i % 2 == 0 else 2)
        total += p // 10 + p % 10
    return f"{letter}{body}{total % 10}"


def mbi() -> str:
    a = "ACDEFGHJKMNPQRTUVWXY"
    an = a + string.digits
    return (R.choice("123456789") + R.choice(a) + R.choice(an) + R.choice(string.digits) + "-" + R.choice(a) + R.choice(an)
            + R.choice(string.digits) + "-" + R.choice(a) + R.choice(a) + R.choice(string.digits) + R.choice(string.digits))


def au_medicare() -> str:
    b = R.choice("23456") + "".join(R.choice(string.digits) for _ in range(7))
    c = sum(int(x) * w for x, w in zip(b, [1, 3, 7, 9, 1, 3, 7, 9], strict=True)) % 10
    return f"{b[:4]} {b[4:]}{c} {R.randint(1, 9)}"


def ohip() -> str:
    b = digits(9)
    n = b + luhn_digit(b)
    return f"{n[:4]}-{n[4:7]}-{n[7:]}-{R.choice(string.ascii_uppercase)}{R.choice(string.ascii_uppercase)}"


def bc_phn() -> str:
    while True:
        b = "9" + "".join(R.choice(string.digits) for _ in range(8))
        s = sum((int(x) * w) % 11 for x, w in zip(b[1:], [2, 4, 8, 5, 10, 9, 7, 3], strict=True))
        c = 11 - s % 11
        if c < 10:
            n = b + str(c)
            return f"{n[:4]} {n[4:7]} {n[7:]}"


def ehic(country: str) -> str:
    return "80" + country + "".join(R.choice(string.digits) for _ in range(15))


def ramq() -> str:
    return "".join(R.choice("BCDLMRT") for _ in range(4)) + f" {R.randint(5001, 9912):04d} {R.randint(1000, 9999):04d}"


def member_id(prefix: str = "") -> str:
    return prefix + "".join(R.choice(string.ascii_uppercase) for _ in range(3 - len(prefix))) + str(R.randint(100000000, 999999999))


# -- cards and banks ----------------------------------------------------------------------

def card(prefix: str = "4", length: int = 16) -> str:
    b = prefix + "".join(R.choice(string.digits) for _ in range(length - 1 - len(prefix)))
    return b + luhn_digit(b)


def iban(country: str, bban: str) -> str:
    conv = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(conv) % 97
    return f"{country}{check:02d}{bban}"


def grouped(s: str, n: int = 4, sep: str = " ") -> str:
    return sep.join(s[i : i + n] for i in range(0, len(s), n))


def aba() -> str:
    while True:
        b = R.choice(["0", "1", "2", "3"]) + "".join(R.choice(string.digits) for _ in range(7))
        w = [3, 7, 1, 3, 7, 1, 3, 7]
        c = (10 - sum(int(x) * y for x, y in zip(b, w, strict=True)) % 10) % 10
        return b + str(c)


NAMES = ["Anna Kowalska", "Jan Novák", "Lukas Huber", "Sophie Müller", "Marco Rossi", "Elena García", "João Silva",
         "Emma de Vries", "Lars Nilsson", "Ingrid Hansen", "Mette Jensen", "Mikko Virtanen", "Kadri Tamm",
         "Ana Popescu", "Ivan Petrov", "Luka Horvat", "Maja Novak", "Nikos Papadopoulos", "Ayşe Yılmaz",
         "Noa Levi", "Lucas Oliveira", "María Hernández", "Sofía Fernández", "Camila Rojas", "Priya Sharma",
         "Wang Fang", "Sato Haruki", "Kim Min-jun", "Thabo Nkosi", "Olivia Smith", "Liam Tremblay", "Jacob Miller"]


# == batch 1: HR forms, one country at a time ==============================================

def hr_documents() -> None:
    p = pesel()
    add("h01-pl-pesel", "hr/pl", f"KWESTIONARIUSZ OSOBOWY PRACOWNIKA\nImię i nazwisko: Anna Kowalska\nData urodzenia: 14.05.1988\n"
        f"PESEL: {p}\nNr telefonu: +48 601 234 567\nAdres: ul. Lipowa 12/4, 31-052 Kraków\nNr konta do wypłaty: (w załączniku)\n", [p])
    p2 = pesel()
    add("h02-pl-pesel-table", "hr/pl", f"| Pracownik | Stanowisko | PESEL | Data zatrudnienia |\n|---|---|---|---|\n"
        f"| Piotr Nowak | magazynier | {p2} | 2024-03-01 |\n| Ewa Zielińska | księgowa | {(p3 := pesel())} | 2023-11-15 |\n", [p2, p3])
    r1, r2 = rodne_cislo(), rodne_cislo(True)
    add("h03-cz-rc", "hr/cz", f"Osobní dotazník zaměstnance\nJméno: Jan Novák\nRodné číslo: {r1}\nČíslo OP: 204518733\n"
        f"Zdravotní pojišťovna: VZP (111)\nManželka: Jana Nováková, r.č. {r2}\n", [r1, r2])
    r3 = rodne_cislo(True)
    add("h04-sk-rc", "hr/sk", f"Prihláška do Sociálnej poisťovne\nMeno a priezvisko: Zuzana Kováčová\nRodné číslo {r3}\n"
        f"Dátum nástupu: 01.09.2025\nTelefón: 0905 123 456\n", [r3])
    a1, a2 = ahv(), ahv()
    add("h05-ch-ahv", "hr/ch", f"Personalblatt\nName, Vorname: Huber Lukas\nAHV-Nr.: {a1}\nZivilstand: verheiratet\n"
        f"Ehepartnerin: Huber-Meier Sandra, AHV-Nummer {a2}\nPLZ/Ort: 8004 Zürich\n", [a1, a2])
    a3 = ahv()
    add("h06-ch-avs-fr", "hr/ch", f"Fiche du collaborateur\nNom: Rochat Céline\nN° AVS: {a3}\nPermis: C\nNPA/Localité: 1003 Lausanne\n", [a3])
    s1 = svnr()
    add("h07-at-svnr", "hr/at", f"Anmeldung zur Sozialversicherung (ÖGK)\nDienstnehmer: Sophie Gruber\nVersicherungsnummer: {s1}\n"
        f"Geburtsdatum: siehe SV-Nr.\nBeschäftigungsbeginn: 02.01.2026\nDienstgeberkontonummer: 983412\n", [s1])
    s2 = svnr()
    add("h08-at-svnr-mail", "hr/at", f"Hallo Frau Berger,\n\nfür die Lohnverrechnung brauche ich noch Ihre SV-Nummer. Laut e-card ist es {s2} – "
        "bitte kurz bestätigen.\n\nLG, Personalabteilung\n", [s2])
    b1, b2 = bsn(), bsn()
    add("h09-nl-bsn", "hr/nl", f"Personeelsformulier\nNaam: Emma de Vries\nBSN: {b1}\nIBAN: zie loonstrook\nPersoneelsnummer: 20417\n"
        f"Partner: Daan de Vries (burgerservicenummer {b2})\n", [b1, b2])
    n1 = belgian_nn()
    add("h10-be-nn", "hr/be", f"Fiche signalétique / Personeelsfiche\nNom: Dubois Marie\nNuméro de registre national: {n1}\n"
        f"Commission paritaire: 200\nDate d'entrée: 01/02/2026\n", [n1])
    n2 = belgian_nn()
    add("h11-be-rrn-nl", "hr/be", f"Rijksregisternummer werknemer: {n2}\nFunctie: bediende\nTel.: 0475 12 34 56\n", [n2])
    f1 = nir()
    add("h12-fr-nir", "hr/fr", f"FICHE DE RENSEIGNEMENTS SALARIÉ\nNom : Lefèvre\nPrénom : Julien\nN° de sécurité sociale : {f1}\n"
        f"Date de naissance : 03/07/1985\nTéléphone : 06 12 34 56 78\n", [f1])
    c1 = codice_fiscale()
    add("h13-it-cf", "hr/it", f"Scheda anagrafica dipendente\nCognome e nome: Rossi Marco\nCodice fiscale: {c1}\nData di nascita: 12/03/1984\n"
        f"Telefono: 347 123 4567\nCAP: 20121 Milano\n", [c1])
    c2 = codice_fiscale()
    add("h14-it-cf-inline", "hr/it", f"Ciao Giulia, per il contratto mi serve il tuo CF: {c2}. Grazie!\n", [c2])
    d1, d2 = dni(), nie()
    add("h15-es-dni-nie", "hr/es", f"Ficha de alta de empleado\nNombre: Elena García López\nDNI: {d1}\nNº afiliación SS: 28/1234567/89\n"
        f"Cónyuge: Pierre Martin, NIE {d2}\nTeléfono: 612 345 678\n", [d1, d2])
    t1 = nif_pt()
    add("h16-pt-nif", "hr/pt", f"Ficha de colaborador\nNome: João Silva\nNIF: {t1}\nNISS: 12045678901\nMorada: Rua Augusta 100, 1100-053 Lisboa\n", [t1])
    t2 = nif_pt()
    add("h17-pt-nif-contrib", "hr/pt", f"Número de contribuinte do trabalhador — {t2}\nCategoria: técnico superior\n", [t2])
    g1 = steuer_id()
    add("h18-de-steuerid", "hr/de", f"Personalfragebogen\nName: Sophie Müller\nSteuerliche Identifikationsnummer: {g1}\n"
        f"Steuerklasse: IV\nKonfession: rk\nTelefon: 0171 2345678\n", [g1])
    g2 = steuer_id().replace(" ", "")
    add("h19-de-idnr", "hr/de", f"Betreff: Unterlagen Neueinstellung\n\nHallo Herr Weber,\nanbei meine Daten: Steuer-IdNr. {g2}, "
        "Krankenkasse TK. Die Lohnsteuerklasse ist I.\n\nViele Grüße\nTim Schulz\n", [g2])
    u1 = nino()
    add("h20-uk-nino", "hr/uk", f"NEW STARTER CHECKLIST\nSurname: Smith\nFirst names: Olivia\nNational Insurance number: {u1}\n"
        f"Date of birth: 21/09/1992\nPhone: 07700 900123\nEmployee number: 10492\n", [u1])
    u2 = nino().replace(" ", "")
    add("h21-uk-ni-inline", "hr/uk", f"Hi Sam, my NI no. is {u2} if payroll still needs it. Cheers, Olivia\n", [u2])
    i1 = pps()
    add("h22-ie-pps", "hr/ie", f"Employee details form\nName: Aoife Murphy\nPPS Number: {i1}\nEircode: D02 X285\nStart date: 06/01/2026\n", [i1])
    w1 = personnummer()
    add("h23-se-pnr", "hr/se", f"Personaluppgifter\nNamn: Lars Nilsson\nPersonnummer: {w1}\nClearingnummer: (se lönebesked)\nMobil: 070-123 45 67\n", [w1])
    w2 = "19" + personnummer()
    add("h24-se-pnr-12", "hr/se", f"Anställd: Karin Lind, personnr {w2}, anställningsnummer 4471.\n", [w2])
    o1 = fodselsnummer()
    add("h25-no-fnr", "hr/no", f"Personalskjema\nNavn: Ingrid Hansen\nFødselsnummer: {o1}\nKontonummer for lønn: oppgis separat\nTelefon: 912 34 567\n", [o1])
    o2 = cpr()
    add("h26-dk-cpr", "hr/dk", f"Medarbejderoplysninger\nNavn: Mette Jensen\nCPR-nr.: {o2}\nSkattekort: hovedkort\nTlf.: 20 12 34 56\n", [o2])
    fi1 = hetu()
    add("h27-fi-hetu", "hr/fi", f"Työntekijän tiedot\nNimi: Mikko Virtanen\nHenkilötunnus: {fi1}\nVerokortti: toimitettu\nPuhelin: 040 123 4567\n", [fi1])
    e1 = isikukood()
    add("h28-ee-isikukood", "hr/ee", f"Töötaja andmed\nNimi: Kadri Tamm\nIsikukood: {e1}\nTelefon: +372 5123 4567\n", [e1])
    lt1 = isikukood()
    add("h29-lt-ak", "hr/lt", f"Darbuotojo anketa\nVardas, pavardė: Jonas Kazlauskas\nAsmens kodas: {lt1}\nTel. +370 612 34567\n", [lt1])
    ro1 = cnp()
    add("h30-ro-cnp", "hr/ro", f"Fișa angajatului\nNume: Ana Popescu\nCNP: {ro1}\nSerie CI: RX 123456\nTelefon: 0722 123 456\n", [ro1])
    bg1 = egn()
    add("h31-bg-egn", "hr/bg", f"Лични данни на служителя\nИме: Иван Петров\nЕГН: {bg1}\nТелефон: 0888 123 456\n", [bg1])
    hr1 = oib()
    add("h32-hr-oib", "hr/hr", f"Podaci o zaposleniku\nIme i prezime: Luka Horvat\nOIB: {hr1}\nIBAN: u prilogu\nTel: 091 234 5678\n", [hr1])
    si1 = emso()
    add("h33-si-emso", "hr/si", f"Podatki o delavcu\nIme in priimek: Maja Novak\nEMŠO: {si1}\nDavčna številka: poslana posebej\n", [si1])
    gr1 = amka()
    add("h34-gr-amka", "hr/gr", f"Στοιχεία εργαζομένου\nΟνοματεπώνυμο: Νίκος Παπαδόπουλος\nΑΜΚΑ: {gr1}\nΤηλέφωνο: 694 123 4567\n", [gr1])
    tr1 = tckn()
    add("h35-tr-tckn", "hr/tr", f"Personel Bilgi Formu\nAdı Soyadı: Ayşe Yılmaz\nT.C. Kimlik No: {tr1}\nTelefon: 0532 123 45 67\n", [tr1])
    il1 = teudat_zehut()
    add("h36-il-tz", "hr/il", f"טופס 101\nשם: נועה לוי\nמספר זהות: {il1}\nטלפון: 052-1234567\n", [il1])
    br1 = cpf()
    add("h37-br-cpf", "hr/br", f"Ficha de admissão\nNome: Lucas Oliveira\nCPF: {br1}\nPIS: informar depois\nTelefone: (11) 98765-4321\nCEP: 01310-100\n", [br1])
    mx1 = curp()
    add("h38-mx-curp", "hr/mx", f"Alta de personal\nNombre: María Hernández\nCURP: {mx1}\nNSS: pendiente\nTeléfono: 55 1234 5678\n", [mx1])
    ar1, ar2 = cuil(), f"{R.randint(20, 45)}.{R.randint(100, 999)}.{R.randint(100, 999)}"
    add("h39-ar-cuil-dni", "hr/ar", f"Legajo del empleado\nApellido y nombre: Sofía Fernández\nDNI: {ar2}\nCUIL: {ar1}\nObra social: OSDE\n", [ar1, ar2])
    cl1 = rut()
    add("h40-cl-rut", "hr/cl", f"Ficha del trabajador\nNombre: Camila Rojas\nRUT: {cl1}\nAFP: Habitat\nFono: +56 9 8765 4321\n", [cl1])
    in1, in2 = aadhaar(), pan()
    add("h41-in-aadhaar-pan", "hr/in", f"Employee onboarding (India)\nName: Priya Sharma\nAadhaar No.: {in1}\nPAN: {in2}\nUAN: to be generated\nMobile: +91 98765 43210\n", [in1, in2])
    cn1 = china_id()
    add("h42-cn-id", "hr/cn", f"员工入职登记表\n姓名：王芳\n身份证号码：{cn1}\n手机：138 0013 8000\n入职日期：2026-01-05\n", [cn1])
    jp1 = my_number()
    add("h43-jp-mynumber", "hr/jp", f"扶養控除等申告書\n氏名：佐藤 陽斗\n個人番号（マイナンバー）：{jp1}\n電話番号：090-1234-5678\n", [jp1])
    kr1 = rrn()
    add("h44-kr-rrn", "hr/kr", f"입사 서류\n성명: 김민준\n주민등록번호: {kr1}\n연락처: 010-1234-5678\n", [kr1])
    za1 = za_id()
    add("h45-za-id", "hr/za", f"EMPLOYEE INFORMATION FORM\nFull name: Thabo Nkosi\nID Number: {za1}\nIncome tax no.: to follow\nCell: 082 123 4567\n", [za1])
    au1 = tfn()
    add("h46-au-tfn", "hr/au", f"Tax file number declaration (copy)\nName: Chloe Wilson\nTax file number: {au1}\nBSB: 062-000 (pay details separate)\n", [au1])
    ca1 = sin()
    add("h47-ca-sin", "hr/ca", f"TD1 / new hire\nName: Liam Tremblay\nSocial Insurance Number (SIN): {ca1}\nNuméro d'assurance sociale ci-dessus.\n", [ca1])
    us1, us2 = ssn(), itin()
    add("h48-us-ssn-itin", "hr/us", f"Form W-4 worksheet\nEmployee: Jacob Miller\nSSN: {us1}\nSpouse: Ana Miller, ITIN {us2}\nFiling status: married filing jointly\n", [us1, us2])
    us3 = ssn()
    add("h49-us-ssn-csv", "hr/us", f"employee_id,first_name,last_name,ssn,hire_date,phone\n1042,Jacob,Miller,{us3},2024-02-12,555-201-3344\n"
        f"1043,Emily,Davis,{(us4 := ssn())},2025-07-01,555-201-9988\n", [us3, us4])
    pl = pesel()
    add("h50-pl-mail", "hr/pl", f"Dzień dobry,\nprzesyłam dane do umowy zlecenia: Marek Wiśniewski, nr PESEL {pl}, adres jak w CV.\nPozdrawiam\n", [pl])
    sv = svnr().replace(" ", "")
    add("h51-at-table", "hr/at", f"Name;SV-Nummer;Eintritt;Kostenstelle\nGruber Sophie;{sv};02.01.2026;4100\n", [sv])
    cfs = cpf().replace(".", "").replace("-", "")
    add("h52-br-cpf-plain", "hr/br", f"Prezados, segue o CPF do novo estagiário: {cfs}. Matrícula 88123.\n", [cfs])
    za2 = za_id()
    add("h53-za-nextline", "hr/za", f"Identity number\n{za2}\nTax reference number\n(pending)\n", [za2])
    nf = nir(False)
    add("h54-fr-nir-vitale", "hr/fr", f"Attestation de droits — carte Vitale\nBénéficiaire : Julie Martin\nNuméro de sécurité sociale : {nf}\nCaisse : CPAM 75\n", [nf])


def hr_lookalikes() -> None:
    add("hl01-order-numbers", "ordinary/hr", "Bestellbestätigung\nBestellnummer: 30245518973\nRechnungsnummer: 2026-004417\n"
        "Sendungsnummer (DHL): 00340434161094042557\nKundennummer: 4471093\nLieferung: 12.01.2026\n", [])
    add("hl02-phones", "ordinary/hr", "Kontakt\nTel.: +48 601 234 567\nFax: 0221 9876 5432\nMobil: 0171 2345678\nHotline: 0800 123 4567\n"
        "Durchwahl: 030 90182-4471\n", [])
    add("hl03-pesel-bad", "ordinary/hr", f"Numer zamówienia: {bad(pesel())}\nNumer faktury: FV/2026/01/0417\nKod pocztowy: 31-052\n", [])
    add("hl04-isbn", "ordinary/hr", "Reading list for new hires\n- ISBN 978-3-16-148410-0\n- ISBN 0-306-40615-2\n- ISBN-13: 9780306406157\n"
        "- DOI 10.1000/182\n", [])
    add("hl05-timestamps", "ordinary/hr", "2026-01-05T09:14:22Z login ok\n1767604462 epoch\n20260105091422 build\n"
        "release 4.12.10-2 (build 20260105)\nversion 10.0.19045.3803\n", [])
    add("hl06-form-blank", "ordinary/hr", "Personalfragebogen\nName: ____________\nSteuerliche Identifikationsnummer: ___________\n"
        "Sozialversicherungsnummer: (bitte eintragen)\nKrankenkasse: __________\n", [])
    add("hl07-nino-explainer", "ordinary/hr", "Your National Insurance number looks like QQ 12 34 56 C. You can find it on your payslip, "
        "P60 or letters about tax.\n", [])
    add("hl08-ssn-format", "ordinary/hr", "The SSN field expects the format XXX-XX-XXXX; numbers starting with 9 are ITINs.\n"
        "Ticket #4471-2026: the validation rejected 000-00-0000 correctly.\n", [])
    add("hl09-invoice-it", "ordinary/hr", "Fattura n. 2026/0417 del 12/01/2026\nPartita IVA cliente: vedi anagrafica\n"
        "Codice articolo: ART-0045-XL\nTotale: 1.234,56 EUR\nOrdine n. 4500123456\n", [])
    add("hl10-bsn-bad", "ordinary/hr", f"Ordernummer {bad(bsn())} is verzonden. Track & trace: 3SABCD1234567.\n", [])
    add("hl11-tel-es", "ordinary/hr", "Atención al cliente: 912 345 678\nPedido nº 40071234\nCódigo postal: 28013 Madrid\n", [])
    add("hl12-cpf-invalid", "ordinary/hr", f"Pedido número {bad(cpf())} enviado. Nota fiscal 000.123.456.\n", [])
    add("hl13-product-codes", "ordinary/hr", "Artikel 4006381333931 (EAN)\nSKU: AB-1204-77\nSerial: SN8842-1167-2290\nIMEI: 356938035643809\n", [])
    add("hl14-steuerid-bad", "ordinary/hr", f"Vorgangsnummer {bad(steuer_id().replace(' ', ''))} – bitte bei Rückfragen angeben.\n", [])
    add("hl15-statistics", "ordinary/hr", "Headcount by country\n| country | employees | payroll (EUR) |\n|---|---|---|\n| PL | 120 | 4 512 330 |\n"
        "| CZ | 48 | 1 904 220 |\n| AT | 17 | 1 088 900 |\n", [])
    add("hl16-pesel-explainer", "ordinary/hr", "Numer PESEL ma 11 cyfr: data urodzenia, numer serii, płeć i cyfrę kontrolną. "
        "Nie podawaj go przez telefon.\n", [])
    add("hl17-ahv-explainer", "ordinary/hr", "Die AHV-Nummer beginnt immer mit 756 und hat 13 Stellen (756.XXXX.XXXX.XX).\n", [])
    add("hl18-chinese-phone", "ordinary/hr", "联系电话：138 0013 8000\n订单号：202601051234567890\n快递单号：SF1234567890123\n", [])
    add("hl19-jp-postal", "ordinary/hr", "郵便番号：〒100-0001\n電話番号：03-1234-5678\n注文番号：250-1234567-8901234\n", [])
    add("hl20-kr-phone", "ordinary/hr", "연락처: 010-1234-5678\n주문번호: 20260105-0001234\n우편번호: 06236\n", [])
    add("hl21-tckn-bad", "ordinary/hr", f"Sipariş no: {bad(tckn())}\nKargo takip: 1234567890123\n", [])
    add("hl22-dates", "ordinary/hr", "Schedule: 14.05.1988 – 21.09.1992 – 03/07/1985 – 1988-05-14\nRoom 4.012, building 756\n", [])


# == batch 1: medical and health insurance =================================================

def medical_documents() -> None:
    n1 = nhs()
    add("m01-uk-nhs", "medical/uk", f"Dear Ms Smith,\n\nRe: Olivia Smith, DOB 21/09/1992, NHS No: {n1}\nThank you for referring this patient "
        "to the dermatology clinic. Appointment: 14 Feb 2026, 10:30, Clinic 4.\n\nHospital number: RX4471\n", [n1])
    n2 = nhs().replace(" ", "")
    add("m02-uk-nhs-plain", "medical/uk", f"Patient: George Evans\nNHS number {n2}\nGP: Dr Patel, Riverside Surgery, 020 7946 0018\n", [n2])
    k1 = kvnr()
    add("m03-de-kvnr", "medical/de", f"Techniker Krankenkasse\nVersicherte/r: Sophie Müller\nKrankenversichertennummer: {k1}\n"
        "Versichertenstatus: 1 000 1\nKartennummer gültig bis 12/2029\nBei Fragen: 040 460 66 10 40\n", [k1])
    k2 = kvnr()
    add("m04-de-kvnr-chat", "medical/de", f"Hi Papa, die Praxis will deine Versichertennummer – steht auf der Karte vorne: {k2}, oder? Passt das?\n", [k2])
    e1 = ehic("276")
    add("m05-ehic-de", "medical/eu", f"Europäische Krankenversicherungskarte (EHIC)\n3 Name: Müller\n4 Vornamen: Sophie\n"
        f"6 Persönliche Kennnummer: {kvnr()[:1]}123456789\n7 Kennnummer des Trägers: 101575519 - TK\n8 Kennnummer der Karte: {e1}\n"
        "9 Ablaufdatum: 31/12/2029\n", [e1])
    e2 = ehic("250")
    nf = nir(False)
    add("m06-ehic-fr", "medical/eu", f"Carte européenne d'assurance maladie\nNom : Martin\nNuméro d'identification personnel : {nf}\n"
        f"Numéro d'identification de la carte : {e2}\nDate d'expiration : 15/06/2027\n", [e2, nf])
    e3 = ehic("380")
    add("m07-ehic-it", "medical/eu", f"Tessera europea di assicurazione malattia\nNumero di identificazione della tessera: {e3}\n"
        f"Codice fiscale: {(cf := codice_fiscale())}\n", [e3, cf])
    m1 = mbi()
    add("m08-us-mbi", "medical/us", f"MEDICARE HEALTH INSURANCE\nName: JACOB MILLER\nMedicare Number: {m1}\nEntitled to: HOSPITAL (PART A) 03-01-2024\n"
        "MEDICAL (PART B) 03-01-2024\n", [m1])
    m2 = mbi().replace("-", "")
    add("m09-us-mbi-mail", "medical/us", f"Hi Dr. Chen's office,\nmy mother's new Medicare card number (MBI) is {m2}. Her old one had the SSN on it.\nThanks, Emily\n", [m2])
    w = member_id("W")
    add("m10-us-aetna", "medical/us", f"Aetna Choice POS II\nMember: Emily Davis\nMember ID: {w}\nGroup #: 0852736-10-001\nRxBIN: 610502\n"
        "Customer service: 1-888-802-3862\n", [w, "0852736-10-001"])
    md = f"{R.randint(10000000, 99999999)}{R.choice('ABCDEFGH')}"
    add("m11-us-medicaid", "medical/us", f"Medi-Cal BIC\nName: Maria Lopez\nMedicaid ID: {md}\nIssue date: 01/15/2025\n", [md])
    sub = member_id("XYZ")
    add("m12-us-bcbs-csv", "medical/us", f"patient,insurer,subscriber_id,group_number,copay\nJ. Miller,BCBS,{sub},{(g := str(R.randint(100000, 999999)))},25\n", [sub, g])
    au = au_medicare()
    add("m13-au-medicare", "medical/au", f"Patient registration\nName: Chloe Wilson\nMedicare card number: {au}\nValid to: 08/2028\nDVA: n/a\n", [au])
    on = ohip()
    add("m14-ca-ohip", "medical/ca", f"Ontario Health Insurance Plan\nHealth card number: {on}\nDOB: 1988-05-14\nClinic phone: 416-555-0199\n", [on])
    bc = bc_phn()
    add("m15-ca-bc-phn", "medical/ca", f"BC Services Card\nPersonal Health Number (PHN): {bc}\nName: Liam Tremblay\n", [bc])
    rq = ramq()
    add("m16-ca-ramq", "medical/ca", f"Carte d'assurance maladie (RAMQ)\nNuméro d'assurance maladie : {rq}\nExpiration : 2027-03\n", [rq])
    sv = svnr()
    add("m17-at-ecard", "medical/at", f"e-card\nName: Lukas Huber\nVersicherungsnummer: {sv}\nKartenfolgenummer: 80040 00000 01234 56789\n", [sv])
    bsn1 = bsn()
    add("m18-nl-zorg", "medical/nl", f"Zorgpas Zilveren Kruis\nNaam: E. de Vries\nBSN: {bsn1}\nPolisnummer: {(pn := str(R.randint(100000000, 999999999)))}\n"
        "Klantenservice: 071 751 00 52\n", [bsn1, pn])
    be = belgian_nn()
    add("m19-be-mutuelle", "medical/be", f"Mutualité chrétienne — vignette\nNISS : {be}\nN° d'affiliation : {(af := str(R.randint(1000000, 9999999)))}\n", [be, af])
    vit = nir()
    add("m20-fr-vitale", "medical/fr", f"Bonjour Docteur,\nvoici mon numéro de carte Vitale pour la téléconsultation : {vit}.\nMutuelle : Harmonie, adhérent n° {(ad := str(R.randint(10000000, 99999999)))}.\n", [vit, ad])
    pol = f"{R.randint(100, 999)}-{R.randint(100000, 999999)}-{R.randint(10, 99)}"
    add("m21-de-zusatz", "medical/de", f"Allianz Private Krankenversicherung\nVersicherungsschein-Nr.: {pol}\nVersicherte Person: Sophie Müller\n"
        "Beitrag: 48,90 EUR monatlich\nIhr Zeichen: Schreiben vom 12.01.2026\n", [pol])
    pl = f"{R.randint(10000000, 99999999)}"
    add("m22-pl-polisa", "medical/pl", f"Polisa ubezpieczenia zdrowotnego\nNumer polisy: {pl}\nUbezpieczony: Anna Kowalska, PESEL {(pp := pesel())}\n", [pl, pp])
    cz = rodne_cislo()
    add("m23-cz-pojistenec", "medical/cz", f"Průkaz pojištěnce VZP\nČíslo pojištěnce: {cz.replace('/', '')}\nPlatnost do: 31.12.2028\n", [cz.replace("/", "")])
    es = f"BBBB{R.randint(100000000000, 999999999999)}"
    add("m24-es-tsi", "medical/es", f"Tarjeta sanitaria individual (SERMAS)\nCIPA / código de identificación: {es}\nNº de la Seguridad Social: 28 {R.randint(10000000, 99999999)} {R.randint(10, 99)}\n", [es])
    it = f"{R.randint(100000000, 999999999)}"
    add("m25-it-polizza", "medical/it", f"UniSalute — numero di polizza: {it}\nAssistito: Marco Rossi\nNumero verde: 800 822 492\n", [it])
    se = f"{R.randint(1000000, 9999999)}"
    add("m26-se-forsakring", "medical/se", f"Sjukvårdsförsäkring, Skandia\nFörsäkringsnummer: {se}\nFörsäkrad: Lars Nilsson\n", [se])
    ch = f"{R.randint(100, 999)}.{R.randint(1000, 9999)}.{R.randint(1000, 9999)}"
    add("m27-ch-kk", "medical/ch", f"Versichertenkarte CSS\nVersichertennummer: {ch}\nAHV-Nr.: {(ah := ahv())}\n", [ch, ah])
    j = f"{R.randint(10000000, 99999999)}"
    add("m28-jp-hoken", "medical/jp", f"健康保険被保険者証\n記号 1234 番号 56\n保険者番号：{j}\n氏名：佐藤 陽斗\n", [j])


def medical_lookalikes() -> None:
    add("ml01-appointment", "ordinary/medical", "Appointment confirmation\nReference: APT-2026-04471\nClinic phone: 020 7946 0018\n"
        "Room 12, 2nd floor\nPlease arrive 10 minutes early.\n", [])
    add("ml02-nhs-bad", "ordinary/medical", f"Order number {bad(nhs().replace(' ', ''))} has been dispatched.\n", [])
    add("ml03-insurer-hotline", "ordinary/medical", "Techniker Krankenkasse\nServicetelefon: 0800 285 85 85\nIK-Nummer der Praxis: 260326822\n"
        "Rechnungsnummer: 2026-00417\n", [])
    add("ml04-policy-explainer", "ordinary/medical", "Where is my policy number? It is printed on page 1 of your insurance certificate, "
        "top right, next to the date.\n", [])
    add("ml05-icd", "ordinary/medical", "Diagnose: J06.9 G, Z00.0\nOPS: 5-470.11\nPZN 04114918\nDosierung: 1-0-1\n", [])
    add("ml06-lab", "ordinary/medical", "Laborwerte 12.01.2026\nHb 13.8 g/dl\nLeukozyten 6.2 /nl\nCRP < 5 mg/l\nProbe-Nr. 26011204471\n", [])
    add("ml07-medicare-explainer", "ordinary/medical", "Your Medicare Number (MBI) has 11 characters, like 1EG4-TE5-MK73 on the sample card.\n", [])
    add("ml08-group-rx", "ordinary/medical", "Pharmacy receipt\nRx #: 7712034\nQty: 30\nRefills: 2\nStore #: 04471\nPhone: 555-201-3344\n", [])
    add("ml09-ehic-explainer", "ordinary/medical", "Die EHIC ist die Rückseite der Gesundheitskarte. Feld 8 enthält die Kennnummer der Karte.\n", [])
    add("ml10-insurance-claim", "ordinary/medical", "Schadenmeldung\nDatum: 12.01.2026\nBetrag: 1.234,00 EUR\nTelefon: 089 1234 5678\n"
        "Aktenzeichen wird nach Eingang vergeben.\n", [])
    add("ml11-vitale-explainer", "ordinary/medical", "Le numéro de sécurité sociale compte 15 chiffres : sexe, année et mois de naissance, "
        "département, commune, rang et clé.\n", [])
    add("ml12-au-phone", "ordinary/medical", "Medicare enquiries: 132 011\nBulk-billing clinic, ABN 51 824 753 556\nInvoice 20260112\n", [])


# == batch 1: TAN lists of Austrian, Swiss, Polish and Czech banks =========================

def tan_codes(n: int, width: int = 6) -> list[str]:
    return [f"{R.randint(0, 10 ** width - 1):0{width}d}" for _ in range(n)]


def grid(indexes: list[str], codes: list[str], cols: int, sep: str = "  ", pair: str = " ") -> str:
    rows = []
    per = len(codes) // cols
    for r in range(per):
        rows.append(sep.join(f"{indexes[c * per + r]}{pair}{codes[c * per + r]}" for c in range(cols)))
    return "\n".join(rows) + "\n"


def tan_documents() -> None:
    c = tan_codes(12)
    add("t01-at-index-tan", "tan/at", "Erste Bank – netbanking\nIndex-TAN-Liste Nr. 0042 (gültig ab Erhalt)\n\nIndex  TAN     Index  TAN\n"
        + grid([f"{i:03d}" for i in range(1, 13)], c, 2, "   ", "    "), c)
    c = tan_codes(9, 5)
    add("t02-at-streichliste", "tan/at", "RAIFFEISENBANK – ELBA\nStreichliste 3/2025\nBitte jede Nummer nach Verwendung streichen.\n\n"
        + "".join(f"{i:02d} - {x}\n" for i, x in enumerate(c, 1)), c)
    c = tan_codes(8)
    add("t03-at-table", "tan/at", "Meine TANs (BAWAG)\n| Nr. | TAN | Nr. | TAN |\n|---|---|---|---|\n"
        + "".join(f"| {i} | {c[i - 1]} | {i + 4} | {c[i + 3]} |\n" for i in range(1, 5)), c)
    c = tan_codes(6)
    add("t04-at-note", "tan/at", "Notiz: TAN-Liste vom Konto bei der Volksbank abgeschrieben (Original im Safe)\n"
        + "".join(f"Nr {i}: {x}   " + ("\n" if i % 3 == 0 else "") for i, x in enumerate(c, 1)), c)
    c = tan_codes(10, 5)
    add("t05-ch-streichliste", "tan/ch", "PostFinance – Streichliste\nVertragsnummer: 42-123456-7 (nicht geheim)\n\n"
        + grid([f"{i:02d}" for i in range(1, 11)], c, 2, " | ", ": "), c)
    c = tan_codes(8, 6)
    add("t06-ch-codeliste-fr", "tan/ch", "Banque Cantonale Vaudoise\nListe de codes d'accès (à biffer après usage)\n"
        + "".join(f"Code n° {i:02d} : {x}\n" for i, x in enumerate(c, 1)), c)
    c = tan_codes(16, 4)
    add("t07-ch-matrix", "tan/ch", "Zugangs-Matrixkarte (UBS, alt)\n    A     B     C     D\n"
        + "".join(f"{r}   " + "  ".join(c[(r - 1) * 4 + k] for k in range(4)) + "\n" for r in range(1, 5)), c)
    add("t07b-ch-matrix-note", "tan/ch", "Codes der Streichliste (Raiffeisen Schweiz)\n1. 734 291\n2. 118 530\n3. 902 447\n4. 365 108\n",
        ["734 291", "118 530", "902 447", "365 108"])
    c = tan_codes(10, 4)
    add("t08-pl-karta", "tan/pl", "KARTA KODÓW JEDNORAZOWYCH nr 00417\nBank Pekao SA\n\nNr  Kod    Nr  Kod\n"
        + grid([f"{i:02d}" for i in range(1, 11)], c, 2, "   ", "  "), c)
    c = tan_codes(6, 6)
    add("t09-pl-lista-hasel", "tan/pl", "Lista haseł jednorazowych (mBank)\n"
        + "".join(f"hasło {i}: {x}\n" for i, x in enumerate(c, 1)), c)
    c = tan_codes(5, 6)
    add("t10-pl-kody-note", "tan/pl", "kody jednorazowe do banku – przepisane z karty\n"
        + "".join(f"{i}) {x}\n" for i, x in enumerate(c, 1)), c)
    k = tan_codes(1)[0]
    add("t11-pl-kod-nr", "tan/pl", f"Bank prosi o kod jednorazowy nr 27 z karty kodów – to jest {k}.\n", [k])
    c = tan_codes(8, 6)
    add("t12-cz-tan", "tan/cz", "Komerční banka – Seznam TAN kódů\nČíslo karty: 0042\n\nPoř. č.  Kód\n"
        + "".join(f"{i:>2}.      {x}\n" for i, x in enumerate(c, 1)), c)
    c = tan_codes(9, 5)
    add("t13-cz-transakcni", "tan/cz", "Transakční kódy (ČSOB)\n"
        + grid([f"č. {i}" for i in range(1, 10)], c, 3, "    ", " – "), c)
    c = tan_codes(6, 6)
    add("t14-cz-autorizacni", "tan/cz", "autorizační kódy pro platby (Fio):\n"
        + "".join(f"{i:02d}/{x}  " for i, x in enumerate(c, 1)) + "\n", c)
    c = tan_codes(12, 6)
    add("t15-generic-3col", "tan/at", "TAN-Liste\n" + grid([f"{i:02d}" for i in range(1, 13)], c, 3, "\t", "\t"), c)
    c = tan_codes(6, 6)
    add("t16-sk-kody", "tan/cz", "Zoznam jednorazových kódov (Tatra banka)\n"
        + "".join(f"{i:02d} {x}\n" for i, x in enumerate(c, 1)), c)


def tan_lookalikes() -> None:
    add("tl01-price-list", "ordinary/tan", "Preisliste 2026\nNr  Artikel     Preis\n01  Kaffee      2,80\n02  Tee         2,40\n"
        "03  Kuchen      3,90\n", [])
    add("tl02-tan-explainer", "ordinary/tan", "Die Streichliste wurde 2012 abgeschafft. Heute kommt die TAN per pushTAN-App oder "
        "chipTAN-Generator.\n", [])
    add("tl03-pl-timetable", "ordinary/tan", "Rozkład jazdy – linia 52\n01  0512  0542\n02  0612  0642\n03  0712  0742\n", [])
    add("tl04-cz-invoice", "ordinary/tan", "Faktura č. 2026004417\nPoř. č.  Položka        Cena\n1.       konzultace     4500\n"
        "2.       cestovné        820\n", [])
    add("tl05-scores", "ordinary/tan", "Results\n1. 48213 points\n2. 47190 points\n3. 45022 points\n", [])
    add("tl06-kod-explainer", "ordinary/tan", "Karta kodów jednorazowych to papierowa lista numerowanych kodów; bank prosi o kod o "
        "konkretnym numerze. Dziś zastąpiły ją powiadomienia w aplikacji.\n", [])
    add("tl07-postcodes", "ordinary/tan", "Filialen\n01  8004 Zürich\n02  3011 Bern\n03  1003 Lausanne\n04  6900 Lugano\n", [])
    add("tl08-matrix-stock", "ordinary/tan", "Lagerbestand\n    A     B     C     D\n1   1200  0340  0075  0910\n2   0045  1180  0600  0012\n", [])


# == batch 1: one-time codes in chats and backup codes in notes ============================

def otp() -> str:
    return f"{R.randint(100000, 999999)}"


def otp_documents() -> None:
    rows = [
        ("o01-en-sms", "otp/en", "Your Amazon verification code is {c}. Don't share it with anyone.", None),
        ("o02-en-chat", "otp/en", "[10:42] Mum: a text came, what do I do\n[10:42] Mum: it says your code is {c}\n[10:43] Me: don't send it to anyone!!", None),
        ("o03-de-sms", "otp/de", "Dein Bestätigungscode lautet {c}. Er ist 10 Minuten gültig.", None),
        ("o04-de-chat", "otp/de", "12.01.26, 09:14 - Oma: Was ist das? \"Ihr Sicherheitscode: {c}\"\n12.01.26, 09:15 - Jonas: Nicht weitergeben!", None),
        ("o05-pl-sms", "otp/pl", "Twój kod weryfikacyjny to {c}. Nie podawaj go nikomu.", None),
        ("o06-pl-bank", "otp/pl", "PKO BP: Kod SMS do operacji nr 3 z dnia 12-01-2026: {c}. Przelew na kwotę 150,00 PLN.", None),
        ("o07-cs-sms", "otp/cs", "Váš ověřovací kód je {c}. Platnost 5 minut.", None),
        ("o08-sk-sms", "otp/sk", "Overovací kód: {c}", None),
        ("o09-fr-sms", "otp/fr", "Votre code de vérification est {c}. Ne le communiquez à personne.", None),
        ("o10-es-sms", "otp/es", "Tu código de verificación es {c}", None),
        ("o11-pt-sms", "otp/pt", "Seu código de confirmação do Nubank: {c}", None),
        ("o12-it-sms", "otp/it", "Il tuo codice di verifica è {c}. Scade tra 10 minuti.", None),
        ("o13-nl-sms", "otp/nl", "Je verificatiecode is {c}", None),
        ("o14-sv-sms", "otp/sv", "Din engångskod är {c}", None),
        ("o15-no-sms", "otp/no", "Engangskoden din er {c}", None),
        ("o16-da-sms", "otp/da", "Din bekræftelseskode: {c}", None),
        ("o17-fi-sms", "otp/fi", "Vahvistuskoodisi on {c}", None),
        ("o18-tr-sms", "otp/tr", "Doğrulama kodunuz: {c}. Bu kodu kimseyle paylaşmayın.", None),
        ("o19-ru-sms", "otp/ru", "Код подтверждения: {c}. Никому не сообщайте.", None),
        ("o20-uk-sms", "otp/uk", "Ваш код підтвердження {c}", None),
        ("o21-zh-sms", "otp/zh", "【淘宝】验证码{c}，5分钟内有效，请勿泄露。", None),
        ("o22-ja-sms", "otp/ja", "LINEの認証番号は{c}です。", None),
        ("o23-ko-sms", "otp/ko", "[Web발신] 인증번호 [{c}]를 입력해주세요.", None),
        ("o24-hu-sms", "otp/hu", "Az ellenőrző kódod: {c}", None),
        ("o25-ro-sms", "otp/ro", "Codul tău de verificare este {c}", None),
        ("o26-el-sms", "otp/el", "Ο κωδικός επαλήθευσης είναι {c}", None),
        ("o27-vi-sms", "otp/vi", "Mã xác thực của bạn là {c}. Không chia sẻ mã này.", None),
        ("o28-id-sms", "otp/id", "Kode verifikasi Anda: {c}. Jangan berikan kode ini kepada siapa pun.", None),
    ]
    for id_, kind, tmpl, _ in rows:
        c = otp()
        add(id_, kind, tmpl.format(c=c) + "\n", [c])
    c = otp()
    s = f"{c[:3]} {c[3:]}"
    add("o29-split-space", "otp/en", f"WhatsApp code: {s}\nYou can also tap on this link to verify your phone.\n", [s])
    c = otp()
    s = f"{c[:3]}-{c[3:]}"
    add("o30-split-dash", "otp/en", f"{s} is your Facebook confirmation code\n", [s])
    c = otp()
    add("o31-code-first-de", "otp/de", f"{c} ist dein Anmeldecode für Instagram.\n", [c])
    c = otp()
    add("o32-chat-forward", "otp/en", f"[2026-01-12 09:14] Kevin: can you read me the code that just came to your phone?\n"
        f"[2026-01-12 09:15] Lisa: 'G-{c}' i think\n", [c])
    c, d = otp(), otp()
    add("o33-signal-two", "otp/de", f"Sophie: der Code von der Sparkasse ist {c}\nSophie: ach nee, neuer: {d}\n", [c, d])
    codes = [f"{R.randint(1000, 9999)}-{R.randint(1000, 9999)}" for _ in range(8)]
    add("o34-backup-notes-de", "otp/backup", "Notizen – Microsoft-Konto\nSicherungscodes (jeweils nur einmal nutzbar):\n"
        + "\n".join(codes) + "\n", codes)
    codes = ["".join(R.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(10)) for _ in range(6)]
    add("o35-backup-notes-fr", "otp/backup", "Codes de secours Dropbox :\n" + "\n".join(codes) + "\n", codes)
    codes = [f"{R.randint(10000000, 99999999)}" for _ in range(5)]
    add("o36-backup-pl", "otp/backup", "Kody zapasowe Google (konto firmowe)\n" + "  ".join(codes) + "\n", codes)
    codes = [f"{R.randint(100000, 999999)}" for _ in range(6)]
    add("o37-backup-es", "otp/backup", "códigos de respaldo de Instagram: " + ", ".join(codes) + "\n", codes)
    codes = ["".join(R.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8)) for _ in range(5)]
    add("o38-backup-en-inline", "otp/backup", "twitter 2fa backup: " + " ".join(codes) + " (used the first one in march)\n", codes)


def otp_lookalikes() -> None:
    add("ol01-order", "ordinary/otp", "Your order 482913 has shipped. Track it at the carrier's site.\n", [])
    add("ol02-error", "ordinary/otp", "Error code 502 from the gateway; retry in 30 seconds. Exit code 137.\n", [])
    add("ol03-promo", "ordinary/otp", "Use promo code SAVE20 at checkout. Gutscheincode: WINTER2026.\n", [])
    add("ol04-expiry-note", "ordinary/otp", "The verification code expires after 10 minutes; request a new one if it did.\n", [])
    add("ol05-de-chat", "ordinary/otp", "12.01.26, 09:14 - Oma: Der Bus kommt um 1015\n12.01.26, 09:15 - Jonas: Linie 482, Steig 3\n", [])
    add("ol06-postcode", "ordinary/otp", "Kod pocztowy: 31-052 Kraków. Kod kreskowy produktu: 5901234123457.\n", [])
    add("ol07-ticket", "ordinary/otp", "Ticket #482913 was closed by the support team.\nCase number: 00482913\n", [])
    add("ol08-phone", "ordinary/otp", "Call me on 482 913 0071 after 5.\n", [])
    add("ol09-zh-order", "ordinary/otp", "订单号：482913，已发货。客服电话：400-123-4567\n", [])
    add("ol10-backup-explainer", "ordinary/otp", "Backup codes: each code works once. Keep them somewhere safe, for example in your "
        "password manager. Generate new codes if you lose them.\n", [])
    add("ol11-cs-cena", "ordinary/otp", "Kód produktu: 4471, cena 482 913 Kč včetně DPH.\n", [])
    add("ol12-sms-stats", "ordinary/otp", "SMS sent this month: 482913 (up 4% from 463100).\n", [])


# == batch 1: cards and bank details in unusual layouts; sheets and mails ==================

def bank_documents() -> None:
    c = card("4")
    s = "\n".join([c[:8], c[8:]])
    add("c01-card-two-lines", "bank/card", f"Karte für die Reise (Visa):\n{s}\nexp 09/28  cvv 417\n", [c[:8], c[8:], "417"])
    c = card("5")
    s = ".".join(grouped(c).split())
    add("c02-card-dots", "bank/card", f"mastercard {s} valid 11/27 CVC 082\n", [s, "082"])
    c = card("4")
    s = "/".join(grouped(c).split())
    add("c03-card-slashes", "bank/card", f"Card: {s}\nExpiry: 03/29\nSecurity code: 551\n", [s, "551"])
    c = card("37", 15)
    s = f"{c[:4]} {c[4:10]} {c[10:]}"
    add("c04-amex", "bank/card", f"Amex (Firmenkarte)\nNummer {s}\nGültig bis 07/27, CID 4821\n", [s, "4821"])
    c = card("4")
    s = "\n".join(grouped(c).split())
    add("c05-card-one-group-a-line", "bank/card", f"Kreditkarte Papa\n{s}\n12/26\nPrüfnummer 303\n", [*grouped(c).split(), "303"])
    c = card("5")
    s = "_".join(grouped(c).split())
    add("c06-card-underscores", "bank/card", f"card_number: {s}\ncard_cvc: 719\ncard_exp: 2028-04\n", [s, "719"])
    c = card("4")
    add("c07-card-table", "bank/card", "| Karte | Nummer | Ablauf | CVV |\n|---|---|---|---|\n"
        f"| Visa Gold | {grouped(c)} | 05/28 | 884 |\n", [grouped(c), "884"])
    c = card("4")
    s = grouped(c, 4, " - ")
    add("c08-card-dashes-spaced", "bank/card", f"pls pay the hotel with this one: {s}, exp. 10/27, cvv2 = 906\n", [s, "906"])
    c = card("5")
    add("c09-card-pl", "bank/card", f"Karta kredytowa: {grouped(c)}\nData ważności: 06/28\nKod CVV2: 215\n", [grouped(c), "215"])
    c = card("4")
    add("c10-card-cz", "bank/card", f"Číslo karty: {grouped(c)}\nPlatnost do: 02/27\nCVV: 631\n", [grouped(c), "631"])
    ib = iban("DE", f"{R.randint(10000000, 99999999)}{R.randint(1000000000, 9999999999)}")
    add("c11-iban-plain", "bank/iban", f"Bitte überweisen an {ib} (Kontoinhaber: S. Müller).\n", [ib])
    ib = iban("PL", f"{R.randint(10000000, 99999999)}{R.randint(10 ** 15, 10 ** 16 - 1)}")
    add("c12-iban-pl-table", "bank/iban", "| Nazwa | Numer rachunku |\n|---|---|\n"
        f"| Czynsz | {ib[:4]} {' '.join(grouped(ib[4:]).split())} |\n", [" ".join(grouped(ib[4:]).split())])
    ib = iban("CZ", f"0800{R.randint(10 ** 15, 10 ** 16 - 1)}")
    add("c13-iban-cz-groups-tab", "bank/iban", "Účet\tIBAN\nnájem\t" + "\t".join(grouped(ib).split()) + "\n", grouped(ib).split()[1:])
    ib = iban("AT", f"{R.randint(10000, 99999)}{R.randint(10 ** 10, 10 ** 11 - 1)}")
    add("c14-iban-at-lower", "bank/iban", f"iban: {ib.lower()}\nbic: bkauatww\n", [ib.lower()])
    ib = iban("CH", f"00762{R.randint(10 ** 11, 10 ** 12 - 1)}")
    add("c15-iban-ch-nextline", "bank/iban", f"IBAN\n{grouped(ib)}\nBIC UBSWCHZH80A\n", [grouped(ib)])
    sort, acct = f"{R.randint(10, 99)}-{R.randint(10, 99)}-{R.randint(10, 99)}", f"{R.randint(10000000, 99999999)}"
    add("c16-uk-sort-code", "bank/account", f"Hi, here are my bank details for the refund:\nSort code: {sort}\nAccount number: {acct}\nName: O. Smith\n", [sort, acct])
    sort, acct = f"{R.randint(10, 99)}{R.randint(10, 99)}{R.randint(10, 99)}", f"{R.randint(10000000, 99999999)}"
    add("c17-uk-inline", "bank/account", f"pay me back to {sort} / {acct} (Monzo) whenever\n", [sort, acct])
    rt, acct = aba(), f"{R.randint(10 ** 9, 10 ** 10 - 1)}"
    add("c18-us-routing", "bank/account", f"Direct deposit form\nBank: Chase\nRouting number: {rt}\nAccount number: {acct}\nAccount type: checking\n", [rt, acct])
    rt, acct = aba(), f"{R.randint(10 ** 7, 10 ** 8 - 1)}"
    add("c19-us-aba-acct", "bank/account", f"wire: ABA {rt}, acct # {acct}, Wells Fargo\n", [rt, acct])
    acct = f"{R.randint(1000, 9999)}-{R.randint(1000000, 9999999)}"
    add("c20-au-bsb", "bank/account", f"Bank details\nBSB: {(bsb := f'{R.randint(10, 99)}{R.randint(1, 9)}-{R.randint(100, 999)}')}\nAccount no: {acct}\n", [bsb, acct])
    cz = f"{R.randint(10, 999999)}-{R.randint(10 ** 9, 10 ** 10 - 1)}/0800"
    add("c21-cz-ucet", "bank/account", f"Číslo účtu: {cz}\nVariabilní symbol: 2026004417\n", [cz])
    pl = f"{R.randint(10, 99)} {R.randint(1000, 9999)} {R.randint(1000, 9999)} {R.randint(1000, 9999)} {R.randint(1000, 9999)} {R.randint(1000, 9999)} {R.randint(1000, 9999)}"
    add("c22-pl-nrb", "bank/account", f"Nr rachunku: {pl}\nTytuł przelewu: czynsz styczeń\n", [pl])
    c = card("4")
    add("c23-card-mail", "bank/card", f"Subject: booking\n\nDear Hotel Adler,\nplease guarantee the room with my card {c} (exp 08/27).\nKind regards\n", [c, "08/27"])
    c = card("5")
    add("c24-card-csv", "bank/card", f"name;card;exp;cvc\nFirma;{c};09/28;552\n", [c, "552"])
    c = card("4")
    add("c25-card-spaced-weird", "bank/card", f"cc:  {c[:4]}  {c[4:8]}  {c[8:12]}  {c[12:]}   09/26   123\n", [f"{c[:4]}  {c[4:8]}  {c[8:12]}  {c[12:]}"])


def sheet_documents() -> None:
    rows = [(n, ssn()) for n in ("Miller", "Davis", "Garcia")]
    add("s01-sheet-ssn-tsv", "sheet/us", "Name\tDept\tSocial Security No\tStart\n"
        + "".join(f"{n}\tOps\t{s}\t2025-01-0{i}\n" for i, (n, s) in enumerate(rows, 1)), [s for _, s in rows])
    p = [pesel() for _ in range(2)]
    add("s02-sheet-pesel-csv", "sheet/pl", "imie;nazwisko;pesel;stanowisko\n" + f"Anna;Kowalska;{p[0]};HR\nPiotr;Nowak;{p[1]};IT\n", p)
    ib = [iban("DE", f"{R.randint(10000000, 99999999)}{R.randint(1000000000, 9999999999)}") for _ in range(2)]
    add("s03-sheet-iban", "sheet/de", "Mitarbeiter,IBAN,Betrag\nMüller," + ib[0] + ",2450.00\nSchulz," + ib[1] + ",2810.50\n", ib)
    pins = [f"{R.randint(1000, 9999)}" for _ in range(3)]
    add("s04-sheet-pins", "sheet/en", "card holder,last4,card pin\nA. Smith,4417," + pins[0] + "\nB. Jones,0921," + pins[1] + "\nC. Brown,7780," + pins[2] + "\n", pins)
    t = [tckn() for _ in range(2)]
    add("s05-sheet-tckn", "sheet/tr", "Ad Soyad,TC Kimlik No,Departman\nAyşe Yılmaz," + t[0] + ",Muhasebe\nMehmet Kaya," + t[1] + ",Depo\n", t)
    b = [bsn() for _ in range(2)]
    add("s06-sheet-bsn", "sheet/nl", "naam\tbsn\tafdeling\nde Vries\t" + b[0] + "\tsales\nJansen\t" + b[1] + "\tsupport\n", b)
    n = [nhs() for _ in range(2)]
    add("s07-sheet-nhs", "sheet/uk", "patient,nhs_number,ward\nEvans," + n[0] + ",B4\nPatel," + n[1] + ",C2\n", n)
    acct = [f"{R.randint(10000000, 99999999)}" for _ in range(2)]
    add("s08-sheet-accounts", "sheet/uk", "payee,sort_code,account_number\nLandlord,20-00-00," + acct[0] + "\nBuilder,40-11-62," + acct[1] + "\n",
        ["20-00-00", "40-11-62", *acct])
    cf = codice_fiscale()
    add("s09-mail-it", "sheet/it", f"Oggetto: dati per busta paga\n\nBuongiorno,\nil codice fiscale di mia moglie è {cf} e l'IBAN lo mando a parte.\n", [cf])
    sv = svnr()
    add("s10-mail-at-reply", "sheet/at", f"> Bitte um Ihre Sozialversicherungsnummer\n\nGerne: {sv}\nMfG Huber\n", [sv])
    d = dni()
    add("s11-mail-es", "sheet/es", f"Hola Carmen, te paso mi número de DNI para la reserva: {d}. Un saludo.\n", [d])
    r = rodne_cislo()
    add("s12-sheet-cz", "sheet/cz", f"Jméno,Rodné číslo,Oddělení\nJan Novák,{r},sklad\n", [r])
    ahvs = [ahv(), ahv()]
    add("s13-sheet-ch", "sheet/ch", "Name | Vorname | AHV-Nr | Pensum\nHuber | Lukas | " + ahvs[0] + " | 80%\nMeier | Sandra | " + ahvs[1] + " | 100%\n", ahvs)
    c = [card("4") for _ in range(2)]
    add("s14-sheet-cards", "sheet/en", "employee,card_number,limit\nOps," + c[0] + ",5000\nSales," + c[1] + ",2500\n", c)


def bank_lookalikes() -> None:
    add("bl01-invoice", "ordinary/bank", "Rechnung Nr. 2026-004417\nKundennummer: 40071234\nBetrag: 1.234,56 EUR\n"
        "Zahlbar bis: 31.01.2026\nVerwendungszweck: RE 2026-004417\n", [])
    add("bl02-luhn-fail", "ordinary/bank", f"Tracking: {bad(card('4'))}\nParcel: 1Z 999 AA1 01 2345 6784\n", [])
    add("bl03-iban-explainer", "ordinary/bank", "A German IBAN has 22 characters: DE, two check digits, the 8-digit bank code and "
        "the 10-digit account number, e.g. DEkk BBBB BBBB CCCC CCCC CC.\n", [])
    add("bl04-isbn-ean", "ordinary/bank", "Buch: ISBN 978-3-16-148410-0, EAN 4006381333931, Preis 24,00 EUR\n", [])
    add("bl05-phone-table", "ordinary/bank", "| Filiale | Telefon | Öffnungszeiten |\n|---|---|---|\n| Mitte | 030 1234 5678 | 9-16 |\n"
        "| Nord | 030 8765 4321 | 9-18 |\n", [])
    add("bl06-amounts", "ordinary/bank", "Kontoauszug Januar\n02.01. Miete -1.250,00\n05.01. Gehalt +3.412,77\n12.01. Strom -86,40\n"
        "Saldo: 4.417,21\n", [])
    add("bl07-sort-code-explainer", "ordinary/bank", "A sort code has six digits (e.g. 12-34-56) and identifies the branch; "
        "an account number has eight.\n", [])
    add("bl08-routing-public", "ordinary/bank", f"Order ID {bad(card('5'))} was refunded on 2026-01-12.\nTransaction ID: 9f86d081884c7d659a2f\n", [])
    add("bl09-csv-products", "ordinary/bank", "sku,ean,price,stock\nAB-1204,4006381333931,24.00,12\nCD-0045,5901234123457,9.99,140\n", [])
    add("bl10-bic-list", "ordinary/bank", "BICs: COBADEFFXXX, DEUTDEFF, UBSWCHZH80A, BKAUATWW\nBLZ 370 400 44\n", [])
    add("bl11-sheet-hours", "ordinary/bank", "employee,week,hours,project_code\nMiller,2026-W02,38.5,4471\nDavis,2026-W02,40,4471\n", [])
    add("bl12-card-last4", "ordinary/bank", "Paid with Visa ending in 4417 on 12 Jan 2026. Auth code 00482B. Amount 42.00 EUR.\n", [])


def main() -> None:
    hr_documents()
    hr_lookalikes()
    medical_documents()
    medical_lookalikes()
    tan_documents()
    tan_lookalikes()
    otp_documents()
    otp_lookalikes()
    bank_documents()
    sheet_documents()
    bank_lookalikes()
    ids = [i["id"] for i in ITEMS]
    assert len(ids) == len(set(ids))
    for item in ITEMS:
        print(json.dumps(item, ensure_ascii=False))


if __name__ == "__main__":
    main()
