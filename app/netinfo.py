"""This machine's network addresses, as friends on the same network would type them.

Found without sending a packet: connecting a UDP socket only picks the interface a
route would use; on Linux every interface's IPv4 address is read with an ioctl; the
host name's addresses are added. Loopback, link-local and unspecified addresses are left
out; the address of the default route comes first (the likeliest to work).
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from typing import Literal

Family = Literal["ipv4", "ipv6", "any"]

# Documentation addresses (RFC 5737, RFC 3849): connect() on UDP sends nothing.
_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))
_SIOCGIFADDR = 0x8915


def usable(address: str) -> bool:
    """An address another machine could reach: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _route_addresses() -> list[str]:
    found = []
    for family, probe in _PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found.append(str(sock.getsockname()[0]))
        except OSError:
            continue  # no route for this family
    return found


def _linux_interface_addresses() -> list[str]:
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in interfaces:
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, request)
            except OSError:
                continue  # no IPv4 address on this interface
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _hostname_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def lan_addresses(family: Family = "ipv4") -> list[str]:
    """Every usable address of this machine (see module doc), default route first."""
    seen: dict[str, None] = {}
    for address in _route_addresses() + _linux_interface_addresses() + _hostname_addresses():
        if not usable(address):
            continue
        is_v6 = ":" in address
        if (family == "ipv4" and is_v6) or (family == "ipv6" and not is_v6):
            continue
        seen.setdefault(address, None)
    return list(seen)


def listen_urls(host: str, port: int) -> list[str]:
    """The addresses to print: the one bound, and for a wildcard host every LAN address."""
    shown = f"[{host}]" if ":" in host else host
    urls = [f"http://{shown}:{port}/"]
    if host in ("0.0.0.0", "::", ""):
        family: Family = "ipv4" if host == "0.0.0.0" else "any"
        urls += [
            f"http://[{a}]:{port}/" if ":" in a else f"http://{a}:{port}/"
            for a in lan_addresses(family)
        ]
    return urls
