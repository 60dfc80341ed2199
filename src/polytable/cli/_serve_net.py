"""Where ``polytable serve`` listens, which addresses it prints, and its TLS: the table as phones reach it.

The default listens on every interface (0.0.0.0): the phones at the table are on the same Wi-Fi or network
as the computer, and that is where a table is played. A home network is not the internet (its router lets
nothing in unless told to), but anyone on the same network can open the table, so ``--local`` keeps it on
this computer, and the banner says both. The banner prints the local address, the address phones open
(this machine's network address, or ``--public-url``) and a QR code of the latter drawn in the terminal.

TLS: ``--tls-cert``/``--tls-key`` serve a certificate the operator has; ``--https`` makes the table's own
(see :mod:`polytable.web._tls`) and the banner says what a phone must accept. Over plain http on a network
address, browsers turn off offline play, installing the app and the camera; the banner says so too.
"""

from __future__ import annotations

import os
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..web._address import WILDCARDS, is_loopback_host, network_address, url_of

__all__ = ["ServePlan", "plan_serving", "terminal_qr"]


@dataclass
class ServePlan:
    """What ``serve`` does besides the app: listen address, uvicorn's TLS settings, the app's addresses."""

    host: str
    local_url: str
    phone_url: str | None
    """The address printed (and drawn as a QR code) for phones; None when only this computer can open it."""
    network_url: str = ""
    public_url: str = ""
    ssl: dict[str, Any] = field(default_factory=dict)
    """uvicorn's ``ssl_certfile`` and ``ssl_keyfile`` (empty: plain http)."""
    ca_file: str = ""
    """The table's own authority (``--https``): served at ``/tls/ca.crt`` for phones to trust."""
    notes: list[str] = field(default_factory=list)

    def env(self) -> dict[str, str]:
        """The ``POLYTABLE_SERVE_*`` settings the app reads (see ``web.app_from_env``)."""
        return {"PUBLIC_URL": self.public_url, "NETWORK_URL": self.network_url, "TLS_CA": self.ca_file}

    def banner(self, where: str, colour: bool | None = None) -> str:
        """What the terminal shows at start-up: addresses, a QR code of the phones' one, and notes."""
        lines = [f"polytable is serving on {self.local_url}/  ({where}; Ctrl+C stops)"]
        if self.phone_url:
            lines += [
                "",
                f"  Phones open:  {self.phone_url}/",
                "  (or scan this code with the phone's camera)",
                "",
                terminal_qr(self.phone_url + "/", colour),
            ]
        for note in self.notes:
            lines += ["", textwrap.fill(note, 100, initial_indent="  ", subsequent_indent="  ", break_long_words=False)]
        return "\n".join(lines)


def plan_serving(
    host: str,
    port: int,
    *,
    local: bool = False,
    public_url: str | None = None,
    https: bool = False,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
) -> ServePlan:
    """Check the options and work out the addresses and certificate; ValueError says what is wrong."""
    if local:
        if host not in (*WILDCARDS, "127.0.0.1") and not is_loopback_host(host):
            raise ValueError(f"--local listens on 127.0.0.1 only; leave out --host {host} or --local")
        host = "127.0.0.1"
    if public_url is not None:
        public_url = public_url.strip().rstrip("/")
        if not public_url.startswith(("http://", "https://")) or len(public_url) > 200 or " " in public_url:
            raise ValueError(
                f"--public-url takes the address players open, such as https://games.example.org, "
                f"not {public_url[:60]!r}"
            )
    if (tls_cert is None) != (tls_key is None):
        raise ValueError("--tls-cert and --tls-key go together: the certificate and its private key")
    if https and tls_cert is not None:
        raise ValueError("--https makes the table's own certificate; leave it out with --tls-cert/--tls-key")
    for f in (tls_cert, tls_key):
        if f is not None and not f.is_file():
            raise ValueError(f"no such file: {f}")
    scheme = "https" if https or tls_cert is not None else "http"
    lan = network_address(host)
    shown = "127.0.0.1" if host in WILDCARDS else host
    plan = ServePlan(host=host, local_url=url_of(scheme, shown, port), phone_url=None, public_url=public_url or "")
    if lan is not None:
        plan.network_url = url_of(scheme, lan, port)
    plan.phone_url = plan.public_url or plan.network_url or None
    if tls_cert is not None and tls_key is not None:
        plan.ssl = {"ssl_certfile": str(tls_cert), "ssl_keyfile": str(tls_key)}
    elif https:
        _table_tls(plan, [h for h in (lan, _host_of(public_url)) if h])
    _notes(plan, host, scheme)
    return plan


def _host_of(url: str | None) -> str | None:
    if not url:
        return None
    from urllib.parse import urlsplit

    return urlsplit(url).hostname


def _table_tls(plan: ServePlan, hosts: list[str]) -> None:
    try:
        from ..web._tls import table_certificate, tls_dir
    except ImportError as exc:  # pragma: no cover - cryptography is a dependency
        raise ValueError(f"--https needs the cryptography package ({exc})") from None
    folder = tls_dir()
    try:
        made = table_certificate(folder, hosts)
    except OSError as exc:
        raise ValueError(f"the table's certificate could not be kept in {folder}: {exc}") from None
    plan.ssl = {"ssl_certfile": str(made.cert), "ssl_keyfile": str(made.key)}
    plan.ca_file = str(made.ca)
    where = str(folder).replace(str(Path.home()), "~", 1)
    note = (
        f'https, with a certificate this computer made and keeps ({where}; its authority "polytable table CA" '
        f"has the SHA-256 fingerprint {made.fingerprint})."
    )
    if plan.phone_url:
        note += (
            " A phone's first visit warns that the connection is not private: tap Advanced, then Proceed (Safari:"
            " Show Details, then visit this website). For offline play and installing the app, each phone trusts"
            f" the certificate once: the table shows the steps, or open {plan.phone_url}/tls/ca.crt on the phone."
        )
    plan.notes.append(note)
    missing = [h for h in hosts if h not in made.names]
    if missing:
        plan.notes.append(
            f"The table's authority may not vouch for {', '.join(missing)} (not a home-network address or name): "
            "phones will refuse it there; use --tls-cert/--tls-key with a certificate for it."
        )


def _notes(plan: ServePlan, host: str, scheme: str) -> None:
    if host in WILDCARDS:
        if plan.network_url:
            plan.notes.insert(0, "Anyone on this network can open the table; --local keeps it on this computer.")
        else:
            plan.notes.insert(0, "No network address was found: is this computer on a network (Wi-Fi)?")
    elif is_loopback_host(host) and not plan.public_url:
        plan.notes.insert(0, "Only this computer can open it (--local); without --local, phones on its network can.")
    if scheme == "http" and plan.phone_url and not plan.public_url.startswith("https"):
        plan.notes.append(
            "Over http, phones play online only: offline play, installing the app and the in-app card scan need "
            "https (polytable serve --https; make run ARGS=--https)."
        )


def terminal_qr(text: str, colour: bool | None = None) -> str:
    """A QR code of ``text`` drawn with half blocks, two modules a character row (a phone's camera reads it
    off the screen). In colour (a terminal that is not told NO_COLOR) the light and dark modules are
    painted white and black, right on any theme; without, the dark modules are the blocks (right on a light
    background; most scanners read the inverse too)."""
    import qrcode  # type: ignore[import-untyped,unused-ignore]

    if colour is None:
        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    rows: list[list[bool]] = qr.get_matrix()
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    out = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        if colour:  # the upper half block in the top module's colour on the bottom module's colour
            line, last = "  ", None
            for pair in zip(top, bottom, strict=True):
                if pair != last:
                    line += f"\x1b[{30 if pair[0] else 97};{40 if pair[1] else 107}m"
                    last = pair
                line += "▀"
            out.append(line + "\x1b[0m")
        else:
            chars = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
            out.append(("  " + "".join(chars[a, b] for a, b in zip(top, bottom, strict=True))).rstrip())
    return "\n".join(out)
