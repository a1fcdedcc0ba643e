"""`ssh HOST export CODE` gives a record in FF[4]'s form, whichever version saved it: a Go
program reads the people and the winner right, after a swap too."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sgfmill import sgf as sgfmill

from abstracts_tui.records import Record
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore
from tests.records.test_ff4 import EARLIER
from tests.ssh.client import run
from tests.ssh.conftest import RunningServer


def test_an_export_after_a_swap_names_the_winner(start_server, tmp_path: Path) -> None:
    # Bob began as Blue; Ann swapped, so she holds Blue; bob resigned: Ann won. The record
    # was saved by an earlier version (moves and names under the colours' initials).
    data = tmp_path / "data"
    data.mkdir()
    store = SqliteStore(data / "server.db")
    setup = RoomSetup("petrify", 6, creator="bob")
    store.save_room(RoomSave("k7m2", setup, "ann", EARLIER, Finish("blue+R", "ann")))
    store.close()
    server: RunningServer = start_server()

    exported = asyncio.run(run(server.port, "dan", "export k7m2"))
    assert exported.exit_status == 0, exported.stderr
    text = str(exported.stdout)
    assert "PB[bob]PW[ann]" in text and "RE[W+R]" in text
    read = sgfmill.Sgf_game.from_bytes(text.encode())
    assert read.get_player_name(read.get_winner()) == "ann"
    assert [node.get_raw_move()[0] for node in read.get_main_sequence()[1:]] == list("bwbw")
    assert Record.from_sgf(text).result == "blue+R"
