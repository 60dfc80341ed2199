"""The table's own certificate for ``polytable serve --https``: a local authority and a server certificate.

A phone's browser turns off offline play (the service worker), installing the app and the camera unless
the page is served over https; a service worker also needs a certificate the phone *trusts*: a certificate
accepted with "Proceed anyway" still refuses it. So ``--https`` makes, once, a small certificate authority
of this computer ("polytable table CA on HOST"), and with it a server certificate for this machine's
addresses. Each phone trusts that authority once (the app shows how and serves it at ``/tls/ca.crt``);
after that every certificate the table issues is accepted, also when the network address changes.

The authority may only vouch for the names a table uses (name constraints, RFC 5280 4.2.1.10): loopback,
private, link-local and shared address ranges, ``localhost``, ``.local``, ``.lan``, ``.home.arpa``,
``.internal`` and this computer's own name (and its network address of the day, when that lies outside
those ranges). A phone that trusts it trusts nothing else by it: a copy of its key could not impersonate a
bank or any site on the internet.

Everything is kept in :func:`tls_dir` (the keys readable by their owner only) so that a restart reuses it:
the authority for ten years, the server certificate for 825 days (the longest Apple's devices accept) and
reissued at once when the machine's names or addresses are no longer all in it.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["TableCert", "ca_fingerprint", "table_certificate", "tls_dir"]

CA_DAYS = 3650
SERVER_DAYS = 825
RENEW_DAYS = 30
"""A server certificate this close to its end is reissued at start-up."""

PERMITTED_NETWORKS = (
    "127.0.0.0/8",
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "169.254.0.0/16",
    "100.64.0.0/10",
    "::1/128",
    "fc00::/7",
    "fe80::/10",
)
"""The address ranges a table's authority may vouch for: loopback, private, link-local, shared (CGNAT)."""
PERMITTED_NAMES = ("localhost", "local", "lan", "home.arpa", "internal")
"""The names it may vouch for (each with every name below it)."""
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


@dataclass(frozen=True)
class TableCert:
    """The files uvicorn serves and what the banner says about them."""

    cert: Path
    key: Path
    ca: Path
    fingerprint: str
    """The authority's SHA-256 fingerprint, as phones show it (``AB:CD:...``)."""
    names: tuple[str, ...]
    """The names and addresses the server certificate holds."""


def tls_dir() -> Path:
    """Where ``--https`` keeps its files: ``polytable/tls`` in the user's data folder
    (``$XDG_DATA_HOME``, else ``~/.local/share``; ``%LOCALAPPDATA%`` on Windows)."""
    base = os.environ.get("LOCALAPPDATA") if os.name == "nt" else os.environ.get("XDG_DATA_HOME")
    root = Path(base) if base else Path.home() / ".local" / "share"
    return root / "polytable" / "tls"


def table_certificate(folder: Path, hosts: list[str]) -> TableCert:
    """The authority and a server certificate for ``hosts`` (names and addresses) in ``folder``, made or
    reused. Names the authority may not vouch for are left out of the server certificate."""
    from cryptography import x509

    folder.mkdir(parents=True, exist_ok=True)
    ca_file, ca_key_file = folder / "ca.pem", folder / "ca-key.pem"
    cert_file, key_file = folder / "server.pem", folder / "server-key.pem"
    if not (ca_file.exists() and ca_key_file.exists()):
        _new_authority(ca_file, ca_key_file, hosts)
    ca = x509.load_pem_x509_certificate(ca_file.read_bytes())
    wanted = _allowed(ca, _names(hosts))
    if not _still_good(cert_file, key_file, ca, wanted):
        _new_server_cert(cert_file, key_file, ca, ca_key_file, wanted)
    return TableCert(cert_file, key_file, ca_file, ca_fingerprint(ca_file), tuple(wanted))


def ca_fingerprint(ca_file: Path) -> str:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    digest = x509.load_pem_x509_certificate(ca_file.read_bytes()).fingerprint(hashes.SHA256())
    return ":".join(f"{b:02X}" for b in digest)


def _names(hosts: list[str]) -> list[str]:
    """The server certificate's names: the given hosts, loopback, and this computer's own name."""
    out = ["localhost", "127.0.0.1", "::1"]
    own = socket.gethostname().lower().rstrip(".")
    if own and all(_LABEL.fullmatch(part) for part in own.split(".")):
        out += [own] if "." in own else [own, f"{own}.local"]
    for h in hosts:
        ip = _ip(h.strip("[]"))
        out.append(str(ip) if ip is not None else h.lower().rstrip("."))
    return list(dict.fromkeys(n for n in out if n))


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def _covered(name: str, names: list[str], networks: list[Any]) -> bool:
    """Whether a name constraint's permitted ``names`` or ``networks`` hold ``name`` (a name or address)."""
    ip = _ip(name)
    if ip is None:
        return any(name == n or name.endswith("." + n) for n in names)
    return any(ip in net for net in networks)


def _permitted(hosts: list[str]) -> tuple[list[str], list[Any]]:
    """The authority's permitted names and networks: the fixed ones, this computer's name and any given
    address outside the fixed ranges (a network that uses public addresses inside)."""
    networks: list[Any] = [ipaddress.ip_network(n) for n in PERMITTED_NETWORKS]
    names = list(PERMITTED_NAMES)
    for h in _names(hosts):
        if not _covered(h, names, networks):
            ip = _ip(h)
            if ip is None:
                names.append(h)
            else:
                networks.append(ipaddress.ip_network(ip))
    return names, networks


def _allowed(ca: Any, names: list[str]) -> list[str]:
    """The ``names`` the authority ``ca`` may vouch for."""
    from cryptography import x509

    try:
        nc = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return names
    subtrees = nc.permitted_subtrees or ()
    dns = [g.value for g in subtrees if isinstance(g, x509.DNSName)]
    nets = [g.value for g in subtrees if isinstance(g, x509.IPAddress)]
    return [n for n in names if _covered(n, dns, nets)]


def _key_usage(authority: bool) -> Any:
    """Signing only: certificates (and revocation lists) for the authority, the TLS handshake for a server."""
    from cryptography import x509

    return x509.KeyUsage(
        digital_signature=True,
        key_cert_sign=authority,
        crl_sign=authority,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        encipher_only=False,
        decipher_only=False,
    )


def _write(path: Path, data: bytes, secret: bool = False) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if secret else 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _new_authority(ca_file: Path, key_file: Path, hosts: list[str]) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "polytable"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"polytable table CA on {socket.gethostname()[:30]}"),
        ]
    )
    names, networks = _permitted(hosts)
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(authority=True), critical=True)
        .add_extension(
            x509.NameConstraints(
                permitted_subtrees=[x509.DNSName(n) for n in names] + [x509.IPAddress(n) for n in networks],
                excluded_subtrees=None,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    _write(key_file, key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()), True)
    _write(ca_file, cert.public_bytes(pem))


def _still_good(cert_file: Path, key_file: Path, ca: Any, wanted: list[str]) -> bool:
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature

    if not (cert_file.exists() and key_file.exists()):
        return False
    try:
        cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
        cert.verify_directly_issued_by(ca)
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (ValueError, TypeError, x509.ExtensionNotFound, InvalidSignature):
        return False
    held = {str(v).lower() for v in san.get_values_for_type(x509.DNSName)}
    held |= {str(v) for v in san.get_values_for_type(x509.IPAddress)}
    left = cert.not_valid_after_utc - dt.datetime.now(dt.UTC)
    return set(wanted) <= held and left > dt.timedelta(days=RENEW_DAYS)


def _new_server_cert(cert_file: Path, key_file: Path, ca: Any, ca_key_file: Path, names: list[str]) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    ca_key = serialization.load_pem_private_key(ca_key_file.read_bytes(), password=None)
    if not isinstance(ca_key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{ca_key_file} is not the table's authority key")
    key = ec.generate_private_key(ec.SECP256R1())
    alt: list[x509.GeneralName] = []
    for n in names:
        ip = _ip(n)
        alt.append(x509.IPAddress(ip) if ip is not None else x509.DNSName(n))
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "polytable table")]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(authority=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    _write(key_file, key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()), True)
    _write(cert_file, cert.public_bytes(pem))
