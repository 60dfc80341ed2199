"""The offline engine's files: a pure-Python wheel of the rules and the Pyodide runtime, served to the PWA.

Why: people play these games around a kitchen table, often with no server. The browser runs the very
same rules under Pyodide (WebAssembly CPython) in a Web Worker, so no rule is ported to JavaScript. The
wheel is made from the modules this server itself runs (the kernel, the geometry, the games and matches:
no server parts), byte for byte reproducible, so the offline engine can never drift from the server's.
Pyodide comes from npm at set-up (``scripts/npm-assets.sh`` copies its runtime files into
``static/vendor/pyodide``); it is served from here and cached by the service worker, never fetched from a
CDN. Zipping files is not compiling: nothing here builds code at run time.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from functools import cache
from pathlib import Path

from .. import __version__

__all__ = ["PYODIDE_DIR", "RULES_PACKAGES", "pyodide_available", "rules_wheel", "wheel_name"]

PACKAGE = Path(__file__).resolve().parent.parent
"""The installed ``polytable`` package folder the wheel is made from."""
PYODIDE_DIR = Path(__file__).resolve().parent / "static" / "vendor" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
RULES_PACKAGES = ("core", "geometry", "games", "match", "ai")
"""What the offline engine needs (the rules, matches and the players); web, storage, cli ... stay on the server."""
_TOP_FILES = ("__init__.py", "py.typed")
_DIST = "polytable_rules"
_EPOCH = (1980, 1, 1, 0, 0, 0)


def wheel_name() -> str:
    """The wheel's file name (PEP 427): ``polytable_rules-VERSION-py3-none-any.whl``."""
    return f"{_DIST}-{__version__}-py3-none-any.whl"


def _rules_files() -> list[tuple[str, bytes]]:
    files: list[tuple[str, bytes]] = []
    for name in _TOP_FILES:
        path = PACKAGE / name
        if path.is_file():
            files.append((f"polytable/{name}", path.read_bytes()))
    for sub in RULES_PACKAGES:
        for path in sorted((PACKAGE / sub).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix in {".pyc", ".c", ".so"}:
                continue
            files.append((f"polytable/{path.relative_to(PACKAGE).as_posix()}", path.read_bytes()))
    return files


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


@cache
def rules_wheel() -> bytes:
    """The wheel's bytes (the same files give the same bytes: fixed timestamps and order)."""
    dist_info = f"{_DIST}-{__version__}.dist-info"
    files = _rules_files()
    files.append(
        (
            f"{dist_info}/METADATA",
            (
                f"Metadata-Version: 2.1\nName: {_DIST}\nVersion: {__version__}\n"
                "Summary: polytable's pure rules (kernel, geometry, games, matches) for the offline engine\n"
                "Requires-Python: >=3.11\n"
            ).encode(),
        )
    )
    files.append(
        (
            f"{dist_info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: polytable\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
    )
    record = [_record_line(name, data) for name, data in files]
    record.append(f"{dist_info}/RECORD,,")
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return buf.getvalue()


def pyodide_available() -> bool:
    """True when set-up copied Pyodide's runtime files here (npm was reachable)."""
    return all((PYODIDE_DIR / name).is_file() for name in PYODIDE_FILES)
