"""Batch 2 of tests/redteam/round4_own.jsonl (ids `b..`): written after the round-4 detectors
existed, in other wording and layouts than batch 1, and scored once before anything was changed
for it (round4_own.md has the figure). `python tests/redteam/round4_make2.py >>
tests/redteam/round4_own.jsonl` after round4_make.py writes the file again.
"""

from __future__ import annotations

import json
import random

import round4_make as m

m.R = random.Random(20261203)
m.ITEMS.clear()
add = m.add


def batch2() -> None:
    R = m.R
    p = m.pesel()
    add("b01-pl-form-inline", "hr/pl", f"Oświadczenie pracownika: ja, niżej podpisana Katarzyna Wójcik (PESEL nr {p}), "
        "oświadczam, że nie pobieram świadczeń.\n", [p])
    a = m.ahv()
    add("b02-ch-mail-reply", "hr/ch", f"Grüezi Frau Keller\n\nIhre AHV-Versichertennummer lautet {a}. Bitte leiten Sie sie an die "
        "Pensionskasse weiter.\n\nFreundliche Grüsse\n", [a])
    n = m.nino()
    add("b03-uk-nino-table", "hr/uk", f"| Field | Value |\n|---|---|\n| Full name | Harry Clarke |\n| N.I. number | {n} |\n"
        "| Payroll ID | 00417 |\n", [n])
    s = m.ssn()
    add("b04-us-ssn-prose", "hr/us", f"Jake — the bank needs my social for the mortgage; it's {s}. Please shred this note.\n", [s])
    c = m.codice_fiscale()
    add("b05-it-cf-csv", "hr/it", f"nome;cognome;cod_fiscale;reparto\nGiulia;Bianchi;{c};vendite\n", [c])
    d = m.dni()
    add("b06-es-dni-table", "hr/es", f"Empleado\tDNI/NIE\tDepartamento\nJavier Ruiz\t{d}\tLogística\n", [d])
    b = m.bsn()
    add("b07-nl-bsn-sentence", "hr/nl", f"Mijn burgerservicenummer is {b}, het staat ook op mijn paspoort.\n", [b])
    r = m.rodne_cislo()
    add("b08-cz-rc-mail", "hr/cz", f"Dobrý den, posílám údaje pro mzdovou účetní: Petr Svoboda, nar. 1979, RČ {r}.\n", [r])
    t = m.tckn()
    add("b09-tr-chat", "hr/tr", f"[14:02] Elif: İK kimlik numaranı istiyor\n[14:03] Murat: {t} bu\n", [t])
    k = m.rrn()
    add("b10-kr-form", "hr/kr", f"신청인: 이서연\n주민번호 {k}\n주소: 서울특별시 강남구\n", [k])
    z = m.za_id()
    add("b11-za-sms", "hr/za", f"Hi, for the payroll: my SA ID no is {z}. Thanks\n", [z])
    cp = m.cpf()
    add("b12-br-cpf-json", "hr/br", f'{{"nome": "Ana Souza", "cpf": "{cp}", "cargo": "analista"}}\n', [cp])
    cu = m.curp()
    add("b13-mx-curp-plain", "hr/mx", f"Adjunto mi CURP {cu} y comprobante de domicilio.\n", [cu])
    ai = m.aadhaar()
    add("b14-in-aadhaar-mail", "hr/in", f"Dear HR, please update my records. Aadhaar: {ai.replace(' ', '-')}. Regards, Rohan\n",
        [ai.replace(" ", "-")])
    ci = m.china_id()
    add("b15-cn-id-sentence", "hr/cn", f"本人王磊，身份证{ci}，申请报销。\n", [ci])
    fn = m.fodselsnummer()
    add("b16-no-fnr-table", "hr/no", f"Navn | Fødselsnr. | Avdeling\nOla Nordmann | {fn} | IT\n", [fn])
    sv = m.svnr()
    add("b17-at-inline-short", "hr/at", f"Dienstnehmer Maier, SVNR {sv.replace(' ', '')}, Eintritt 1.3.\n", [sv.replace(" ", "")])
    st = m.steuer_id()
    add("b18-de-idnr-sheet", "hr/de", f"Name,Vorname,Steuer-ID,Klasse\nWeber,Tim,{st.replace(' ', '')},1\n", [st.replace(" ", "")])
    hn = m.nhs()
    add("b19-uk-nhs-letter", "medical/uk", f"Discharge summary\nPatient: Amelia Hughes (NHS: {hn.replace(' ', '-')})\nWard 7B, consultant Dr Reid\n",
        [hn.replace(" ", "-")])
    kv = m.kvnr()
    add("b20-de-kvnr-form", "medical/de", f"Anamnesebogen\nKrankenkasse: AOK Bayern\nVersicherten-Nr.: {kv}\nHausarzt: Dr. Berg\n", [kv])
    mb = m.mbi()
    add("b21-us-mbi-sheet", "medical/us", f"patient,dob,medicare_id\nR. Jones,1948-03-02,{mb}\n", [mb])
    mid = m.member_id("U")
    add("b22-us-uhc-chat", "medical/us", f"Pharmacy: what's your member ID?\nMe: {mid}, UnitedHealthcare\n", [mid])
    au = m.au_medicare()
    add("b23-au-medicare-sentence", "medical/au", f"My Medicare number is {au} if the clinic asks.\n", [au])
    ehic = m.ehic("203")
    add("b24-cz-ehic", "medical/eu", f"Evropský průkaz zdravotního pojištění\nIdentifikační číslo průkazu: {ehic}\nPlatnost: 12/2029\n", [ehic])
    pol = f"{R.randint(10000000, 99999999)}"
    add("b25-fr-mutuelle", "medical/fr", f"Votre contrat santé\nNuméro de contrat : {pol}\nNuméro de sécu : {(ns := m.nir())}\n", [pol, ns])
    pl = f"PL{R.randint(1000000, 9999999)}"
    ek = f"80616{R.randint(10 ** 14, 10 ** 15 - 1)}"
    add("b26-pl-nfz", "medical/pl", f"Karta EKUZ\nNumer identyfikacyjny karty: {ek}\nNumer polisy prywatnej: {pl}\n", [ek, pl])
    oh = m.ohip()
    add("b27-ca-ohip-mail", "medical/ca", f"Hi, my OHIP # is {oh} — sorry I forgot my card at home.\n", [oh])
    sw = f"{R.randint(100000000, 999999999)}"
    add("b28-es-mutua", "medical/es", f"Sanitas — número de tarjeta sanitaria: {sw}\nTitular: Lucía Gómez\n", [sw])
    c = m.tan_codes(8, 6)
    add("b29-at-tan-nr", "tan/at", "TAN-Liste (Hypo Tirol)\n" + "".join(f"TAN-Nr. {i}: {x}\n" for i, x in enumerate(c, 1)), c)
    c = m.tan_codes(6, 5)
    add("b30-ch-grid-letters", "tan/ch", "Streichliste Kantonalbank\n" + "".join(f"{i:02d}  {x}    " + ("\n" if i % 2 == 0 else "") for i, x in enumerate(c, 1)), c)
    c = m.tan_codes(6, 6)
    add("b31-pl-kod-nr", "tan/pl", "Karta kodów (Santander)\n" + "".join(f"Kod nr {i}: {x[:3]} {x[3:]}\n" for i, x in enumerate(c, 1)),
        [f"{x[:3]} {x[3:]}" for x in c])
    c = m.tan_codes(6, 5)
    add("b32-cz-kod-cislo", "tan/cz", "Seznam kódů pro autorizaci (Raiffeisenbank)\n" + "".join(f"Kód č. {i} = {x}\n" for i, x in enumerate(c, 1)), c)
    c = m.tan_codes(4, 6)
    add("b33-at-tan-inline", "tan/at", "Meine restlichen TANs: " + ", ".join(f"{i}) {x}" for i, x in enumerate(c, 21)) + "\n", c)
    c = m.tan_codes(6, 4)
    add("b34-pl-siatka", "tan/pl", "KARTA KODÓW\n    A     B     C\n1   " + "  ".join(c[:3]) + "\n2   " + "  ".join(c[3:]) + "\n", c)
    o = m.otp()
    add("b35-en-one-time-pin", "otp/en", f"Your one-time PIN is {o}. It expires in 5 minutes.\n", [o])
    o = m.otp()
    add("b36-en-use-to-sign-in", "otp/en", f"Use {o[:3]} {o[3:]} to sign in to your Microsoft account.\n", [f"{o[:3]} {o[3:]}"])
    o = m.otp()
    add("b37-de-tan-sms", "otp/de", f"Ihre mobileTAN für die Überweisung an M. Huber über 250,00 EUR lautet: {o}\n", [o])
    o = m.otp()
    add("b38-pl-blik", "otp/pl", f"[09:12] Tata: podaj mi kod BLIK bo mi się nie chce wstawać\n[09:13] Kasia: {o}\n", [o])
    o = m.otp()
    add("b39-cs-chat-paste", "otp/cs", f"Jana: přišla mi sms „Váš jednorázový kód: {o}“, mám ho někomu dát?\n", [o])
    o = m.otp()
    add("b40-fr-sms-dash", "otp/fr", f"{o[:3]}-{o[3:]} est votre code de connexion Doctolib.\n", [f"{o[:3]}-{o[3:]}"])
    o = m.otp()
    add("b41-es-whatsapp", "otp/es", f"Tu código de WhatsApp: {o[:3]}-{o[3:]}. No compartas este código.\n", [f"{o[:3]}-{o[3:]}"])
    o = m.otp()
    add("b42-it-chat", "otp/it", f"Mamma: mi è arrivato un codice, 4 numeri... no 6: {o}\nLuca: NON darlo a nessuno\n", [o])
    o = m.otp()
    add("b43-nl-inlog", "otp/nl", f"Gebruik inlogcode {o} om in te loggen bij DigiD.\n", [o])
    o = m.otp()
    add("b44-ja-kakunin", "otp/ja", f"【楽天】確認コード：{o}（有効期限10分）\n", [o])
    codes = [f"{R.randint(10000, 99999)} {R.randint(10000, 99999)}" for _ in range(4)]
    add("b45-backup-en-spaces", "otp/backup", "GitLab recovery codes – keep safe\n\n" + "\n".join(f"- {x}" for x in codes) + "\n", codes)
    codes = [f"{R.randint(1000, 9999)}-{R.randint(1000, 9999)}-{R.randint(1000, 9999)}" for _ in range(4)]
    add("b46-backup-de-notiz", "otp/backup", "Apple-ID Wiederherstellungsschlüssel & Backup-Codes:\n" + "\n".join(codes) + "\n", codes)
    c = m.card("4")
    add("b47-card-json", "bank/card", f'{{"card": {{"number": "{c[:4]}-{c[4:8]}-{c[8:12]}-{c[12:]}", "exp": "07/28", "cvv": "311"}}}}\n',
        [f"{c[:4]}-{c[4:8]}-{c[8:12]}-{c[12:]}", "311"])
    c = m.card("5")
    add("b48-card-bold", "bank/card", f"**Firmenkarte:** {m.grouped(c)}  \n**Gültig bis:** 04/29  \n**CVC:** 928\n", [m.grouped(c), "928"])
    c = m.card("4")
    add("b49-card-three-lines", "bank/card", f"card (vacation)\n{c[:6]}\n{c[6:12]}\n{c[12:]}\nexp 01/28\n", [c[:6], c[6:12], c[12:]])
    c = m.card("37", 15)
    add("b50-amex-dots", "bank/card", f"amex {c[:4]}.{c[4:10]}.{c[10:]} exp 03/27 cid 9021\n", [f"{c[:4]}.{c[4:10]}.{c[10:]}", "9021"])
    ib = m.iban("IT", "X" + f"{R.randint(10 ** 9, 10 ** 10 - 1)}{R.randint(10 ** 11, 10 ** 12 - 1)}")
    add("b51-iban-it-dashes", "bank/iban", f"IBAN per il bonifico: {'-'.join(m.grouped(ib).split())}\n", ['-'.join(m.grouped(ib).split())])
    ib = m.iban("NL", f"INGB{R.randint(10 ** 9, 10 ** 10 - 1)}")
    add("b52-iban-nl-chat", "bank/iban", f"Tikkie-alternatief: maak het over naar {ib.lower()} t.n.v. J. Bakker\n", [ib.lower()])
    acct, sort = f"{R.randint(10000000, 99999999)}", f"{R.randint(10, 99)}-{R.randint(10, 99)}-{R.randint(10, 99)}"
    add("b53-uk-acct-sort-reversed", "bank/account", f"Bank: Barclays\nAcc: {acct}\nSort: {sort}\n", [acct, sort])
    rt = m.aba()
    add("b54-us-routing-check", "bank/account", f"Direct deposit — RTN {rt} / Acct {(ac := str(R.randint(10 ** 9, 10 ** 10 - 1)))}\n", [rt, ac])
    acct = f"{R.randint(10 ** 9, 10 ** 10 - 1)}"
    add("b55-de-konto-mail", "bank/account", f"Hallo Klaus,\nmeine Kontonummer ist {acct}, BLZ 700 202 70 (HypoVereinsbank).\nGruß Anna\n", [acct])
    pins = [f"{R.randint(1000, 9999)}" for _ in range(2)]
    add("b56-sheet-pin-de", "sheet/de", "Karte;Inhaber;PIN\nGirocard;A. Huber;" + pins[0] + "\nVisa;A. Huber;" + pins[1] + "\n", pins)
    ids_ = [m.isikukood() for _ in range(2)]
    add("b57-sheet-ee", "sheet/ee", "Nimi,Isikukood,Osakond\nKadri Tamm," + ids_[0] + ",IT\nJaan Kask," + ids_[1] + ",HR\n", ids_)
    ss = [m.ssn() for _ in range(2)]
    add("b58-sheet-us-ssn-header", "sheet/us", "| Employee | SSN | Title |\n|---|---|---|\n| A. Lee | " + ss[0] + " | Eng |\n| B. Cho | " + ss[1] + " | Ops |\n", ss)
    # look-alikes
    add("b59-order-mail", "ordinary/bank", "Ihre Bestellung 30012345678 ist unterwegs. Sendungsnummer: 00340434161094042557. "
        "Rückfragen: 0800 123 4567.\n", [])
    add("b60-otp-help", "ordinary/otp", "If you didn't receive a verification code, check that your phone number +44 7700 900123 is correct.\n", [])
    add("b61-tan-history", "ordinary/tan", "Streichliste, iTAN, mTAN: 2005 bis 2019 gängige Verfahren. Heute: pushTAN.\n", [])
    add("b62-pesel-invalid-order", "ordinary/hr", f"Nr zamówienia {m.bad(m.pesel())} – dziękujemy za zakupy.\n", [])
    add("b63-version-table", "ordinary/hr", "| package | version | build |\n|---|---|---|\n| core | 4.12.10 | 20260105 |\n| api | 2.0.1 | 20251230 |\n", [])
    add("b64-csv-phones", "ordinary/hr", "name,phone,extension\nReception,+49 30 1234567,100\nIT,+49 30 7654321,200\n", [])
    add("b65-medical-codes", "ordinary/medical", "Ihre Versichertenkarte bitte bei jedem Quartalsbeginn vorlegen. Praxis-Tel.: 089 12345678.\n", [])
    add("b66-card-masked", "ordinary/bank", "Karte **** **** **** 4417, gültig bis 09/27. Buchung 12.01.2026: 42,00 EUR.\n", [])
    add("b67-chat-numbers", "ordinary/otp", "[09:12] Tata: o której pociąg?\n[09:13] Kasia: 14:35, peron 4, wagon 12, miejsce 45\n", [])
    add("b68-ids-explainer", "ordinary/hr", "Der Sozialversicherungsnummer-Aufbau in Österreich: vier Ziffern (laufende Nummer und "
        "Prüfziffer) und das Geburtsdatum TTMMJJ.\n", [])


if __name__ == "__main__":
    batch2()
    for item in m.ITEMS:
        print(json.dumps(item, ensure_ascii=False))
