"""The redactor on the third red team's classes (docs/privacy.md): network device
configurations, DevOps output and configuration keys, finance layouts, and passwords and PINs
in notes in other languages and scripts. Each case is real-looking text in and its exact
redaction out, with look-alikes that must stay as they are; the examples are new, written for
these tests (tests/redteam/round3_own.jsonl holds a larger set)."""

from __future__ import annotations

import pytest

from filegram.redact import redact

R = "[REDACTED:SECRET]"
H = "[REDACTED:PASSWORD_HASH]"


def _exact(text: str, expected: str) -> None:
    assert redact(text) == expected
    assert redact(expected) == expected  # idempotent


@pytest.mark.parametrize("text,expected", [
    ("enable secret 8 $8$mTj4RZG8N9ZDOk$elY/asfm8kD3iDmkBe3hD2r4xcA/0oWS5V3os.O91u.\n", f"enable secret 8 {H}\n"),
    ("username ops privilege 15 secret 9 $9$4tQdJ1w0vfTFBk$JX0pYpjsEG5FRzmVcmUEXQk9.N7qR8W3zf2vVkc2q.E\n",
     f"username ops privilege 15 secret 9 {H}\n"),
    ("username guest password 7 070C285F4D06\n", f"username guest password 7 {R}\n"),
    ("line vty 5 15\n password 7 121A0C041104\n login\n", f"line vty 5 15\n password 7 {R}\n login\n"),
    ("snmp-server community Mgmt-0ps-2023 RO 99\n", f"snmp-server community {R} RO 99\n"),
    ("snmp-server community wrt54Secret RW\n", f"snmp-server community {R} RW\n"),
    ("tacacs-server host 172.16.0.10 key 7 02050D4808095E731F\n", f"tacacs-server host 172.16.0.10 key 7 {R}\n"),
    ("radius-server key Nps-Shared#11\n", f"radius-server key {R}\n"),
    ("radius server NPS1\n address ipv4 172.16.0.11 auth-port 1812 acct-port 1813\n key 0 Nps1-Key-2022\n",
     f"radius server NPS1\n address ipv4 172.16.0.11 auth-port 1812 acct-port 1813\n key 0 {R}\n"),
    (" key-string 7 0507070E2D4D5B1D\n", f" key-string 7 {R}\n"),
    ("crypto isakmp key Br4nch-Tunnel! address 192.0.2.44\n", f"crypto isakmp key {R} address 192.0.2.44\n"),
    (" neighbor 192.0.2.1 password 0 Bgp-Peer-77\n", f" neighbor 192.0.2.1 password 0 {R}\n"),
    ("snmp-server user zabbix ZBX v3 auth sha Zbx-Auth-91 priv aes 256 Zbx-Priv-91\n",
     f"snmp-server user zabbix ZBX v3 auth sha {R} priv aes 256 {R}\n"),
    ("ntp authentication-key 7 md5 104D000A0618 7\n", f"ntp authentication-key 7 md5 {R} 7\n"),
    ('    secret "$9$dkVwgoJUk.5QCu1IRSMWx7";\n', f'    secret "{H}";\n'),
    ("set snmp community Cor3-R0nly authorization read-only\n", f"set snmp community {R} authorization read-only\n"),
    ('snmp-server community "Pr0c-Rw" manager unrestricted\n', f'snmp-server community "{R}" manager unrestricted\n'),
    ("    community L4b-Snmp {\n", f"    community {R} {{\n"),
    ("        set psksecret ENC 9Xk2LmQ7pZ4vRt1WnY8bCc5Hd3FjG6sA0eU2iO7yT1rE4wL\n", f"        set psksecret ENC {R}\n"),
    ("passwd 9jNfZuG3TC5tCVH0 encrypted\n", f"passwd {R} encrypted\n"),
    (" wpa-psk ascii 7 1511021F0725\n", f" wpa-psk ascii 7 {R}\n"),
    # look-alikes
    ("line con 0\n no password\n exec-timeout 5 0\n", "line con 0\n no password\n exec-timeout 5 0\n"),
    ("service password-encryption\nsecurity passwords min-length 10\n", "service password-encryption\nsecurity passwords min-length 10\n"),
    ("Syntax: snmp-server community string [view view-name] [ro | rw] [access-list]\n",
     "Syntax: snmp-server community string [view view-name] [ro | rw] [access-list]\n"),
    ("snmp-server community public RO\n", "snmp-server community public RO\n"),
    ("snmp-server community <COMMUNITY> RO 10\n", "snmp-server community <COMMUNITY> RO 10\n"),
    ("Password requirements\nkey features\n", "Password requirements\nkey features\n"),
    ("key chain EIGRP\n key 1\n  key-string 7 <encrypted>\n", "key chain EIGRP\n key 1\n  key-string 7 <encrypted>\n"),
    ("Cisco IOS XE Software, Version 17.09.04a\n", "Cisco IOS XE Software, Version 17.09.04a\n"),
    ("Type 7 (password 7 ...) is reversible; prefer $9$ (scrypt).\n", "Type 7 (password 7 ...) is reversible; prefer $9$ (scrypt).\n"),
    ("# wpa_passphrase: 8..63 characters\n", "# wpa_passphrase: 8..63 characters\n"),
    ("The wpa2-pre-shared-key= parameter sets the Wi-Fi password.\n", "The wpa2-pre-shared-key= parameter sets the Wi-Fi password.\n"),
])
def test_network_device_configurations(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("Unseal Key 3: 0bX7o9pWqL2mZ4vR8tKc1nHs6yDf3gJa5eUi7wOq9rTz\n", f"Unseal Key 3: {R}\n"),
    ("Recovery Key 1: Pz3nQ7vLk2Rt9Wm4Xc8Bh1Jd6Fs0Ga5Ye3Ui7Oq2Lw4\n", f"Recovery Key 1: {R}\n"),
    ("Initial Root Token: s.Wq3ZkT9xLm2Vn8Rp4Yc1Hd6F\n", f"Initial Root Token: {R}\n"),
    ("$ vault operator unseal -address=https://vault:8200 0bX7o9pWqL2mZ4vR8tKc1nHs6yDf3gJa5eUi7wOq9rTz\n",
     f"$ vault operator unseal -address=https://vault:8200 {R}\n"),
    ('{"unseal_keys_b64": ["0bX7o9pWqL2mZ4vR8tKc1nHs6yDf3gJa5eUi7wOq9rTz", "Pz3nQ7vLk2Rt9Wm4Xc8Bh1Jd6Fs0Ga5Ye3Ui7Oq2Lw4"], "unseal_shares": 2}',
     f'{{"unseal_keys_b64": ["{R}", "{R}"], "unseal_shares": 2}}'),
    ("secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  3961643866333832613964336162373835\n  6237\nnext: 1\n",
     f"secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  {R}\n  {R}\nnext: 1\n"),
    ('"outputs": {\n  "grafana_admin_password": {\n    "value": "Zq8!rT2wXk",\n    "type": "string"\n  }\n}',
     f'"outputs": {{\n  "grafana_admin_password": {{\n    "value": "{R}",\n    "type": "string"\n  }}\n}}'),
    ('"outputs": {"conn": {"value": "Server=db;Uid=app;Pwd=Qx7Lm2", "sensitive": true}}',
     f'"outputs": {{"conn": {{"value": "{R}", "sensitive": true}}}}'),
    ('{"type": "random_password", "instances": [{"attributes": {"length": 16, "result": "hT4#kW9@pL2!vQ7z"}}]}',
     f'{{"type": "random_password", "instances": [{{"attributes": {{"length": 16, "result": "{R}"}}}}]}}'),
    ("ldap_default_authtok = Ssd!Bind-2024\n", f"ldap_default_authtok = {R}\n"),
    ("binddn cn=reader,dc=lab,dc=local\nbindpw Rd-0nly-Lab\n", f"binddn cn=reader,dc=lab,dc=local\nbindpw {R}\n"),
    ("userPassword: {SSHA}Zk4Qm8Lp2Rv7Xt1Wn9Bc5Hd3Fj6\n", "userPassword: [REDACTED:PASSWORD_HASH]\n"),
    ("ipmitool -H 10.9.0.4 -U root -P 'Ipmi!Lab9' sdr list\n", f"ipmitool -H 10.9.0.4 -U root -P '{R}' sdr list\n"),
    ("racadm -r 10.9.0.5 -u root -p Drac-Lab-22 getsysinfo\n", f"racadm -r 10.9.0.5 -u root -p {R} getsysinfo\n"),
    ('network={\n    ssid="Hof"\n    #psk="Scheune-und-Stall"\n}\n', f'network={{\n    ssid="Hof"\n    #psk="{R}"\n}}\n'),
    ('encrypt = "Yh3Kq9Lm2Wv7Rt1Xn8Bc5Hd3Fj6Gs0Ae4Ui7Oq2Lw4="\n', f'encrypt = "{R}"\n'),
    ('acl {\n  tokens {\n    agent = "7c1f3a9e-2b4d-4e6f-8a0c-1d3e5f7a9b2c"\n  }\n}\n', f'acl {{\n  tokens {{\n    agent = "{R}"\n  }}\n}}\n'),
    ("$ cat /var/jenkins_home/secrets/initialAdminPassword\n4b2e9d7c1a3f5e8b0d6c2a4f9e1b7d3c\n",
     f"$ cat /var/jenkins_home/secrets/initialAdminPassword\n{R}\n"),
    # look-alikes
    ("Store each `Unseal Key N: <key>` line with a different person.\n", "Store each `Unseal Key N: <key>` line with a different person.\n"),
    ("Unseal Progress    2/3\nSealed             true\n", "Unseal Progress    2/3\nSealed             true\n"),
    ("The header $ANSIBLE_VAULT;1.1;AES256 starts every vault file.\n", "The header $ANSIBLE_VAULT;1.1;AES256 starts every vault file.\n"),
    ('"outputs": {"endpoint": {"value": "db.internal", "type": "string"}}', '"outputs": {"endpoint": {"value": "db.internal", "type": "string"}}'),
    ("ldap_default_authtok_type = password\n", "ldap_default_authtok_type = password\n"),
    ("ipmitool -I lanplus -H <bmc> -U <user> -P <password> power status\n", "ipmitool -I lanplus -H <bmc> -U <user> -P <password> power status\n"),
    ("encrypt = true\nencrypt_verify_incoming = true\n", "encrypt = true\nencrypt_verify_incoming = true\n"),
    ("max_tokens = {\"short\": 120, \"long\": 800}\n", "max_tokens = {\"short\": 120, \"long\": 800}\n"),
])
def test_devops_output_and_configuration(text, expected):
    _exact(text, expected)


_SEED = "plunge wisdom ethics ranch coral salute unfold device bacon harvest mimic gentle".split()


@pytest.mark.parametrize("text,label", [
    ("Seed phrase (Trezor):\n" + "\n".join(_SEED) + "\n", "Seed phrase (Trezor):"),
    ("mnemonic = " + ", ".join(_SEED) + "\n", "mnemonic = "),
    ("My recovery phrase is " + " ".join(_SEED) + ". Keep it offline.", "My recovery phrase is "),
    ("BACKUP WORDS\n" + "\n".join(f"{i + 1:>2} {_SEED[i].upper():<8} {i + 7:>2} {_SEED[i + 6].upper()}" for i in range(6)) + "\n",
     "BACKUP WORDS"),
    ("Wiederherstellungsphrase: " + " - ".join(_SEED) + "\n", "Wiederherstellungsphrase: "),
    ("Ledger, 12 words, in order: " + " ".join(f"{i + 1}) {w}" for i, w in enumerate(_SEED)) + "\n", "Ledger, 12 words, in order: "),
    ("Recovery phrase:\n" + "\n".join(" ".join(w.title() for w in _SEED[i : i + 3]) for i in range(0, 12, 3)) + "\n", "Recovery phrase:"),
])
def test_seed_words_in_any_layout(text, label):
    out = redact(text)
    assert out.startswith(label) and "[REDACTED:SEED_PHRASE]" in out
    assert not any(w in out.lower() for w in _SEED), out
    assert redact(out) == out


@pytest.mark.parametrize("text,expected", [
    ("Hidden wallet passphrase (Trezor): Kastanien-Allee\n", f"Hidden wallet passphrase (Trezor): {R}\n"),
    ("the 25th word is Blaubeere_9.\n", f"the 25th word is {R}.\n"),
    ("TAN-Liste (Sparkasse)\nNr  TAN    Nr  TAN\n01  593021 11  480263\n02  119847 12  702395\n",
     f"TAN-Liste (Sparkasse)\nNr  TAN    Nr  TAN\n01  {R} 11  {R}\n02  {R} 12  {R}\n"),
    ("iTAN list\n| 1 | 830271 | 2 | 445109 |\n| 3 | 261784 | 4 | 998031 |\n", f"iTAN list\n| 1 | {R} | 2 | {R} |\n| 3 | {R} | 4 | {R} |\n"),
    # look-alikes
    ("Seed phrase test vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about\n",
     "Seed phrase test vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about\n"),
    ("Recovery week shopping list\n" + "\n".join(f"{i + 1}. {w}" for i, w in enumerate(
        "apple banana bread butter cheese coffee lemon olive orange pepper salad tomato".split())) + "\n",
     "Recovery week shopping list\n" + "\n".join(f"{i + 1}. {w}" for i, w in enumerate(
        "apple banana bread butter cheese coffee lemon olive orange pepper salad tomato".split())) + "\n"),
    ("seed = 42  # the simulator's fixed seed\n", "seed = 42  # the simulator's fixed seed\n"),
    ("Seed phrase: Best Practices For Your Wallet Backup And Recovery Today\n",
     "Seed phrase: Best Practices For Your Wallet Backup And Recovery Today\n"),
    ("The passphrase is required for the hidden wallet.\n", "The passphrase is required for the hidden wallet.\n"),
    ("Mit der iTAN-Liste hatte jede TAN eine Nummer; die Bank fragte etwa nach TAN 37.\nNr. 37 war dann gültig.\n",
     "Mit der iTAN-Liste hatte jede TAN eine Nummer; die Bank fragte etwa nach TAN 37.\nNr. 37 war dann gültig.\n"),
    ("Tan lines\n1 2019 2020\n", "Tan lines\n1 2019 2020\n"),
])
def test_finance_layouts(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("Κωδικός πρόσβασης e-banking: Olympos#31\n", f"Κωδικός πρόσβασης e-banking: {R}\n"),
    ("รหัสผ่านอีเมล: Chiangmai_88\n", f"รหัสผ่านอีเมล: {R}\n"),
    ("סיסמה לוויפי: Haifa-2019!\n", f"סיסמה לוויפי: {R}\n"),
    ("رمز عبور بانک: Isfahan@72\n", f"رمز عبور بانک: {R}\n"),
    ("পাসওয়ার্ড: Khulna#4410\n", f"পাসওয়ার্ড: {R}\n"),
    ("கடவுச்சொல்: Chennai_2020\n", f"கடவுச்சொல்: {R}\n"),
    ("nenosiri la Wi-Fi: Mombasa77!\n", f"nenosiri la Wi-Fi: {R}\n"),
    ("slaptažodis: Kaunas#1990\nparool: Tartu_2011\n", f"slaptažodis: {R}\nparool: {R}\n"),
    ("пароль: Весна2024лес\n", f"пароль: {R}\n"),
    ("ПИН-код карты: 3391\n", f"ПИН-код карты: {R}\n"),
    ("код от калитки 5820\n", f"код от калитки {R}\n"),
    ("רמז", "רמז"),
    ("קוד לשער: 7714#\n", f"קוד לשער: {R}\n"),
    ("الرقم السري للبطاقة: 6205\n", f"الرقم السري للبطاقة: {R}\n"),
    ("รหัส ATM 550921\n", f"รหัส ATM {R}\n"),
    ("暗証番号\u30002281\n", f"暗証番号\u3000{R}\n"),
    ("支付密码 771903\n", f"支付密码 {R}\n"),
    ("카드 PIN 번호 9042\n", f"카드 PIN 번호 {R}\n"),
    ("kortin tunnusluku: 6610\n", f"kortin tunnusluku: {R}\n"),
    ("namba ya siri: 3308\n", f"namba ya siri: {R}\n"),
    ("e-posta şifresi Izmir35Konak\n", f"e-posta şifresi {R}\n"),
    ("Пароль от роутера:\nDacha_2022\n", f"Пароль от роутера:\n{R}\n"),
    ("κωδικός συναγερμού\n4471\n", f"κωδικός συναγερμού\n{R}\n"),
    ("סיסמה של המחשב\nGalil2020x\n", f"סיסמה של המחשב\n{R}\n"),
    ("| Υπηρεσία | Κωδικός |\n|---|---|\n| Gmail | Naxos!2020 |\n", f"| Υπηρεσία | Κωδικός |\n|---|---|\n| Gmail | {R} |\n"),
    ("WLAN-Schlüssel: 8817 2290 4411 0036\n", f"WLAN-Schlüssel: {R}\n"),
    # look-alikes
    ("Код ошибки 4040: страница не найдена\n", "Код ошибки 4040: страница не найдена\n"),
    ("HTTP-код: 200\nКод региона 77\n", "HTTP-код: 200\nКод региона 77\n"),
    ("штрихкод 46070012\n", "штрихкод 46070012\n"),
    ("รหัสไปรษณีย์ 10110\n", "รหัสไปรษณีย์ 10110\n"),
    ("κωδικός προϊόντος 12345\n", "κωδικός προϊόντος 12345\n"),
    ("کد پستی: 1981713154\n", "کد پستی: 1981713154\n"),
    ("パスワードの条件\n・8文字以上\n", "パスワードの条件\n・8文字以上\n"),
    ("密码长度为8-16位。\n", "密码长度为8-16位。\n"),
    ("Пароль должен содержать не менее 8 символов.\n", "Пароль должен содержать не менее 8 символов.\n"),
    ("ПИН-код состоит из 4 цифр.\n", "ПИН-код состоит из 4 цифр.\n"),
    ("סיסמה\nשכחת?\n", "סיסמה\nשכחת?\n"),
    ("Weka nenosiri lako.\n", "Weka nenosiri lako.\n"),
    ("GPIO pin 17 and pin 27\n", "GPIO pin 17 and pin 27\n"),
    ("palabra clave: seguridad\n", "palabra clave: seguridad\n"),
])
def test_passwords_and_codes_in_other_languages_and_scripts(text, expected):
    _exact(text, expected)


@pytest.mark.parametrize("text,expected", [
    ("Ο κωδικός του router είναι Paros_2021\n", f"Ο κωδικός του router είναι {R}\n"),
    ("セゾンカード 暗証番号は 7730 です。\n", f"セゾンカード 暗証番号は {R} です。\n"),
    ("رمز اینترنت: Tabriz#1399\n", f"رمز اینترنت: {R}\n"),
    ("Code wifi du chalet\nChamonix_2020\n", f"Code wifi du chalet\n{R}\n"),
    ("Codice di accesso: Dolomiti_77\n", f"Codice di accesso: {R}\n"),
    ("Please use the following password to proceed to installation:\n\n3e9a1f7c2b8d4e6a0c5f1b9d7e3a2c4f\n",
     f"Please use the following password to proceed to installation:\n\n{R}\n"),
    ("$ sudo cat /var/lib/rabbitmq/.erlang.cookie\nHQZLMRKPTYWQXDNAVBCE\n", f"$ sudo cat /var/lib/rabbitmq/.erlang.cookie\n{R}\n"),
    ("wep-key0=5e1c9a3f7b2d8e4a6c0f1b3d5e\n", f"wep-key0={R}\n"),
    (" standby 2 authentication md5 key-string 7 070C285F4D061A0A19\n", f" standby 2 authentication md5 key-string 7 {R}\n"),
    (" vrrp 3 authentication text Vrrp-Pass1\n", f" vrrp 3 authentication text {R}\n"),
    ("config radius auth add 2 10.0.0.21 1812 ascii Rad-Wlc-22!\n", f"config radius auth add 2 10.0.0.21 1812 ascii {R}\n"),
    ("set snmp community Lab-R3ad clients 192.0.2.0/24\n", f"set snmp community {R} clients 192.0.2.0/24\n"),
    ('config system snmp community\n    edit 2\n        set name "Fgt-Snmp-9"\n    next\nend\n',
     f'config system snmp community\n    edit 2\n        set name "{R}"\n    next\nend\n'),
    ("TAN-Liste Bogen 2\nTAN 05 = 449201\nTAN 06 = 380174\n", f"TAN-Liste Bogen 2\nTAN 05 = {R}\nTAN 06 = {R}\n"),
    # look-alikes
    ("Website;Benutzer;Kennwort\nexample.org;anna;[REDACTED:SECRET]\n", "Website;Benutzer;Kennwort\nexample.org;anna;[REDACTED:SECRET]\n"),
    ("pin:      ^\\d{4,6}$\n", "pin:      ^\\d{4,6}$\n"),
    ("R1#show snmp community\n\nCommunity name: ILMI\n", "R1#show snmp community\n\nCommunity name: ILMI\n"),
    ("aaa authentication login default group tacacs+ local\n", "aaa authentication login default group tacacs+ local\n"),
    ("vault_password_file = ~/.vault_pass.txt\ninventory = hosts.ini\n", "vault_password_file = ~/.vault_pass.txt\ninventory = hosts.ini\n"),
])
def test_second_batch_forms(text, expected):
    _exact(text, expected)


# A 24-word seed (valid BIP-39 checksum) written in two columns, read across its rows.
_SEED24 = ("view pig mystery reunion morning sign note suggest nurse blouse reduce jewel december obey velvet behind "
           "tent spoon include jump acid dismiss motor coral").split()


def _columns(words: list[str], sep: str) -> str:
    half = len(words) // 2
    return "\n".join(f"{words[i]}{sep}{words[i + half]}" for i in range(half))


@pytest.mark.parametrize("label", ["Trezor backup", "wallet"])
def test_a_seed_in_columns_under_a_label_that_names_no_seed_is_caught_by_its_checksum(label):
    # A label that only says "wallet" or "backup" is no proof of a seed, but words that carry
    # BIP-39's checksum (read across or down the columns) are one: the label-only rule of
    # this round had stopped catching these, which the older rule did.
    from filegram.redact.rules import bip39_checksum_ok

    assert bip39_checksum_ok(_SEED24)
    out = redact(f"{label}\n{_columns(_SEED24, chr(9))}\n")
    assert not any(w in out.split() for w in _SEED24), out
    # the same words out of order carry no checksum: a list, left alone under such a label
    shuffled = _SEED24[1:] + _SEED24[:1]
    assert not bip39_checksum_ok(shuffled)
    plain = f"{label}\n{_columns(shuffled, chr(9))}\n"
    assert redact(plain) == plain
