"""What crossing processes costs a move on PostgreSQL, without any screen to draw.

One process commits moves to a room the way a server does (`change_room`: the change
row, the room, `NOTIFY`); another process `LISTEN`s and, for each notice, reads the
changes after the version it has (`changes`), as every other server process does before
applying a move. Prints the time of the commit alone, and from the start of the commit
to the change read on the other process (median and 95th percentile), one move every
50 ms. Both processes use the system-wide monotonic clock, so the times compare.

    python scripts/pg_crossing.py --database URL [--moves 500]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import secrets
import time
from typing import Any

from ssh_load import figures

from abstracts_tui.rooms.live import Change
from abstracts_tui.store import RoomSave, RoomSetup, postgres
from abstracts_tui.store.postgres import ROOMS_CHANNEL, PostgresStore


def listen(url: str, code: str, moves: int, ready: Any, out: Any) -> None:
    """Read each change as its notice arrives, as a server process does (an asyncio
    loop; notices awaited a second at a time, then a check that the connection is
    there); put (version, when read) in `out`."""
    import asyncio

    import psycopg

    async def main() -> None:
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await listener.execute(f"LISTEN {ROOMS_CHANNEL}")
        db = postgres.connect(url, autocommit=True)
        version = 2
        ready.set()
        while version < moves + 2:
            async for note in listener.notifies(timeout=1.0):
                room, _, _ = note.payload.partition(" ")
                if room != code:
                    continue
                for change in postgres.changes(db, code, version):
                    version = change.version
                    out.put((version, time.monotonic()))
            await listener.execute("SELECT 1")
        await listener.close()
        db.close()

    asyncio.run(main())


def shown(values: list[float]) -> str:
    median, p95 = figures(values)
    return f"median {median * 1000:.2f} ms, 95th percentile {p95 * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, metavar="URL")
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument(
        "--every", type=float, default=0.05, help="mean seconds between moves (drawn evenly)"
    )
    args = parser.parse_args()
    PostgresStore(args.database).close()  # the tables
    db = postgres.connect(args.database, autocommit=True)
    code = "x" + secrets.token_hex(3)
    setup = RoomSetup("pilo", 8, creator="ann")
    postgres.create_room(db, RoomSave(code, setup, None, None), "ann-1")
    postgres.change_room(
        db, RoomSave(code, setup, "bob", "(;GA[pilo])"), Change(2, "join", "bob", "bob"), None
    )
    ready = multiprocessing.Event()
    out: Any = multiprocessing.Queue()
    other = multiprocessing.Process(
        target=listen, args=(args.database, code, args.moves, ready, out)
    )
    other.start()
    ready.wait(30)
    started: dict[int, float] = {}
    commits = []
    record = "(;GA[pilo]"
    for index in range(args.moves):
        version = index + 3
        record += ";B[a1]" if index % 2 == 0 else ";W[a1]"
        save = RoomSave(code, setup, "bob", record + ")")
        started[version] = time.monotonic()
        postgres.change_room(db, save, Change(version, "move", "a1", "ann"), None)
        commits.append(time.monotonic() - started[version])
        time.sleep(random.uniform(0, 2 * args.every))
    crossed = []
    for _ in range(args.moves):
        version, read = out.get(timeout=30)
        crossed.append(read - started[version])
    other.join(30)
    db.close()
    print(f"{args.moves} moves, one every {args.every * 1000:.0f} ms on average")
    print(f"commit (change row, room, NOTIFY): {shown(commits)}")
    print(f"commit start to the change read on the other process: {shown(crossed)}")


if __name__ == "__main__":
    main()
