"""Which notice targets a seat may give: the kind must be allowed by whoever runs the
server (`KARANOR_NOTICE_KINDS`) and the host it makes the server call must resolve to
public addresses only, unless `KARANOR_NOTICE_PRIVATE_ADDRESSES` allows loopback and
private ones (no seat makes the server call into its network).

Every refusal is a `Refused` with a stable code and a message that never repeats the
URL (a seat's URL is a secret)."""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

WEB_PUSH = "web_push"
MAX_URL_CHARS = 2000
MAX_TARGETS_PER_SEAT = 10  # devices and URLs of one seat: a notice is one call each

# Apprise and the HTTP libraries under it write URLs (and so a seat's tokens) into
# their log lines: they say nothing through our logs.
for _name in ("apprise", "urllib3", "requests", "pywebpush"):
    logging.getLogger(_name).disabled = True


def _no_redirects() -> None:
    """Notices are the only HTTP client of this process (Apprise and pywebpush, through
    requests): a redirect is refused rather than followed, so a public host cannot send
    the server on to an address the checks below would refuse."""
    import requests.sessions

    requests.sessions.DEFAULT_REDIRECT_LIMIT = 0


Resolver = Callable[[str], Iterable[str]]


class Refused(ValueError):
    """A target the server will not call: a stable `code`, a message for a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def resolve(host: str) -> list[str]:
    """Every address `host` resolves to now (an address stays itself)."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise Refused("notice_host_unknown", "the notice address does not resolve") from error
    return sorted({str(info[4][0]) for info in infos})


def is_public(address: str) -> bool:
    """A global unicast address (not loopback, private, link-local, reserved, multicast,
    unspecified; an IPv4-mapped IPv6 address judged as its IPv4 one)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def check_host(host: str, *, private_ok: bool, resolver: Resolver = resolve) -> None:
    """:raises Refused: `notice_address_not_allowed` when `host` resolves to any address
    that is not public (and private ones are not allowed)."""
    host = host.strip("[]")  # an IPv6 literal as URLs write it
    if not host:
        raise Refused("notice_url_invalid", "the notice address names no host")
    addresses = list(resolver(host))
    if not addresses:
        raise Refused("notice_host_unknown", "the notice address does not resolve")
    if not private_ok and not all(is_public(a) for a in addresses):
        raise Refused(
            "notice_address_not_allowed",
            "this server does not send notices to loopback or private addresses",
        )


def _protocols(plugin: object) -> set[str]:
    out: set[str] = set()
    for name in ("protocol", "secure_protocol"):
        value = getattr(plugin, name, None)
        if isinstance(value, str):
            out.add(value.lower())
        elif isinstance(value, list | tuple):
            out.update(str(v).lower() for v in value)
    return out


def _called_host(plugin: object) -> str:
    """The host a parsed Apprise plugin calls: its service's fixed URL (Telegram, ntfy's
    cloud), else the host the URL names."""
    fixed = getattr(plugin, "notify_url", None)
    if getattr(plugin, "mode", None) == "cloud":
        fixed = getattr(plugin, "cloud_notify_url", None)
    if isinstance(fixed, str) and fixed.startswith(("http://", "https://")):
        return urlsplit(fixed).hostname or ""
    return str(getattr(plugin, "host", "") or "")


def plugin_of(url: str) -> Any:
    """The one Apprise plugin a URL names. Several URLs in one string (Apprise splits on
    spaces and commas when given text) are refused: only the plugin checked is called.

    :raises Refused: `notice_url_invalid`."""
    import apprise  # imported on use: a server without URL notices never loads it

    if len(url) > MAX_URL_CHARS or "://" not in url or url.count("://") > 1:
        raise Refused("notice_url_invalid", "one Apprise URL")
    if any(c.isspace() for c in url) or "," in url.split("?", 1)[0]:
        raise Refused("notice_url_invalid", "one Apprise URL")
    plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
    if plugin is None:
        raise Refused("notice_url_invalid", "not an Apprise URL this server understands")
    return plugin


def check_url(url: str, kinds: Iterable[str], *, private_ok: bool) -> Any:
    """The plugin of an Apprise URL a seat may give. :raises Refused: `notice_url_invalid`,
    `notice_kind_not_allowed`, `notice_host_unknown`, `notice_address_not_allowed`."""
    allowed = {k.lower() for k in kinds}
    plugin = plugin_of(url)
    scheme = url.split("://", 1)[0].lower()
    if not ({scheme} | _protocols(plugin)) & allowed:
        raise Refused("notice_kind_not_allowed", "this server does not send this kind of notice")
    check_host(_called_host(plugin), private_ok=private_ok)
    return plugin


def check_endpoint(endpoint: str, kinds: Iterable[str], *, private_ok: bool) -> None:
    """A Web Push endpoint a seat may give (https; plain http only where private
    addresses are allowed, for a push service on the home network or in tests).

    :raises Refused: `notice_kind_not_allowed`, `notice_url_invalid`, and the address
        refusals of `check_host`."""
    if WEB_PUSH not in {k.lower() for k in kinds}:
        raise Refused("notice_kind_not_allowed", "this server does not send Web Push notices")
    parts = urlsplit(endpoint)
    if len(endpoint) > MAX_URL_CHARS or parts.scheme not in ("https", "http"):
        raise Refused("notice_url_invalid", "a push endpoint is an https URL")
    if parts.scheme == "http" and not private_ok:
        raise Refused("notice_url_invalid", "a push endpoint is an https URL")
    check_host(parts.hostname or "", private_ok=private_ok)
