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
