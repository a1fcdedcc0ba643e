"""Who may log in with a key as whom: a name and every name that looks like it are the
first key's; a key keeps at most three names; weak keys and SHA-1 signatures are
refused, each with one sentence to the person. Real logins (asyncssh's client and
OpenSSH's) against the real server, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import time
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from abstracts_tui.server.limits import Limits
from abstracts_tui.store import SqliteStore, Store
from tests.openssh import SSH, needs_ssh
from tests.ssh.client import TIMEOUT, connect
from tests.ssh.conftest import RunningServer


class Told(asyncssh.SSHClient):
    """Notes what the server says while the client logs in (its banners)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.said.append(msg)


async def attempt(port: int, name: str, key: asyncssh.SSHKey, **options: Any) -> list[str]:
    """Log in as `name` with `key` (and nothing else); what the server said, or raise
    PermissionDenied with what it said as its reason."""
    told = Told()
    try:
        conn, _ = await asyncssh.create_connection(
            lambda: told,
            "127.0.0.1",
            port,
            username=name,
            known_hosts=None,
            client_keys=[key],
            agent_path=None,
            **options,
        )
    except asyncssh.PermissionDenied:
        raise asyncssh.PermissionDenied("".join(told.said)) from None
    conn.close()
    await conn.wait_closed()
    return told.said


async def refused(port: int, name: str, key: asyncssh.SSHKey, **options: Any) -> str:
    """What the server said refusing `name` with `key`."""
    with pytest.raises(asyncssh.PermissionDenied) as refusal:
        await attempt(port, name, key, **options)
    return refusal.value.reason


def keys_file(path: Path, *keys: asyncssh.SSHKey) -> Path:
    path.write_bytes(b"".join(key.export_public_key() for key in keys))
    return path


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_names_that_look_alike_are_one_name_and_a_key_keeps_three(
    start_server, tmp_path: Path, request: pytest.FixtureRequest, kind: str
) -> None:
    url = request.getfixturevalue("database_url") if kind == "postgresql" else None
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    ann, bob = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))

    def open_store() -> Store:
        if url is None:
            return SqliteStore(data / "server.db")
        from abstracts_tui.store.postgres import PostgresStore

        return PostgresStore(url)

    store = open_store()
    # Kept before names were compared by their look: both keep working.
    store.keep_name("zed", ann.get_fingerprint(), alike=False)
    store.keep_name("ZED", bob.get_fingerprint(), alike=False)
    store.close()
    keys = keys_file(tmp_path / "authorized_keys", ann, bob)
    server: RunningServer = start_server(
        "--authorized-keys", str(keys), *(["--database", url] if url else [])
    )
    assert (
        "names that look alike are kept for different keys, as they were before names were "
        "compared by their look (ZED, zed): each keeps its key" in server.log
    )
    store = open_store()

    async def kept(name: str, key: asyncssh.SSHKey) -> None:
        """Wait for the name to be the key's (kept just after the login)."""
        deadline = time.monotonic() + TIMEOUT
        while await asyncio.to_thread(store.name_key, name) != key.get_fingerprint():
            assert time.monotonic() < deadline, f"{name} not kept"
            await asyncio.sleep(0.1)

    async def attempts() -> None:
        port = server.port
        await attempt(port, "zed", ann)
        await attempt(port, "ZED", bob)
        await attempt(port, "ann", ann)
        await kept("ann", ann)
        for name in ("ANN", "ann.", "Ann_", "a-n-n", "AnN"):
            said = await refused(port, name, bob)
            assert said == (
                f"abstracts-tui: the name {name} is kept for another key (names that differ "
                "only in case, in '.', '_' or '-', or in 0/o, 1/l/i or m/rn are one name): "
                "choose another.\r\n"
            )
        # Its own key logs in as any of them, shown as typed, and keeps no other name.
        conn, client = await connect(port, "ANN", client_keys=[ann])
        await client.wait_for("you are ANN")
        conn.close()
        await attempt(port, "cy", ann)  # a third name: the most a key keeps
        await kept("cy", ann)
        said = await refused(port, "dee", ann)
        assert said == (
            "abstracts-tui: this key has 3 names already (zed, ann, cy), the most one key "
            "may have: log in as one of them.\r\n"
        )
        await attempt(port, "Cy.", ann)  # one of its own
        await attempt(port, "dee", bob)  # free for another key

    try:
        asyncio.run(attempts())
    finally:
        store.close()
    assert Limits().names_per_key == 3  # the bound the sentences above name
    assert "ANN refused: the name ANN is kept for another key" in server.log
    assert "dee refused: this key has 3 names already (zed, ann, cy)" in server.log
    assert "Traceback" not in server.log


@needs_ssh
def test_weak_keys_and_sha1_signatures_are_refused_with_a_sentence(
    start_server, tmp_path: Path
) -> None:
    small = asyncssh.generate_private_key("ssh-rsa", key_size=1024)
    rsa = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    ed25519 = asyncssh.generate_private_key("ssh-ed25519")
    keys = keys_file(tmp_path / "authorized_keys", small, rsa, ed25519)
    rsa_file = tmp_path / "id_rsa"
    rsa.write_private_key(str(rsa_file))
    rsa_file.chmod(0o600)
    server: RunningServer = start_server("--authorized-keys", str(keys))
    sha1 = (
        "abstracts-tui: SHA-1 signatures (ssh-rsa) are not accepted: sign with rsa-sha2-256 "
        "or rsa-sha2-512 (OpenSSH 7.2 and later does), or use an ed25519 key.\r\n"
    )

    async def attempts() -> None:
        port = server.port
        said = await refused(port, "ann", small)
        assert said == (
            "abstracts-tui: RSA keys of fewer than 2048 bits are not accepted (this one has "
            "1024): make an ed25519 key (ssh-keygen -t ed25519).\r\n"
        )
        assert await refused(port, "bob", rsa, signature_algs=["ssh-rsa"]) == sha1
        assert await attempt(port, "bob", rsa, signature_algs=["rsa-sha2-256"]) == []
        assert await attempt(port, "bob", rsa, signature_algs=["rsa-sha2-512"]) == []
        assert await attempt(port, "cy", ed25519) == []

    asyncio.run(attempts())
    # OpenSSH's client: made to sign with SHA-1, then as it does by itself (banners are
    # shown from LogLevel INFO).
    ssh = [option.replace("LogLevel=ERROR", "LogLevel=INFO") for option in SSH]
    ssh += ["-o", "IdentitiesOnly=yes", "-i", str(rsa_file), "-p", str(server.port), "-T"]
    old = subprocess.run(
        [*ssh, "-o", "PubkeyAcceptedAlgorithms=ssh-rsa", "bob@127.0.0.1", "games"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert old.returncode == 255 and sha1.rstrip() in old.stderr, old.stderr
    new = subprocess.run(
        [*ssh, "bob@127.0.0.1", "games"], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert new.returncode == 0 and new.stdout.startswith("code\tgame"), new.stderr
    assert "ann refused: RSA keys of fewer than 2048 bits are not accepted" in server.log
    assert "bob refused: SHA-1 signatures (ssh-rsa) are not accepted" in server.log
    assert "Traceback" not in server.log


def test_where_signatures_cannot_be_checked_rsa_keys_are_refused(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """asyncssh's connection has the method the check wraps (the test above logs in
    through it); a connection without one is not checked, and says so once."""
    from abstracts_tui.server.ssh import keys

    monkeypatch.setattr(keys, "said", False)
    assert not keys.check_signatures(object(), lambda name, algorithm: None)
    assert not keys.check_signatures(object(), lambda name, algorithm: None)
    warnings = [r.getMessage() for r in caplog.records if "cannot be checked" in r.getMessage()]
    assert warnings == [
        "clients' signatures cannot be checked (this asyncssh's connections have no "
        "validate_public_key to wrap): RSA keys are refused"
    ]
    rsa = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    assert keys.key_refusal(rsa) is None and keys.rsa_bits(rsa) == 2048
    assert "RSA keys are not accepted" in keys.rsa_refused()
