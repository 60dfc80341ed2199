"""Which address a phone can open: the machine's network address, and the base of invite links.

A browser on the serving computer often opens the table through a loopback address (127.0.0.1, localhost),
which no other device can reach; a room's invite link and QR code built from it would send a friend's
phone nowhere. So the server knows two addresses besides the one a request came through (both set by
``polytable serve``, see :class:`._base.Settings`):

* ``public_url`` (``--public-url``): the address players open behind a proxy or a domain; every invite
  link and QR code carries it;
* ``network_url``: this machine's address on its network, when the server listens there; it replaces a
  loopback address in invite links. A request that came through any other address keeps it (a phone that
  opened the table by the network address or by a name invites others by the same).

Finding the network address sends nothing: a UDP socket "connected" to an address outside the machine
only asks the kernel which interface (and so which source address) would carry traffic there.
"""

from __future__ import annotations

import ipaddress
import socket

__all__ = ["WILDCARDS", "invite_base", "is_loopback_host", "network_address", "url_of"]

WILDCARDS = ("0.0.0.0", "::", "")
"""Listening addresses that mean every interface of the machine."""

_ROUTE_PROBE = "198.51.100.1"
"""A documentation address (RFC 5737): never a real host; the kernel's route to it is the default route."""


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine only."""
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def network_address(listen_host: str) -> str | None:
    """The address other devices open for a server listening on ``listen_host``, or None.

    A wildcard (0.0.0.0, ::) listens on every interface: the address of the interface of the default route
    (the network the machine is on), else the first non-loopback address its own name resolves to. A
    loopback address listens for this machine only (None); any other address is itself.
    """
    if listen_host in WILDCARDS:
        return _default_route_address() or _named_address()
    if is_loopback_host(listen_host):
        return None
    return listen_host


def url_of(scheme: str, host: str, port: int) -> str:
    """``scheme://host:port`` (an IPv6 address in brackets), without a trailing slash."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{scheme}://{shown}:{port}"


def invite_base(request_base: str, request_host: str | None, public_url: str, network_url: str) -> str:
    """The base of the links a request hands out (``/r/CODE``, a card's page): ``public_url`` when set, the
    network address when the request came through a loopback address, else the address of the request."""
    if public_url:
        return public_url.rstrip("/")
    if network_url and is_loopback_host(request_host or ""):
        return network_url.rstrip("/")
    return request_base.rstrip("/")


def _default_route_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((_ROUTE_PROBE, 9))  # UDP: no packet is sent
            addr: str = s.getsockname()[0]
    except OSError:  # no route: no network
        return None
    return None if addr.startswith(("127.", "0.")) else addr


def _named_address() -> str | None:
    try:
        _, _, addrs = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return None
    return next((a for a in addrs if not a.startswith("127.")), None)
