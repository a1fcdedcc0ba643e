"""Who gets in, and what a session without a terminal or beyond the limits is told."""

from __future__ import annotations

import asyncio
import hashlib
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from abstracts_tui.server.auth import (
    ITERATIONS,
    auth_required,
    check_login,
    hash_password,
)
from abstracts_tui.server.limits import ConfigError
from tests.ssh.client import TIMEOUT, connect
from tests.ssh.conftest import RunningServer


def test_auth_is_required_off_loopback_unless_open() -> None:
    assert auth_required("127.0.0.1", open=False, keys=False, passwords=False) is False
    assert auth_required("::1", open=False, keys=False, passwords=False) is False
    assert auth_required("0.0.0.0", open=True, keys=False, passwords=False) is False
    assert auth_required("127.0.0.1", open=False, keys=True, passwords=False) is True
    assert auth_required("192.0.2.7", open=False, keys=False, passwords=True) is True
    with pytest.raises(ConfigError, match="not a loopback address"):
        auth_required("0.0.0.0", open=False, keys=False, passwords=False)


def test_the_command_refuses_an_open_non_loopback_server(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "abstracts_tui",
            "serve",
            "--host",
            "0.0.0.0",
            "--data",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "not a loopback address" in result.stderr


def non_loopback_address() -> str | None:
    """An address of this machine other than loopback, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this picks a route
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_keys_off_loopback_wrong_key_refused_and_names_kept(start_server, tmp_path) -> None:
    host = non_loopback_address()
    if host is None:
        pytest.skip("no address but loopback on this machine")
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    bob_key = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(ann_key.export_public_key() + bob_key.export_public_key())
    server: RunningServer = start_server("--host", host, "--authorized-keys", str(keys))

    async def attempts() -> None:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, "ann", host=host, client_keys=[stranger])
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, "ann", host=host)  # no key at all
        conn, client = await connect(server.port, "ann", host=host, client_keys=[ann_key])
        await client.wait_for("you are ann")
        conn.close()
        # The name ann is Ann's key's now: Bob's listed key cannot take it.
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, "ann", host=host, client_keys=[bob_key])
        conn, client = await connect(server.port, "bob", host=host, client_keys=[bob_key])
        await client.wait_for("you are bob")
        conn.close()

    asyncio.run(attempts())


def test_new_and_old_password_hashes_log_in_and_wrong_ones_do_not(start_server, tmp_path) -> None:
    new = hash_password("s3cret")
    assert new.startswith(f"pbkdf2_sha256${ITERATIONS}$") and ITERATIONS >= 600_000
    old = hash_password("0ld-one", iterations=200_000)  # as earlier versions made them
    passwords = tmp_path / "passwords"
    passwords.write_text(f"# players\nann:{new}\nbob:{old}\n")
    server: RunningServer = start_server("--password-file", str(passwords))
    assert "passwords of bob use fewer iterations" in server.log

    async def attempts() -> None:
        # Each from an address of its own: three wrong passwords from one address would
        # make its next login wait (tests/hostile/test_ssh.py).
        wrong = (("ann", "wrong"), ("bob", "s3cret"), ("carl", "s3cret"))
        for number, (name, password) in enumerate(wrong, start=2):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(
                    server.port, name, password=password, local_addr=(f"127.0.0.{number}", 0)
                )
        for name, password in (("ann", "s3cret"), ("bob", "0ld-one")):
            conn, client = await connect(server.port, name, password=password)
            await client.wait_for(f"you are {name}")
            conn.close()

    asyncio.run(attempts())


def test_an_unknown_name_costs_a_whole_check(monkeypatch) -> None:
    """Timing must not tell which names have a password: a name without one is checked
    against a dummy hash of the same count (the real hash function, counted)."""
    passwords = {"ann": hash_password("s3cret")}
    counts: list[int] = []
    real = hashlib.pbkdf2_hmac

    def counted(name: str, password: bytes, salt: bytes, iterations: int) -> bytes:
        counts.append(iterations)
        return real(name, password, salt, iterations)

    monkeypatch.setattr(hashlib, "pbkdf2_hmac", counted)
    assert not check_login(passwords, "nobody", "s3cret")
    assert not check_login(passwords, "ann", "wrong")
    assert check_login(passwords, "ann", "s3cret")
    assert not check_login({}, "ann", "")
    assert counts == [ITERATIONS] * 4


def test_no_terminal_gets_the_usage_and_nothing_else(start_server) -> None:
    server: RunningServer = start_server()

    async def attempts() -> None:
        async with asyncssh.connect(
            "127.0.0.1", server.port, username="ann", known_hosts=None, client_keys=None
        ) as conn:
            for command in (None, "join abcd", "ls /", "cat /etc/passwd"):
                result = await conn.run(command, timeout=60)
                assert "ssh -t" in str(result.stdout), command
                assert "join CODE" in str(result.stdout)
                assert "root:" not in str(result.stdout)
                assert result.exit_status in (1, 2)
            result = await conn.run("help", timeout=60)
            assert result.exit_status == 0 and "watch CODE" in str(result.stdout)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.start_sftp_client()
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", server.port)  # no port forwarding

    asyncio.run(attempts())


def test_sessions_per_user_and_idle_time(start_server) -> None:
    # 10 s without input: room for a loaded machine to draw the first session's lobby
    # and refuse the second before the first is closed (at 3 s, a run of the whole suite
    # with six workers on two cores saw it closed first).
    server: RunningServer = start_server("--sessions-per-user", "1", "--idle-timeout", "10")

    async def attempts() -> None:
        first_conn, first = await connect(server.port, "ann")
        await first.wait_for("you are ann")
        second_conn, second = await connect(server.port, "ann")
        await asyncio.wait_for(second.closed.wait(), 60)
        assert "sessions open already" in second.output()
        second_conn.close()
        # Without input the first session is closed, with a word on why.
        await asyncio.wait_for(first.closed.wait(), 60)
        assert "without input" in first.output()
        first_conn.close()

    asyncio.run(attempts())


def test_the_servers_sessions_are_bounded_whoever_asks(start_server) -> None:
    server: RunningServer = start_server("--max-sessions", "1", "--isolate")
    assert "sessions: at most 1 at once (--max-sessions), each app in a process of its own" in (
        server.log
    )

    async def attempts() -> None:
        ann_conn, ann = await connect(server.port, "ann")
        await ann.wait_for("you are ann")
        bob_conn, bob = await connect(server.port, "bob")
        await asyncio.wait_for(bob.closed.wait(), 60)
        assert "the server is full; try again later." in bob.output()
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(attempts())


@pytest.mark.parametrize(
    ("options", "mib", "each"),
    [((), 32, "in a process of its own"), (("--threads",), 8, "on a thread (--threads)")],
    ids=["processes", "threads"],
)
def test_the_server_says_how_many_sessions_it_takes_and_how_it_runs_them(
    start_server, options: tuple[str, ...], mib: int, each: str
) -> None:
    """Without --max-sessions the bound is half the memory available at the start, at
    32 MiB a session in a process (8 on a thread), at most 200 and at least 1; the log
    says it, with the memory it counted and how the sessions run."""
    server: RunningServer = start_server(*options)
    said = re.search(
        r"sessions: at most (\d+) at once \(by the memory: half of the ([\d.]+) GiB "
        rf"available at {mib} MiB a session, 200 at most\), each app (.*)",
        server.log,
    )
    assert said is not None, server.log
    sessions, gib = int(said[1]), float(said[2])
    expected = min(200, max(1, int(gib * 1024 / 2) // mib))
    assert abs(sessions - expected) <= 1  # the GiB said are rounded to a tenth
    assert said[3] == each


def test_a_malformed_password_line_stops_the_start_with_its_line_number(tmp_path) -> None:
    passwords = tmp_path / "passwords"
    passwords.write_text(f"ann:{hash_password('x', iterations=1000)}\nbob:pbkdf2_sha256$x$y$z\n")
    command = [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0"]
    result = subprocess.run(
        [*command, "--data", str(tmp_path / "data"), "--password-file", str(passwords)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "line 2: expected NAME:pbkdf2_sha256$COUNT$SALT$DIGEST" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("keys", ["", "not a key\n", "ssh-ed25519 AAAAnotbase64\n"])
def test_an_authorized_keys_file_without_a_key_stops_the_start(tmp_path, keys: str) -> None:
    authorized = tmp_path / "authorized_keys"
    authorized.write_text(keys)
    command = [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0"]
    result = subprocess.run(
        [*command, "--data", str(tmp_path / "data"), "--authorized-keys", str(authorized)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert f"{authorized} holds no public key that can be read" in result.stderr
    assert "Traceback" not in result.stderr


def test_connections_per_address_count_logins_not_silent_connections(start_server) -> None:
    server: RunningServer = start_server("--connections-per-address", "2")
    options = {"known_hosts": None, "client_keys": None, "agent_path": None}

    async def attempts() -> None:
        # Two connections that say nothing hold no place: each login takes one's.
        silent = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(2)]
        conn, client = await connect(server.port, "ann")
        await client.wait_for("you are ann")
        bob_conn, bob = await connect(server.port, "bob")
        await bob.wait_for("you are bob")
        for reader, _ in silent:  # closed by the server, its version line read first
            assert (await reader.readline()).startswith(b"SSH-2.0-")
            while await asyncio.wait_for(reader.read(1024), TIMEOUT):
                pass
        # Two logged in: one more is refused, whatever it is.
        with pytest.raises(asyncssh.DisconnectError) as refused:
            await asyncssh.connect("127.0.0.1", server.port, username="carl", **options)
        assert refused.value.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
        assert (
            "2 connections from your address are logged in or logging in already"
            in refused.value.reason
        )
        assert "you are ann" in client.text()  # the connections open go on

        conn.close()
        deadline = time.monotonic() + TIMEOUT
        while True:  # admitted as soon as the server has seen the close
            try:
                carl_conn, carl = await connect(server.port, "carl")
                break
            except asyncssh.DisconnectError:
                assert time.monotonic() < deadline, "not admitted after a connection closed"
                await asyncio.sleep(0.2)
        await carl.wait_for("you are carl")
        carl_conn.close()
        bob_conn.close()

    asyncio.run(attempts())
    assert "refused a connection from 127.0.0.1: 2 from there are logged in" in server.log
    assert "that had not asked to log in, to make room for a newer one" in server.log
