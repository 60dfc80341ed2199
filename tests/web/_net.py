"""A test host on a network of its own, for the tests of a phone that opens the table by a network address.

A browser treats this computer's own loopback address as secure even over http, so what phones meet (an
insecure http origin, https with the table's certificate) shows only on another address. The test host is a
network namespace joined to this one by a veth pair, with addresses from 198.18.0.0/15 (the range set apart
for network tests, RFC 2544): the server runs inside it, listening on every interface as ``serve`` does by
default, and the browser reaches it from outside, as a phone on the same Wi-Fi reaches the computer. The
traffic never leaves this machine. Making one needs ``ip`` and the right to create namespaces (root); without
them the machine's own network address is used, and without that the tests skip with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from PIL import Image

from polytable.web._address import network_address


@dataclass
class LanHost:
    """Where a server runs for the tests: ``prefix`` runs a command on the host, ``listen`` is the address
    its server listens on, ``addr`` the one the browser opens."""

    addr: str
    listen: str
    prefix: list[str] = field(default_factory=list)
    netns: str = ""


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=20)


@contextmanager
def lan_host() -> Iterator[LanHost | str]:
    """A test host (or, failing that, this machine's network address); a string says why there is none."""
    made = _namespace()
    if isinstance(made, LanHost):
        try:
            yield made
        finally:
            subprocess.run(["ip", "netns", "del", made.netns], capture_output=True, timeout=20)
        return
    own = network_address("0.0.0.0")
    if own is not None:
        yield LanHost(addr=own, listen=own)
        return
    yield f"no test host ({made}) and this machine has no network address"


def _namespace() -> LanHost | str:
    if shutil.which("ip") is None:
        return "the ip command is missing"
    pid = os.getpid()
    name, outer, inner = f"ptable-{pid}", f"ptv{pid}a", f"ptv{pid}b"
    idx = pid % 16000
    net = f"198.18.{idx // 64}.{(idx % 64) * 4}"
    base = net.rsplit(".", 1)[0] + "."
    last = int(net.rsplit(".", 1)[1])
    host_side, test_side = f"{base}{last + 1}", f"{base}{last + 2}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)  # a crashed run's leftover
    try:
        _ip("netns", "add", name)
    except (subprocess.CalledProcessError, OSError) as exc:
        return f"ip netns add failed: {getattr(exc, 'stderr', b'') or exc!s}".strip()
    try:
        _ip("link", "add", outer, "type", "veth", "peer", "name", inner)
        _ip("link", "set", inner, "netns", name)
        _ip("addr", "add", f"{host_side}/30", "dev", outer)
        _ip("link", "set", outer, "up")
        inside = ["netns", "exec", name, "ip"]
        _ip(*inside, "addr", "add", f"{test_side}/30", "dev", inner)
        _ip(*inside, "link", "set", inner, "up")
        _ip(*inside, "link", "set", "lo", "up")
        _ip(*inside, "route", "add", "default", "via", host_side)
    except (subprocess.CalledProcessError, OSError) as exc:
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)
        subprocess.run(["ip", "link", "del", outer], capture_output=True, timeout=20)
        return f"the test host's network could not be made: {getattr(exc, 'stderr', b'') or exc!s}".strip()
    return LanHost(addr=test_side, listen="0.0.0.0", prefix=["ip", "netns", "exec", name], netns=name)


def read_terminal_qr(text: str) -> str:
    """What a phone's camera reads off the plain (no colour) terminal QR code: half blocks back to modules."""
    import zxingcpp

    top = {"█": True, "▀": True, "▄": False, " ": False}
    bottom = {"█": True, "▀": False, "▄": True, " ": False}
    lines = [line for line in text.splitlines() if line.strip() and set(line) <= set(top)]
    width = max(len(line) for line in lines)
    rows: list[list[bool]] = []
    for line in lines:
        line = line.ljust(width)
        rows += [[top[c] for c in line], [bottom[c] for c in line]]
    scale, pad = 8, 4
    img = Image.new("L", ((width + 2 * pad) * scale, (len(rows) + 2 * pad) * scale), 255)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                img.paste(0, ((x + pad) * scale, (y + pad) * scale, (x + pad + 1) * scale, (y + pad + 1) * scale))
    found = zxingcpp.read_barcodes(img)
    assert found, "no QR code could be read off the terminal"
    return str(found[0].text)
