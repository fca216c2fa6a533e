"""The redactor on the fourth red team's open classes (docs/privacy.md, round 4): identity
numbers on HR forms, health and insurance numbers, TAN lists of Austrian, Swiss, Polish and
Czech banks, one-time and backup codes, cards and bank details in unusual layouts, and sheets
whose header names the secret. Each case is real-looking text in and its exact redaction out;
every secret's number is valid for its format (check digit, date of birth), and the
look-alikes beside them (invalid check digits, order, invoice, phone and tracking numbers,
ISBNs, EANs, IMEIs, examples in explanations) must stay as they are. The examples are new,
written for these tests (tests/redteam/round4_own.jsonl holds a larger set)."""

from __future__ import annotations

import pytest

from filegram.redact import redact
from filegram.redact.ids import FORMATS, card_network_ok

ID = "[REDACTED:ID_NUMBER]"
S = "[REDACTED:SECRET]"
C = "[REDACTED:CARD]"
IBAN = "[REDACTED:IBAN]"


def _exact(text: str, expected: str) -> None:
    assert redact(text) == expected
    assert redact(expected) == expected  # idempotent


@pytest.mark.parametrize("text,expected", [
    ("KWESTIONARIUSZ OSOBOWY\nImię i nazwisko: Anna Nowak\nPESEL: 70031307911\nTel.: +48 601 234 567\n",
     f"KWESTIONARIUSZ OSOBOWY\nImię i nazwisko: Anna Nowak\nPESEL: {ID}\nTel.: +48 601 234 567\n"),
    ("Rodné číslo: 580811/6270\nČíslo OP: 204518733\n", f"Rodné číslo: {ID}\nČíslo OP: 204518733\n"),
    ("Personalblatt\nAHV-Nr.: 756.1815.9083.09\nPLZ/Ort: 8004 Zürich\n", f"Personalblatt\nAHV-Nr.: {ID}\nPLZ/Ort: 8004 Zürich\n"),
    ("Versicherungsnummer: 2311 140755\nDienstgeberkontonummer: 983412\n", f"Versicherungsnummer: {ID}\nDienstgeberkontonummer: 983412\n"),
    ("Partner: Daan de Vries (burgerservicenummer 960913907)\n", f"Partner: Daan de Vries (burgerservicenummer {ID})\n"),
    ("Numéro de registre national: 86.10.13-051.77\n", f"Numéro de registre national: {ID}\n"),
    ("N° de sécurité sociale : 1 64 01 38 430 148 22\nTéléphone : 06 12 34 56 78\n",
     f"N° de sécurité sociale : {ID}\nTéléphone : 06 12 34 56 78\n"),
    ("per il contratto mi serve il tuo CF: VRDCPP84B59H382A. Grazie!\n", f"per il contratto mi serve il tuo CF: {ID}. Grazie!\n"),
    ("DNI: 23076910K\nCónyuge: NIE Z2053424N\n", f"DNI: {ID}\nCónyuge: NIE {ID}\n"),
    ("Número de contribuinte — 193786575\n", f"Número de contribuinte — {ID}\n"),
    ("Sozialversicherungsnummer: 65 170839 J 003\nSteuerklasse: IV\n", f"Sozialversicherungsnummer: {ID}\nSteuerklasse: IV\n"),
    ("Hi Sam, my N.I. number is NT 46 87 19 A if payroll needs it.\n", f"Hi Sam, my N.I. number is {ID} if payroll needs it.\n"),
    ("PPS Number: 8625276W\n", f"PPS Number: {ID}\n"),
    ("Personnummer: 521103-7824\nMobil: 070-123 45 67\n", f"Personnummer: {ID}\nMobil: 070-123 45 67\n"),
    ("Fødselsnummer: 26108544855\n", f"Fødselsnummer: {ID}\n"),
    ("Henkilötunnus: 110602A713E\n", f"Henkilötunnus: {ID}\n"),
    ("Isikukood: 47210160707\n", f"Isikukood: {ID}\n"),
    ("CNP: 6030209456812\nSerie CI: RX 123456\n", f"CNP: {ID}\nSerie CI: RX 123456\n"),
    ("ЕГН: 5401247180\n", f"ЕГН: {ID}\n"),
    ("OIB: 59746507524\n", f"OIB: {ID}\n"),
    ("EMŠO: 1602989500604\n", f"EMŠO: {ID}\n"),
    ("ΑΜΚΑ: 05056340564\n", f"ΑΜΚΑ: {ID}\n"),
    ("T.C. Kimlik No: 76712768408\n", f"T.C. Kimlik No: {ID}\n"),
    ("מספר זהות: 168465631\n", f"מספר זהות: {ID}\n"),
    ('{"nome": "Ana Souza", "cpf": "212.233.079-13"}\n', f'{{"nome": "Ana Souza", "cpf": "{ID}"}}\n'),
    ("Adjunto mi CURP BERR610510MPLNGZ03 y comprobante.\n", f"Adjunto mi CURP {ID} y comprobante.\n"),
    ("CUIL: 23-13623401-3\nRUT: 20.322.420-6\n", f"CUIL: {ID}\nRUT: {ID}\n"),
    ("Aadhaar No.: 8666 1760 3134\nPAN: OFDPM1861D\n", f"Aadhaar No.: {ID}\nPAN: {ID}\n"),
    ("身份证号码：330106195010051032\n", f"身份证号码：{ID}\n"),
    ("個人番号（マイナンバー）：6901 3962 4595\n", f"個人番号（マイナンバー）：{ID}\n"),
    ("주민등록번호: 730804-1639727\n", f"주민등록번호: {ID}\n"),
    ("Identity number\n7908165109080\n", f"Identity number\n{ID}\n"),
    ("Tax file number: 216 372 651\nSocial Insurance Number (SIN): 767 612 229\n", f"Tax file number: {ID}\nSocial Insurance Number (SIN): {ID}\n"),
    ("SSN: 128-29-8624\nSpouse: ITIN 983-78-8771\n", f"SSN: {ID}\nSpouse: ITIN {ID}\n"),
    ("[14:02] Elif: İK kimlik numaranı istiyor\n[14:03] Murat: 76712768408 bu\n",
     f"[14:02] Elif: İK kimlik numaranı istiyor\n[14:03] Murat: {ID} bu\n"),
    # look-alikes: no label, a failing check digit under a weak label, order and phone numbers, examples
    ("Bestellnummer: 30245518973\nRechnungsnummer: 2026-004417\nSendungsnummer: 00340434161094042557\n",
     "Bestellnummer: 30245518973\nRechnungsnummer: 2026-004417\nSendungsnummer: 00340434161094042557\n"),
    ("Numer zamówienia: 79082302961\nKod pocztowy: 31-052\n", "Numer zamówienia: 79082302961\nKod pocztowy: 31-052\n"),
    ("Reading list: ISBN 978-3-16-148410-0, ISBN-13: 9780306406157\n", "Reading list: ISBN 978-3-16-148410-0, ISBN-13: 9780306406157\n"),
    ("Your National Insurance number looks like QQ 12 34 56 C.\n", "Your National Insurance number looks like QQ 12 34 56 C.\n"),
    ("Die AHV-Nummer hat 13 Stellen (756.XXXX.XXXX.XX).\n", "Die AHV-Nummer hat 13 Stellen (756.XXXX.XXXX.XX).\n"),
    ("CF: 12345678901 (numero cliente)\n", "CF: 12345678901 (numero cliente)\n"),
    ("Código postal: 28013 Madrid\nKód produktu: 4471\n", "Código postal: 28013 Madrid\nKód produktu: 4471\n"),
    ("2026-01-05T09:14:22Z login ok\nrelease 4.12.10-2 (build 20260105)\n", "2026-01-05T09:14:22Z login ok\nrelease 4.12.10-2 (build 20260105)\n"),
])
def test_identity_numbers_on_forms(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("Re: Olivia Smith, DOB 21/09/1992, NHS No: 428 820 0180\nHospital number: RX4471\n",
     f"Re: Olivia Smith, DOB 21/09/1992, NHS No: {ID}\nHospital number: RX4471\n"),
    ("Krankenversichertennummer: X263304343\nBei Fragen: 040 460 66 10 40\n", f"Krankenversichertennummer: {ID}\nBei Fragen: 040 460 66 10 40\n"),
    ("8 Kennnummer der Karte: 80276326865635515058\n9 Ablaufdatum: 31/12/2029\n", f"8 Kennnummer der Karte: {ID}\n9 Ablaufdatum: 31/12/2029\n"),
    ("MEDICARE HEALTH INSURANCE\nMedicare Number: 9J49-NK8-RF05\n", f"MEDICARE HEALTH INSURANCE\nMedicare Number: {ID}\n"),
    ("Member ID: W291004511\nGroup #: 0852736-10-001\nCustomer service: 1-888-802-3862\n",
     f"Member ID: {ID}\nGroup #: {ID}\nCustomer service: 1-888-802-3862\n"),
    ("Medicare card number: 5986 82820 9\n", f"Medicare card number: {ID}\n"),
    ("Hi, my OHIP # is 9072-902-225-PT, sorry.\n", f"Hi, my OHIP # is {ID}, sorry.\n"),
    ("Personal Health Number (PHN): 9180 588 879\n", f"Personal Health Number (PHN): {ID}\n"),
    ("Numéro d'assurance maladie : TTBM 5466 5071\n", f"Numéro d'assurance maladie : {ID}\n"),
    ("Zorgpas\nPolisnummer: 402119835\nKlantenservice: 071 751 00 52\n", f"Zorgpas\nPolisnummer: {ID}\nKlantenservice: 071 751 00 52\n"),
    ("patient,nhs_number,ward\nEvans,428 820 0180,B4\n", f"patient,nhs_number,ward\nEvans,{ID},B4\n"),
    # look-alikes
    ("Appointment reference: APT-2026-04471\nClinic phone: 020 7946 0018\n", "Appointment reference: APT-2026-04471\nClinic phone: 020 7946 0018\n"),
    ("Order number 9434765912 has been dispatched.\n", "Order number 9434765912 has been dispatched.\n"),
    ("Your Medicare Number (MBI) has 11 characters, like 1EG4-TE5-MK73 on the sample card.\n",
     "Your Medicare Number (MBI) has 11 characters, like 1EG4-TE5-MK73 on the sample card.\n"),
    ("Laborwerte: Probe-Nr. 26011204471, PZN 04114918\n", "Laborwerte: Probe-Nr. 26011204471, PZN 04114918\n"),
])
def test_health_and_insurance_numbers(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("RAIFFEISENBANK – ELBA\nStreichliste 3/2025\nBitte jede Nummer nach Verwendung streichen.\n\n01 - 48291\n02 - 77310\n",
     f"RAIFFEISENBANK – ELBA\nStreichliste 3/2025\nBitte jede Nummer nach Verwendung streichen.\n\n01 - {S}\n02 - {S}\n"),
    ("PostFinance – Streichliste\n01: 48291 | 03: 11802\n02: 90417 | 04: 33051\n",
     f"PostFinance – Streichliste\n01: {S} | 03: {S}\n02: {S} | 04: {S}\n"),
    ("Codeliste (Zürcher Kantonalbank)\nNr. 01 – 583920\nNr. 02 – 104773\n", f"Codeliste (Zürcher Kantonalbank)\nNr. 01 – {S}\nNr. 02 – {S}\n"),
    ("Zugangs-Matrixkarte\n    A     B     C\n1   1204  8831  0457\n2   7720  3318  9046\n",
     f"Zugangs-Matrixkarte\n    A     B     C\n1   {S}  {S}  {S}\n2   {S}  {S}  {S}\n"),
    ("KARTA KODÓW JEDNORAZOWYCH nr 00417\n\nNr  Kod    Nr  Kod\n01  4829   03  1180\n02  9041   04  3305\n",
     f"KARTA KODÓW JEDNORAZOWYCH nr 00417\n\nNr  Kod    Nr  Kod\n01  {S}   03  {S}\n02  {S}   04  {S}\n"),
    ("Lista kodów jednorazowych\nPoz. 1 – 4839\nPoz. 2 – 1102\n", f"Lista kodów jednorazowych\nPoz. 1 – {S}\nPoz. 2 – {S}\n"),
    ("Karta kodów (Santander)\nKod nr 1: 520 679\nKod nr 2: 668 075\n", f"Karta kodów (Santander)\nKod nr 1: {S}\nKod nr 2: {S}\n"),
    ("Transakční kódy (ČSOB)\nč. 1 – 48291    č. 3 – 90417\nč. 2 – 77310    č. 4 – 33051\n",
     f"Transakční kódy (ČSOB)\nč. 1 – {S}    č. 3 – {S}\nč. 2 – {S}    č. 4 – {S}\n"),
    ("autorizační kódy pro platby:\n01/483920  02/118274  03/902447\n", f"autorizační kódy pro platby:\n01/{S}  02/{S}  03/{S}\n"),
    ("Meine restlichen TANs: 21) 212078, 22) 414807\n", f"Meine restlichen TANs: 21) {S}, 22) {S}\n"),
    # look-alikes
    ("Preisliste 2026\nNr  Artikel     Preis\n01  Kaffee      2,80\n", "Preisliste 2026\nNr  Artikel     Preis\n01  Kaffee      2,80\n"),
    ("Die Streichliste wurde 2012 abgeschafft. Heute kommt die TAN per App.\n",
     "Die Streichliste wurde 2012 abgeschafft. Heute kommt die TAN per App.\n"),
    ("Lagerbestand\n    A     B     C     D\n1   1200  0340  0075  0910\n", "Lagerbestand\n    A     B     C     D\n1   1200  0340  0075  0910\n"),
    ("Rozkład jazdy – linia 52\n01  0512  0542\n02  0612  0642\n", "Rozkład jazdy – linia 52\n01  0512  0542\n02  0612  0642\n"),
])
def test_tan_lists_of_other_banks(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("Twój kod weryfikacyjny to 482913. Nie podawaj go nikomu.\n", f"Twój kod weryfikacyjny to {S}. Nie podawaj go nikomu.\n"),
    ("Váš ověřovací kód je 482 913.\n", f"Váš ověřovací kód je {S}.\n"),
    ("Il tuo codice di verifica è 771204.\n", f"Il tuo codice di verifica è {S}.\n"),
    ("Din engångskod är 639120\n", f"Din engångskod är {S}\n"),
    ("Vahvistuskoodisi on 550318\n", f"Vahvistuskoodisi on {S}\n"),
    ("Doğrulama kodunuz: 903114.\n", f"Doğrulama kodunuz: {S}.\n"),
    ("【淘宝】验证码547143，5分钟内有效。\n", f"【淘宝】验证码{S}，5分钟内有效。\n"),
    ("LINEの認証番号は884590です。\n", f"LINEの認証番号は{S}です。\n"),
    ("PKO BP: Kod SMS do operacji nr 3 z dnia 12-01-2026: 417725.\n", f"PKO BP: Kod SMS do operacji nr 3 z dnia 12-01-2026: {S}.\n"),
    ("Ihre mobileTAN für die Überweisung über 250,00 EUR lautet: 190850\n", f"Ihre mobileTAN für die Überweisung über 250,00 EUR lautet: {S}\n"),
    ("482-913 is your Facebook confirmation code\n", f"{S} is your Facebook confirmation code\n"),
    ("Use 473 680 to sign in to your Microsoft account.\n", f"Use {S} to sign in to your Microsoft account.\n"),
    ("[09:12] Tata: podaj mi kod BLIK\n[09:13] Kasia: 559829\n", f"[09:12] Tata: podaj mi kod BLIK\n[09:13] Kasia: {S}\n"),
    ("Sicherungscodes (jeweils nur einmal nutzbar):\n4821-7730\n1904-5521\n", f"Sicherungscodes (jeweils nur einmal nutzbar):\n{S}\n{S}\n"),
    ("códigos de respaldo de Instagram: 402118, 773019, 551207\n", f"códigos de respaldo de Instagram: {S}, {S}, {S}\n"),
    # look-alikes
    ("Your order 482913 has shipped.\nTicket #482913 was closed.\n", "Your order 482913 has shipped.\nTicket #482913 was closed.\n"),
    ("The verification code expires after 10 minutes.\nError code 502, exit code 137.\n",
     "The verification code expires after 10 minutes.\nError code 502, exit code 137.\n"),
    ("Call me on 482 913 0071 after 5.\n", "Call me on 482 913 0071 after 5.\n"),
    ("If you didn't receive a verification code, check that +44 7700 900123 is your number.\n",
     "If you didn't receive a verification code, check that +44 7700 900123 is your number.\n"),
    ("Backup codes: each code works once. Keep them in your password manager.\n",
     "Backup codes: each code works once. Keep them in your password manager.\n"),
])
def test_one_time_and_backup_codes(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("Karte für die Reise (Visa):\n48983478\n87838482\nexp 09/28  cvv 417\n", f"Karte für die Reise (Visa):\n{C}\nexp {C}  cvv {C}\n"),
    ("mastercard 5372.6167.5136.1348 valid 11/27 CVC 082\n", f"mastercard {C} valid {C} CVC {C}\n"),
    ("card_number: 5372_6167_5136_1348\ncard_cvc: 719\n", f"card_number: {C}\ncard_cvc: {C}\n"),
    ("pay the hotel with 4898 - 3478 - 8783 - 8482, cvv2 = 906\n", f"pay the hotel with {C}, cvv2 = {C}\n"),
    ('{"card": {"number": "4898-3478-8783-8482", "cvv": "311"}}\n', f'{{"card": {{"number": "{C}", "cvv": "{C}"}}}}\n'),
    ("name;card;exp;cvc\nFirma;5372616751361348;09/28;552\n", f"name;card;exp;cvc\nFirma;{C};{C};{C}\n"),
    ("amex 3712.524273.16722 exp 03/27 cid 9021\n", f"amex {C} exp {C} cid {C}\n"),
    ("Účet\tIBAN\nnájem\tCZ65\t0800\t0000\t1920\t0014\t5399\n", f"Účet\tIBAN\nnájem\t{IBAN}\n"),
    ("iban: at611904300234573201\n", f"iban: {IBAN}\n"),
    ("Sort code: 20-00-00\nAccount number: 73019922\n", f"Sort code: {ID}\nAccount number: {ID}\n"),
    ("pay me back to 302692 / 80872086 (Monzo) whenever\n", f"pay me back to {ID} / {ID} (Monzo) whenever\n"),
    ("Routing number: 140187809\nAccount number: 4401928837\n", f"Routing number: {ID}\nAccount number: {ID}\n"),
    # look-alikes: Luhn numbers no network issues, a failing Luhn, EANs, IMEIs, a masked card, an example
    ("IMEI: 356938035643809\nEAN 5901234123457\n", "IMEI: 356938035643809\nEAN 5901234123457\n"),
    ("Order ID 5372616751361349 was refunded.\n", "Order ID 5372616751361349 was refunded.\n"),
    ("Karte **** **** **** 4417, gültig bis 09/27.\n", "Karte **** **** **** 4417, gültig bis 09/27.\n"),
    ("A sort code has six digits (e.g. 12-34-56) and identifies the branch.\n",
     "A sort code has six digits (e.g. 12-34-56) and identifies the branch.\n"),
    ("Search fuses the FTS5 bm25 ranking and the cosine ranking.\n", "Search fuses the FTS5 bm25 ranking and the cosine ranking.\n"),
])
def test_cards_and_bank_details_in_odd_layouts(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("Name\tDept\tSocial Security No\tStart\nMiller\tOps\t128-29-8624\t2025-01-02\n",
     f"Name\tDept\tSocial Security No\tStart\nMiller\tOps\t{ID}\t2025-01-02\n"),
    ("imie;nazwisko;pesel;stanowisko\nAnna;Kowalska;70031307911;HR\n", f"imie;nazwisko;pesel;stanowisko\nAnna;Kowalska;{ID};HR\n"),
    ("Name | Vorname | AHV-Nr | Pensum\nHuber | Lukas | 756.1815.9083.09 | 80%\n", f"Name | Vorname | AHV-Nr | Pensum\nHuber | Lukas | {ID} | 80%\n"),
    ("Ad Soyad,TC Kimlik No,Departman\nAyşe Yılmaz,76712768408,Muhasebe\n", f"Ad Soyad,TC Kimlik No,Departman\nAyşe Yılmaz,{ID},Muhasebe\n"),
    # look-alikes
    ("sku,ean,price,stock\nAB-1204,4006381333931,24.00,12\n", "sku,ean,price,stock\nAB-1204,4006381333931,24.00,12\n"),
    ("name,phone,extension\nReception,+49 30 1234567,100\n", "name,phone,extension\nReception,+49 30 1234567,100\n"),
    ("| package | version | build |\n|---|---|---|\n| core | 4.12.10 | 20260105 |\n", "| package | version | build |\n|---|---|---|\n| core | 4.12.10 | 20260105 |\n"),
])
def test_sheets_whose_header_names_the_number(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("fmt,valid,invalid", [
    ("pesel", "70031307911", "70031307912"), ("ahv", "7561815908309", "7561815908308"), ("bsn", "960913907", "960913908"),
    ("nir", "164013843014822", "164013843014823"), ("codice_fiscale", "VRDCPP84B59H382A", "VRDCPP84B59H382B"),
    ("dni", "23076910K", "23076910L"), ("steuer_id", "97521840330", "97521840331"), ("oib", "59746507524", "59746507525"),
    ("tckn", "76712768408", "76712768409"), ("cpf", "21223307913", "21223307914"), ("curp", "BERR610510MPLNGZ03", "BERR610510MPLNGZ04"),
    ("aadhaar", "866617603134", "866617603135"), ("china_id", "330106195010051032", "330106195010051033"),
    ("my_number", "690139624595", "690139624596"), ("nhs", "4288200180", "4288200181"), ("kvnr", "X263304343", "X263304344"),
    ("rut", "203224206", "203224207"), ("isikukood", "47210160707", "47210160708"), ("cnp", "6030209456812", "6030209456813"),
    ("emso", "1602989500604", "1602989500605"), ("aba", "140187809", "140187808"), ("hetu", "110602A713E", "110602A713F"),
])
def test_check_digits(fmt, valid, invalid):
    shape, check = FORMATS[fmt]
    assert shape.fullmatch(valid) and check is not None and check(valid)
    assert not (shape.fullmatch(invalid) and check(invalid))


def test_card_networks():
    assert card_network_ok("4898347887838482") and card_network_ok("371252427316722") and card_network_ok("5372616751361348")
    assert not card_network_ok("356938035643809")  # an IMEI
    assert not card_network_ok("5901234123457")  # an EAN-13
