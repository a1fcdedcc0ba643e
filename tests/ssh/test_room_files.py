"""Room files of earlier versions, imported once; a hostile `rooms/` folder set aside.

Room files outlive the server that wrote them. Whatever they hold (a code that is a path,
fields of the wrong kind, links out of the folder, a record nested thousands deep, a
FIFO), the server must start, put every good room in its store and move its files to
`rooms/imported/` (so that a restart does not import them again), move the bad files to
`rooms/set-aside/` with a log line naming each, and write nothing outside its folder.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from abstracts_tui.records import Record
from abstracts_tui.rules import new_game
from abstracts_tui.store import SqliteStore
from tests.ssh.client import connect, run
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import ENTER, first_move_played


def room(code: Any, game: str = "pilo", **changes: Any) -> str:
    """A room file as the server writes one, with `changes` to its fields."""
    setup = {
        "game": game,
        "size": None,
        "variant": None,
        "komi": None,
        "first": "carl",
        "second": "(open seat)",
        "first_level": None,
        "second_level": None,
    }
    data: dict[str, Any] = {"code": code, "setup": setup, "joiner": None}
    for name, value in changes.items():
        (setup if name in setup else data)[name] = value
    return json.dumps(data)


def files_under(folder: Path, leave_out: Path) -> dict[str, bytes]:
    """Every file under `folder` but those under `leave_out`, with its content."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and leave_out not in path.parents:
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def test_a_hostile_rooms_folder_neither_stops_the_server_nor_leads_it_outside(
    start_server, tmp_path: Path
) -> None:
    # A real room with a move in it, made by the server.
    first: RunningServer = start_server()

    async def make_game() -> str:
        ann_conn, _, bob_conn, code = await first_move_played(first.port)
        ann_conn.close()
        bob_conn.close()
        return code

    code = asyncio.run(make_game())
    first.stop()

    data = tmp_path / "data"
    rooms = data / "rooms"
    rooms.mkdir(mode=0o700)  # as earlier versions left it
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "room.json").write_text(room("bcdq"))
    (outside / "record.sgf").write_text("(;GM[1000]GA[pilo]SZ[8]PB[carl])")

    (rooms / "gh23.json").write_text(room("gh23"))  # good: carl's Pilo room, a seat open
    # Good: the join got into the record, and the server stopped before the room file.
    (rooms / "gh24.json").write_text(room("gh24"))
    (rooms / "gh24.sgf").write_text("(;GM[1000]GA[pilo]SZ[8]PB[carl]PO[dave];B[a1])")
    # Good: dave joined carl's Linage room and chose to move first.
    (rooms / "gh25.json").write_text(room("gh25", game="linage", size=5, joiner="dave"))
    linage = new_game("linage", size=5, komi=0.5)
    linage.play("c3")
    (rooms / "gh25.sgf").write_text(Record.from_game(linage, ("dave", "carl")).to_sgf())
    good = {"gh23": ["gh23.json"], "gh24": ["gh24.json", "gh24.sgf"]}
    good["gh25"] = ["gh25.json", "gh25.sgf"]
    bad = {  # name: (content, what the log line says)
        "bcdf": (room("../../escaped"), "'../../escaped' is not a room code"),
        "bcdg": (room(5), "the code 5 is not a room code"),
        "bcdh": (room("bcdh", size="8"), "setup size '8' is not of the right kind"),
        "bcdj": (room("bcdj", joiner=7), "the joiner 7 is not a user name"),
        "bcdk": (room("bcdk", komi=True), "setup komi True is not of the right kind"),
        "bcdm": (room("bcdm", game="chess"), "unknown game 'chess'"),
        "bcdn": ("{", "not JSON"),
        "bcdp": ("[" * 30_000 + "]" * 30_000, "JSON nested too deeply"),
        "bcdx": (room("bcdz"), "the code 'bcdz' is not the file's name"),
        "BCDW": (room("BCDW"), "'BCDW' is not a room code"),
        "bcd8": (room("bcd8", first="../carl"), "setup first '../carl' is not a user name"),
        "bcd2": (room("bcd2", setup=[1, 2]), "setup is not a JSON object"),
        "bcd3": (room("bcd3", size=99), "Pilo is played on sizes"),
        "bcd4": (room("bcd4", extra="field"), "unknown fields: 'extra'"),
        "bcd5": (json.dumps([room("bcd5")]), "the file is not a JSON object"),
    }
    reasons = {name: reason for name, (_, reason) in bad.items()}
    for name, (text, _) in bad.items():
        (rooms / f"{name}.json").write_text(text)
    (rooms / "bcdq.json").symlink_to(outside / "room.json")
    for name in ("bcdr", "bcds", "bcdt", "bcd6"):
        (rooms / f"{name}.json").write_text(room(name))
    (rooms / "bcdr.sgf").symlink_to(outside / "record.sgf")
    (rooms / "bcds.sgf").symlink_to(outside / "written.sgf")  # not there: a write would make it
    deep = "(;GM[1000]GA[pilo]SZ[8]PB[carl]" + "(;B[a1]" * 3000 + ")" * 3001
    (rooms / "bcdt.sgf").write_text(deep)
    (rooms / "bcd6.sgf").write_text("(;GM[1000]GA[petrify]SZ[8]PB[carl])")  # another game
    (rooms / "bcd7.json").write_text(room("bcd7"))
    (rooms / "bcd7.sgf").write_text("(;GM[1000]GA[pilo]SZ[8]PB[carl]AI[strongest:carl])")
    (rooms / "bcd9.json").write_text(room("bcd9", joiner="dave"))
    (rooms / "bcd9.sgf").write_text("(;GM[1000]GA[pilo]SZ[8]PB[carl]PO[erin])")
    os.mkfifo(rooms / "bcdv.json")
    link = "is a symbolic link (the server follows none)"
    reasons |= {
        "bcdq": f"bcdq.json {link}",
        "bcdr": f"bcdr.sgf {link}",
        "bcds": f"bcds.sgf {link}",
        "bcdt": "",  # too deep for the reader, or a fault found in it: either way, set aside
        "bcd6": "bcd6.sgf is not a record of the room's game",
        "bcd7": "bcd7.sgf has computer players",
        "bcdv": "bcdv.json is not a regular file",
        "bcd9": "the record's other person 'erin' is not the room's",
    }
    before = files_under(tmp_path, data)

    server: RunningServer = start_server()
    lines = server.log.splitlines()
    for name, reason in reasons.items():
        found = [line for line in lines if f"room files {name}.json" in line]
        assert len(found) == 1 and reason in found[0], (name, server.log)
        assert os.path.lexists(rooms / "set-aside" / f"{name}.json"), name
        assert not os.path.lexists(rooms / f"{name}.json"), name
    for name in ("bcdr", "bcds", "bcdt", "bcd6", "bcd7", "bcd9"):
        assert f"room files {name}.json and {name}.sgf set aside" in server.log
        assert os.path.lexists(rooms / "set-aside" / f"{name}.sgf"), name
    for name, files in good.items():
        found = [line for line in lines if f"room files {name}.json" in line]
        assert len(found) == 1 and "imported into the store" in found[0], (name, server.log)
        assert sorted(path.name for path in (rooms / "imported").glob(f"{name}.*")) == files
        assert not list(rooms.glob(f"{name}.*")), name
    assert "Traceback" not in server.log, server.log
    # Nothing was written outside the data folder, and the links' targets are untouched.
    assert files_under(tmp_path, data) == before
    assert not (outside / "written.sgf").exists()
    assert not list(tmp_path.glob("escaped*"))
    # The server's folders and its store are its own.
    for folder in (data, rooms, rooms / "set-aside", rooms / "imported"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE((data / "server.db").stat().st_mode) == 0o600

    async def lobby() -> None:
        # The rooms read from files were made by their codes: listed to their players.
        conn, carl = await connect(server.port, "carl")
        screen = await carl.wait_for(
            "gh23  Pilo 8x8  carl - waiting for a player",
            "gh24  Pilo 8x8  carl - dave  Orange to move (dave)",
            "gh25  Linage 5x5  carl - dave  Horizontal to move (carl)",
        )
        for name in reasons:
            assert name not in screen
        conn.close()
        conn, ann = await connect(server.port, "ann")
        screen = await ann.wait_for(f"{code}  Petrify 8x8  ann - bob")
        assert "gh23" not in screen
        ann.send(ENTER)  # her seat in the game kept
        await ann.wait_for("1. Blue", "e5")
        conn.close()

    asyncio.run(lobby())
    server.stop()

    # A restart imports nothing again: the rooms are in the store.
    restarted: RunningServer = start_server()
    assert "imported" not in restarted.log and "set aside" not in restarted.log
    games = asyncio.run(run(restarted.port, "carl", "games carl")).stdout
    assert sorted(line[:4] for line in str(games).splitlines()[1:]) == sorted(good)
    restarted.stop()

    # Set aside again under the same name: the first one is kept beside it.
    (rooms / "bcdf.json").write_text(room("../../../escaped"))
    again: RunningServer = start_server()
    assert "room files bcdf.json set aside" in again.log
    assert "../../../escaped" in (rooms / "set-aside" / "bcdf.json.1").read_text()
    assert "../../escaped" in (rooms / "set-aside" / "bcdf.json").read_text()


def serve_once(data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0", "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_names_are_imported_once_and_a_bad_names_file_stops_the_start(tmp_path: Path) -> None:
    # names.json keeps each name for its key: ignoring a bad one would let anybody take
    # any name, so the server says what is wrong instead of starting.
    data = tmp_path / "data"
    data.mkdir()
    (data / "names.json").write_text('{"ann": ["not", "a", "key"]}')
    result = serve_once(data)
    assert result.returncode == 2
    assert "names.json is not a table of names and keys" in result.stderr
    assert "Traceback" not in result.stderr
    # A good one is put in the store and moved out of the way.
    (data / "names.json").write_text('{"ann": "SHA256:ann-key", "bob": "SHA256:bob-key"}')
    with subprocess.Popen(
        [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0", "--data", str(data)],
        stderr=subprocess.PIPE,
        text=True,
    ) as server:
        assert server.stderr is not None
        for line in server.stderr:
            if "listening on" in line:
                break
        server.terminate()
    assert not (data / "names.json").exists()
    assert (data / "imported" / "names.json").exists()
    store = SqliteStore(data / "server.db")
    assert (store.name_key("ann"), store.name_key("bob")) == ("SHA256:ann-key", "SHA256:bob-key")
    store.close()


def test_a_linked_rooms_folder_or_store_stops_the_start_with_one_sentence(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (data / "rooms").symlink_to(elsewhere)
    result = serve_once(data)
    assert result.returncode == 2
    assert "rooms is a symbolic link or not a folder" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(elsewhere.iterdir()) == []
    (data / "rooms").unlink()
    for made in data.glob("server.db*"):  # made by the start refused above
        made.unlink()
    (data / "server.db").symlink_to(elsewhere / "server.db")
    result = serve_once(data)
    assert result.returncode == 2
    assert "server.db is a symbolic link" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(elsewhere.iterdir()) == []
