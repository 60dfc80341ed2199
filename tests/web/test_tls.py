"""``serve --https``: the table's own certificate authority and server certificate (made once, kept, reissued
when an address changes, bounded to home-network names), and a real ``serve`` process answering https."""

from __future__ import annotations

import datetime as dt
import os
import signal
import ssl
import subprocess
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
x509 = pytest.importorskip("cryptography.x509")

from polytable.web._tls import SERVER_DAYS, table_certificate  # noqa: E402

from ._proc import POLYTABLE, free_port  # noqa: E402


def _names(cert_file: Path) -> set[str]:
    cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {str(v) for v in san.get_values_for_type(x509.IPAddress)} | set(san.get_values_for_type(x509.DNSName))


def test_the_certificate_is_made_once_kept_and_reissued_when_the_address_changes(tmp_path: Path) -> None:
    first = table_certificate(tmp_path, ["192.168.1.20"])
    assert {"192.168.1.20", "127.0.0.1", "::1", "localhost"} <= _names(first.cert)
    assert (tmp_path / "ca-key.pem").stat().st_mode & 0o777 == 0o600
    assert first.key.stat().st_mode & 0o777 == 0o600
    ca = x509.load_pem_x509_certificate(first.ca.read_bytes())
    leaf = x509.load_pem_x509_certificate(first.cert.read_bytes())
    leaf.verify_directly_issued_by(ca)
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= dt.timedelta(days=SERVER_DAYS, hours=1)
    assert len(first.fingerprint.split(":")) == 32

    again = table_certificate(tmp_path, ["192.168.1.20"])  # a restart: the very same files
    assert again.cert.read_bytes() == first.cert.read_bytes() and again.fingerprint == first.fingerprint

    before = first.cert.read_bytes()
    moved = table_certificate(tmp_path, ["10.0.0.7"])  # another network: a new server certificate, same authority
    assert moved.fingerprint == first.fingerprint and moved.cert.read_bytes() != before
    assert "10.0.0.7" in _names(moved.cert)


def test_the_authority_may_vouch_only_for_home_network_names(tmp_path: Path) -> None:
    made = table_certificate(tmp_path, ["192.168.1.20"])
    ca = x509.load_pem_x509_certificate(made.ca.read_bytes())
    nc = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert nc.critical
    permitted = {str(g.value) for g in nc.value.permitted_subtrees}
    assert {"192.168.0.0/16", "10.0.0.0/8", "localhost", "local"} <= permitted
    assert not any(p.endswith(("com", "org")) for p in permitted)
    # a name outside them is left out of the server certificate (a phone would refuse the whole certificate)
    outside = table_certificate(tmp_path, ["www.example.com"])
    assert "www.example.com" not in _names(outside.cert) and "www.example.com" not in outside.names


@pytest.mark.slow
def test_serve_https_answers_over_tls_with_a_certificate_its_authority_vouches_for(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    cmd = [*POLYTABLE, "serve", "--https", "--local", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'tls.db'}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith(f"polytable is serving on https://127.0.0.1:{port}/")
        ca = tmp_path / "data" / "polytable" / "tls" / "ca.pem"
        trust = ssl.create_default_context(cafile=str(ca))  # verified as a phone that trusts the table would
        deadline = time.monotonic() + 30
        while True:
            try:
                page = httpx.get(f"https://127.0.0.1:{port}/", verify=trust, timeout=2)
                break
            except httpx.ConnectError as exc:
                assert "CERTIFICATE" not in str(exc).upper(), exc
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert page.status_code == 200 and "polytable" in page.text
        got = httpx.get(f"https://localhost:{port}/tls/ca.crt", verify=trust, timeout=5)
        assert got.status_code == 200 and got.content == ca.read_bytes()
        with pytest.raises(httpx.ConnectError):  # a client that does not trust the table refuses it
            httpx.get(f"https://127.0.0.1:{port}/", timeout=5)
        with pytest.raises(httpx.HTTPError):  # and plain http is not served on the https port
            httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()
