"""Hostile SSH clients at small counts, against the real server (`scripts/hostile_ssh.py`
sends the same attacks at larger counts and prints the figures): oversized and shrinking
terminals, a resize storm, a connection storm, half-open connections, wrong passwords on
one connection and a flood of them from eight addresses, rooms made in a loop; and a
quiet player, in a client process of its own, whose keys are answered promptly while
they run."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import logging
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from abstracts_tui.server.collector import Pauses
from abstracts_tui.server.limits import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, clamp_size
from tests.ssh.conftest import RunningServer
from tests.ssh.test_lateness import spin, watched

ROOT = Path(__file__).resolve().parent.parent.parent
LOGIN_SECONDS = 3.0
"""The servers' login timeout here (and so their silent connections' timeout): short, so
that the connections held are closed soon."""


def load_attacks() -> ModuleType:
    """scripts/hostile_ssh.py, the attacks themselves (a script, not a package)."""
    spec = importlib.util.spec_from_file_location("hostile_ssh", ROOT / "scripts/hostile_ssh.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


attacks = load_attacks()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., RunningServer]]:
    """`serve(*options)`: a server with passwords for the attacks' names, until the test
    ends; its log must have no traceback."""
    servers: list[RunningServer] = []

    def start(*args: str) -> RunningServer:
        running = attacks.start_server(tmp_path / f"server-{len(servers)}", *args)
        servers.append(running)
        return running

    yield start
    for running in servers:
        running.stop()
        assert "Traceback" not in running.log, running.log


def failures_of(outcome: object) -> list[str]:
    return list(outcome.failures)  # type: ignore[attr-defined]


def test_sizes_are_clamped_to_what_the_server_draws() -> None:
    assert clamp_size(65535, 65535) == (MAX_COLUMNS, MAX_ROWS) == (500, 200)
    assert clamp_size(1, 1) == (MIN_COLUMNS, MIN_ROWS) == (20, 6)
    assert clamp_size(80, 24) == (80, 24)
    assert clamp_size(501, 24) == (500, 24) and clamp_size(80, 5) == (80, 6)


def test_oversized_terminals_are_drawn_at_the_largest_size_and_logged_once(serve) -> None:
    server = serve()
    # Logins at 2000x2000 and 1000x1000, windows changed to 1000x1000 and 501x201.
    outcome = asyncio.run(attacks.oversized(server.port, 2))
    assert failures_of(outcome) == []
    assert outcome.cases == 4
    # One line per session, though each also changed its window to a huge size.
    assert server.log.count("is drawn as 500x200") == 2, server.log
    assert "a terminal of 2000x2000 is drawn as 500x200" in server.log
    peak = attacks.peak_mib(server.process.pid)
    assert peak is None or peak < 400, f"{peak:.0f} MiB"


def test_shrinking_terminals_keep_the_app_drawing_and_answering(serve) -> None:
    server = serve()
    outcome = asyncio.run(attacks.shrinking(server.port, 1))
    assert failures_of(outcome) == []
    assert "a terminal of 5x2 is drawn as 20x6" in server.log


def test_a_resize_storm_ends_laid_out_for_its_last_size(serve) -> None:
    """10,000 window changes (about a megabyte) as fast as they go: the storming client's
    own screen goes on, and is laid out for its last size within seconds. (When the
    server shrank its receive buffer below a loopback segment, TCP's window stayed shut
    and the client's last size and its acknowledgements came a minute late, or never.)"""
    server = serve()
    outcome = asyncio.run(attacks.resize_storm(server.port, 10_000))
    assert failures_of(outcome) == []


def test_a_connection_storm_is_held_to_the_limit_per_address(serve) -> None:
    server = serve("--login-timeout", str(LOGIN_SECONDS), "--connections-per-address", "4")
    outcome = asyncio.run(attacks.connection_storm(server.port, 20))
    assert failures_of(outcome) == [], outcome.notes
    assert "not logged in within 3 seconds" in server.log


def test_half_open_connections_do_not_lock_their_address_out(serve) -> None:
    server = serve("--login-timeout", str(LOGIN_SECONDS))
    # 12: more than the 10 connections an address may have logged in or logging in.
    outcome = asyncio.run(attacks.half_open(server.port, 12, LOGIN_SECONDS))
    assert failures_of(outcome) == []
    assert "that had not asked to log in, to make room for a newer one" in server.log
    assert "no login asked for within 3 seconds" in server.log


def test_a_connection_is_closed_after_three_wrong_passwords(serve) -> None:
    server = serve()
    outcome = asyncio.run(attacks.guesses_on_one_connection(server.port, 3, lambda: server.log))
    assert failures_of(outcome) == []


def test_a_guess_flood_is_refused_unchecked_and_does_not_slow_another_login(serve) -> None:
    server = serve()
    # Eight clients from two addresses: each address is over its budget after 3 guesses.
    outcome = asyncio.run(attacks.guess_flood(server.port, 24, addresses=2))
    assert failures_of(outcome) == [], outcome.notes
    assert "not checked: too many wrong passwords from there" in server.log


def test_a_room_flood_makes_the_rooms_allowed_and_refuses_the_rest(serve) -> None:
    server = serve()
    outcome = asyncio.run(attacks.room_flood(server.port, 14))
    assert failures_of(outcome) == [], outcome.notes
    assert outcome.notes == ["10 made, 4 refused"]


def test_a_quiet_player_is_answered_promptly_through_every_attack(serve) -> None:
    """Key to first byte of a quiet session while another asks for the largest size and
    storms its lobby with window changes, and eight clients flood wrong passwords.
    Generous bounds, since the machine is shared and the suite runs three workers on two
    cores: under load the worst single answer read 110 to 572 ms, and the median once
    52 ms (the goal of 50 ms is the script's, which prints the figures). An attack that
    the bounds did not stop stalls answers for seconds (5 s at 3000x3000 before the sizes
    were clamped), which these bounds catch; answers made late by a loaded machine they
    let through. `test_session_threads.py` checks what the threads change.
    The script also storms a game at the largest size, whose frames cost more: its
    figures are in the README. The loop's own work is held to the goal itself."""
    server = serve()
    quiet = attacks.Quiet(server.port)
    try:

        async def attack() -> None:
            await attacks.oversized(server.port, 1)
            await attacks.resize_storm(server.port, 1000, game=False)
            await attacks.guess_flood(server.port, 16, addresses=2)

        asyncio.run(attack())
    finally:
        quiet.stop()
    times = quiet.since(0)
    assert len(times) >= 20, quiet.lines
    assert statistics.median(times) < 150, sorted(times)
    assert statistics.quantiles(times, n=20)[-1] < 500, sorted(times)
    assert max(times) < 2000, sorted(times)
    # The 50 ms goal itself, on the loop that serves everybody: no wait of it with 50 ms
    # or more of its own work (the time it waited for a processor, which a loaded
    # machine lengthens, is not counted). The server's watch says so as it stops.
    server.stop()
    own = re.findall(r"(\d+) with 50 ms or more of its own work", server.log)
    assert all(count == "0" for count in own), server.log


def test_the_script_reads_the_servers_long_collections_from_its_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What `scripts/hostile_ssh.py` prints of the collections the server said it paused
    for (`server/collector.py`), from two lines as the server writes them."""
    for _ in range(2):
        pauses = Pauses(long=0.0)  # every collection is long enough to be said
        gc.callbacks.append(pauses)
        try:
            gc.collect()
            gc.collect()
        finally:
            gc.callbacks.remove(pauses)
        with caplog.at_level(logging.INFO, logger="abstracts_tui.server.collector"):
            pauses.report()
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 2
    longest = max(int(line.split("the longest ")[1].split(" ms")[0]) for line in said)
    log = "".join(f"2026-11-27 10:00:00 {line}\n" for line in said)
    assert attacks.long_collections(log) == f"4, the longest {longest} ms"
    assert attacks.long_collections("listening on ::1 port 2222\n") == "none"


def test_the_script_reads_the_servers_long_waits_from_its_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What `scripts/hostile_ssh.py` prints of the waits of the server's loop that the
    server said (`server/lateness.py`), from two lines as the server writes them: a loop
    held 120 ms by a blocking call (not its own work: it ran meanwhile for next to
    nothing), then 120 ms by work of its own."""

    def longest_ms(line: str) -> int:
        return int(line.split("the longest ")[1].split(" ms")[0])

    with caplog.at_level(logging.INFO, logger="abstracts_tui.server.lateness"):
        watched(lambda: time.sleep(0.12)).report()
        watched(lambda: spin(0.12)).report()
    blocked, busy = [record.getMessage() for record in caplog.records]
    assert "; 0 with 50 ms or more of its own work" in blocked, blocked
    assert "; 1 with 50 ms or more of its own work (the most " in busy, busy
    log = f"2026-11-27 10:00:00 {blocked}\n2026-11-27 10:00:10 {busy}\n"
    count = sum(int(line.split("loop: ")[1].split(" wait")[0]) for line in (blocked, busy))
    longest = max((blocked, busy), key=longest_ms)
    held_by = longest.split("ms (")[1].split(")")[0]
    most = busy.split("(the most ")[1].split(" ms")[0]
    assert int(most) >= 110
    assert attacks.loop_waits(log) == (
        f"{count}, the longest {longest_ms(longest)} ms "
        f"({held_by}); with 50 ms or more of its own work: 1 (the most {most} ms)"
    )
    assert attacks.loop_waits("listening on ::1 port 2222\n") == "none"
