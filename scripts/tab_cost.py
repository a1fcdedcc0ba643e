"""What a key costs a player alone on the server: Tab from one part of the lobby to the next.

Starts `abstracts-tui serve` (a fresh data folder), logs in one player (a 100x30 terminal)
and presses Tab N times, 0.1 s apart, and prints per Tab: the processor the player's app
used (its session's process; `--threads` runs the apps on threads and then counts the
whole server), the server's processor, the characters sent, and the key to the first
byte of the answer (median, 90th percentile, worst).

    python scripts/tab_cost.py [--tabs 300] [--threads]

Run it with another build (`PYTHONPATH=OTHER_TREE`, from that tree) to compare two
versions: the figures are medians of one run, so take the two in turn.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "scripts"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from hostile_ssh import TAB, login, start_server  # noqa: E402
from ssh_load import cpu_seconds  # noqa: E402

from tests.processes import session_processes  # noqa: E402


async def press(port: int, server: int, tabs: int, threads: bool) -> None:
    conn, sink = await login(port, "quiet", width=100, height=30)
    await sink.settle()
    await asyncio.sleep(1)
    app = server if threads else session_processes(server)[0]
    app_before, server_before, sent_before = cpu_seconds(app), cpu_seconds(server), sink.received
    times = []
    for _ in range(tabs):
        times.append(await sink.first_byte(TAB) * 1000)
        await asyncio.sleep(0.1)
    app_used, server_used = cpu_seconds(app) - app_before, cpu_seconds(server) - server_before
    sent = sink.received - sent_before
    conn.close()
    times.sort()
    where = "the server (apps on threads)" if threads else "the player's app"
    print(f"{tabs} Tabs, each:")
    print(f"  processor of {where}: {app_used * 1000 / tabs:.2f} ms")
    if not threads:
        print(f"  processor of the server: {server_used * 1000 / tabs:.2f} ms")
    print(f"  characters sent: {sent / tabs:.0f}")
    print(
        f"  key to first byte: median {statistics.median(times):.1f} ms, "
        f"90th {times[int(0.9 * (len(times) - 1))]:.1f} ms, worst {times[-1]:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=300)
    parser.add_argument("--threads", action="store_true", help="the apps on threads")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder), *(["--threads"] if args.threads else []))
        try:
            asyncio.run(press(server.port, server.process.pid, args.tabs, args.threads))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
