"""One client's storm of window changes, and what it costs the server's loop.

Starts `abstracts-tui serve` (a fresh data folder), logs one client in at the largest
size drawn (500x200, the lobby), then ROUNDS times sends 1,000 window changes at once and
waits for the screen to settle. Prints the server's processor time per window change
(its sessions' processes aside) and the waits of its loop of 50 ms or more that its log
names (`server/lateness.py`: with how much of the longest was the loop's own work), which
are what every other session waits through: a burst of small packets is decrypted and
handed on a bite a turn (`READ_BITE` in `server/bites.py`).

    python scripts/resize_storm.py [--rounds 5] [--threads]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

import hostile_ssh  # this script's folder is on the path
from ssh_load import cpu_seconds

CHANGES = 1000


async def storm(port: int, pid: int, rounds: int) -> list[float]:
    """Milliseconds of the server's processor per window change, round by round."""
    conn, sink = await hostile_ssh.login(port, "carl", width=2000, height=2000)
    await sink.settle()
    costs = []
    for _ in range(rounds):
        before = cpu_seconds(pid)
        for number in range(CHANGES):
            sink.resize(500 - number % 97, 200 - number % 53)
        await sink.settle(quiet=2.5)
        costs.append((cpu_seconds(pid) - before) * 1000 / CHANGES)
        await asyncio.sleep(2)
    conn.close()
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", action="store_true", help="serve --threads")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        options = ["--threads"] if args.threads else []
        server = hostile_ssh.start_server(Path(folder), *options)
        try:
            costs = asyncio.run(storm(server.port, server.process.pid, args.rounds))
        finally:
            server.stop()
        log = server.log
    print(
        f"{args.rounds} x {CHANGES} window changes: the server's processor per change "
        + ", ".join(f"{cost:.2f}" for cost in costs)
        + " ms"
    )
    print(f"the server's loop, waits of 50 ms or more: {hostile_ssh.loop_waits(log)}")


if __name__ == "__main__":
    main()
