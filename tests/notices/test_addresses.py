"""Which addresses a notice may make the server call (app/notices/addresses.py)."""

from __future__ import annotations

import pytest

from app.notices import addresses
from app.notices.addresses import Refused, check_host, is_public


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("192.168.1.20", False),
        ("172.16.0.1", False),
        ("169.254.169.254", False),  # cloud metadata
        ("100.64.0.1", False),  # carrier-grade NAT
        ("0.0.0.0", False),
        ("::1", False),
        ("fd00::1", False),
        ("fe80::1%eth0", False),
        ("::ffff:127.0.0.1", False),  # IPv4-mapped loopback
        ("224.0.0.1", False),
    ],
)
def test_only_global_unicast_addresses_are_public(address: str, public: bool) -> None:
    assert is_public(address) is public


def test_a_name_is_judged_by_every_address_it_resolves_to() -> None:
    def resolver(host: str) -> list[str]:
        return {"rebind.example": ["93.184.216.34", "127.0.0.1"], "ok.example": ["93.184.216.34"]}[
            host
        ]

    check_host("ok.example", private_ok=False, resolver=resolver)
    with pytest.raises(Refused) as refused:
        check_host("rebind.example", private_ok=False, resolver=resolver)
    assert refused.value.code == "notice_address_not_allowed"
    check_host("rebind.example", private_ok=True, resolver=resolver)


def test_a_service_url_is_checked_at_the_host_it_calls() -> None:
    import apprise

    telegram = apprise.Apprise.instantiate("tgram://123456:ABCdef/12345")
    assert addresses._called_host(telegram) == "api.telegram.org"  # not the bot token
    cloud = apprise.Apprise.instantiate("ntfy://mytopic")
    assert addresses._called_host(cloud) == "ntfy.sh"
    home = apprise.Apprise.instantiate("ntfy://192.168.1.5/mytopic")
    assert addresses._called_host(home) == "192.168.1.5"


def test_a_refusal_never_repeats_the_url() -> None:
    url = "json://127.0.0.1:9/hook/secret-token-1"
    for kinds, private_ok in ((["json"], False), (["tgram"], True)):
        with pytest.raises(Refused) as refused:
            addresses.check_url(url, kinds, private_ok=private_ok)
        assert "secret-token-1" not in str(refused.value) and "127.0.0.1" not in str(refused.value)


def test_one_url_only_the_one_checked_is_called() -> None:
    # Apprise splits text on commas and spaces: a public URL followed by a loopback one
    # would be two targets. Refused whole.
    for url in ("json://93.184.216.34/x, json://127.0.0.1/y", "json://93.184.216.34/x json://127.0.0.1/y",
                "json://93.184.216.34/json://127.0.0.1/"):  # fmt: skip
        with pytest.raises(Refused) as refused:
            addresses.plugin_of(url)
        assert refused.value.code == "notice_url_invalid"


def test_redirects_are_not_followed() -> None:
    import requests

    addresses._no_redirects()
    assert requests.Session().max_redirects == 0
