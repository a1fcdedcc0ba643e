"""In an SSH session at 80x24 a finished game's count is read whole: `f` opens it in a box
that PgDn scrolls, every patch shown (a finished room's game, opened from the archive)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from abstracts_tui.records import Record, result_text
from abstracts_tui.rules import new_game
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import ENTER

PAGE_DOWN = "\x1b[6~"


def box_text(screen: str) -> str:
    """The words inside the count's box, its border left out."""
    rows = [row.strip().strip("█").strip() for row in screen.splitlines() if "█" in row]
    return " ".join(" ".join(rows).split())


def test_a_finished_rooms_count_is_read_whole_at_80x24(start_server, tmp_path: Path) -> None:
    game = new_game("pilo", size=10)
    rng = random.Random(0)
    while not game.is_over():
        game.play(rng.choice(list(game.legal_moves())))
    lines = game.score().lines
    outcome = game.outcome()
    assert outcome is not None and len(lines) > 16  # more than a box of 80x24 holds
    data = tmp_path / "data"
    data.mkdir()
    store = SqliteStore(data / "server.db")
    sgf = Record.from_game(game, players=("ann", "bob")).to_sgf()
    winner = None if outcome.winner is None else ("ann", "bob")[outcome.winner]
    finish = Finish(result_text(game), winner)
    store.save_room(RoomSave("p001", RoomSetup("pilo", 10, creator="ann"), "bob", sgf, finish))
    store.close()
    server: RunningServer = start_server(data=data)

    async def read() -> None:
        conn, ann = await connect(server.port, "ann", width=80, height=24)
        await ann.wait_for("you are ann", "a Archive")
        ann.send("a")
        await ann.wait_for("Your finished games", "p001")
        ann.send(ENTER)
        await ann.wait_for("Game p001", "(f: in full)")
        ann.send("f")
        seen = [box_text(await ann.wait_for("How the game was counted", "esc/enter Close"))]
        for _ in range(len(lines)):
            ann.send(PAGE_DOWN)
            await asyncio.sleep(0.3)
            seen.append(box_text(ann.text()))
        read = " ".join(seen)
        for line in lines:
            assert " ".join(line.split()) in read, (line, seen)
        conn.close()

    asyncio.run(read())
