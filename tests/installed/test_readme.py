"""Every command line of the README's quick start and of the docs' Commands table
(docs/commands.md), run against a plain install as a new user runs it (the lines are read
from those files here, so that they cannot promise what does not work)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.installed.conftest import Product, free_port, listening, wait_until
from tests.installed.readme import commands_table, quick_start, the_test_command
from tests.openssh import SSH, needs_ssh
from tests.processes import session_processes
from tests.tmux import Tmux, needs_tmux

pytestmark = pytest.mark.installed

Check = Callable[[Product, dict[str, str], Path], None]
CHECKS: dict[str, Check] = {}
QUICK: set[str] = set()
"""The commands checked on every Python; the others on the main one only."""

RECORD = "(;FF[4]GM[1000]GA[linage]SZ[5]KM[0.5]PB[Ann]PW[Bob];B[c3];W[b2];B[d4])\n"
"""A short game of Linage 5 for the commands that read records."""


def check(synopsis: str, *, quick: bool = False) -> Callable[[Check], Check]:
    """Register the check of the README's line `synopsis`."""

    def register(function: Check) -> Check:
        CHECKS[synopsis] = function
        if quick:
            QUICK.add(synopsis)
        return function

    return register


def in_terminal(product: Product, args: str, user: dict[str, str]) -> Tmux:
    """`abstracts-tui ARGS` in a terminal of 80x24, its exit status shown after it."""
    command = f"{product.command} {args}; echo EXIT=$?; sleep 60"
    return Tmux(command, 80, 24, env=user, cwd=product.outside)


def quit_with_status_0(terminal: Tmux) -> None:
    terminal.keys("C-q")
    screen = terminal.wait_for("EXIT=")
    assert "EXIT=0" in screen, screen
    assert "Traceback" not in screen


def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.sgf"
    path.write_text(RECORD)
    return path


# -- the app ---------------------------------------------------------------------------


@needs_tmux
@check("abstracts-tui", quick=True)
def home_screen(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    with in_terminal(product, "", user) as terminal:
        screen = terminal.wait_for("choose a game")
        assert "Partitions" in screen and "Start" in screen and "Quit" in screen
        quit_with_status_0(terminal)


@needs_tmux
@check(
    "abstracts-tui play GAME [--size N] [--variant V] [--komi K] [--first NAME] [--second NAME]",
    quick=True,
)
def play_with_options(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    args = "play egotzi --size 5 --variant squared --komi 2 --first Ann --second Bob"
    with in_terminal(product, args, user) as terminal:
        terminal.wait_for("choose a side")
        terminal.keys("1")  # Bob, the second person, takes the first colour
        terminal.wait_for("Black to move (Bob)")
        terminal.keys(":")
        terminal.wait_for("Enter plays")
        terminal.keys("c3", "Enter")
        screen = terminal.wait_for("White to move (Ann)")
        assert "c3" in screen  # in the move list
        quit_with_status_0(terminal)


@needs_tmux
@check("abstracts-tui play GAME --clock SPEC")
def play_with_clocks(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    with in_terminal(product, "play pilo --clock 5m+3s", user) as terminal:
        terminal.wait_for(lambda screen: re.search(r"4:5\d", screen) is not None)  # it runs
        quit_with_status_0(terminal)


@needs_tmux
@check("abstracts-tui play GAME --computer first|second|both [--level L]")
def play_the_computer(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    args = "play partitions --size 5 --computer first --level easy"
    with in_terminal(product, args, user) as terminal:
        terminal.wait_for("Black to move (Player 2)")  # after the computer's first move
        quit_with_status_0(terminal)


@needs_tmux
@check("abstracts-tui play --load FILE.sgf")
def play_a_record(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    with in_terminal(product, f"play --load {record(tmp_path)}", user) as terminal:
        screen = terminal.wait_for("Horizontal to move (Bob)")
        assert "d4" in screen
        quit_with_status_0(terminal)


@needs_tmux
@check("abstracts-tui --ascii ...", quick=True)
def ascii_only(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    with in_terminal(product, "--ascii play petrify --size 6", user) as terminal:
        screen = terminal.wait_for("Blue to move")
        assert screen.isascii(), [char for char in screen if not char.isascii()]
        quit_with_status_0(terminal)


@check("abstracts-tui play GAME --lines", quick=True)
def line_mode(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    done = product.run("play", "pilo", "--size", "6", "--lines", env=user, stdin="c3\nrow 3\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "Blue (Player 1) plays c3." in lines
    assert "Row 3: 2 empty, Blue c3, 3 empty." in lines
    assert "\x1b" not in done.stdout


@check("abstracts-tui --lines")
def line_mode_from_the_start(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    done = product.run("--lines", env=user, stdin="egotzi\n1\nc3\nquit\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "Which game?" in lines and "3. Egotzi" in lines
    assert "Black (Player 1) plays c3." in lines
    assert "\x1b" not in done.stdout


# -- records and the engine --------------------------------------------------------------


@check("abstracts-tui engine", quick=True)
def engine(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    lines = "newgame egotzi size=5\nplay c3\nside_to_move\ngenmove\nmoves\nquit\n"
    done = product.run("engine", env={**user, "ABSTRACTS_TUI_PLAYOUTS": "50"}, stdin=lines)
    assert done.returncode == 0, done.stderr
    answers = [block for block in done.stdout.split("\n\n") if block]
    assert answers[:3] == ["=", "=", "= white"]
    played = re.fullmatch(r"= ([a-e][1-5]|swap)", answers[3])
    assert played is not None, answers
    assert answers[4] == f"= c3 {played.group(1)}"


@check("abstracts-tui check FILE.sgf", quick=True)
def check_a_record(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    done = product.run("check", str(record(tmp_path)), env=user)
    assert done.returncode == 0, done.stderr
    assert "moves: c3 b2 d4" in done.stdout.splitlines()
    assert "Horizontal to move" in done.stdout
    broken = tmp_path / "broken.sgf"
    broken.write_text(RECORD.replace("B[d4]", "B[c3]"))
    done = product.run("check", str(broken), env=user)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "c3" in done.stderr and len(done.stderr.splitlines()) == 1


@check("abstracts-tui review FILE.sgf [--playouts N | --seconds S]")
def review(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    done = product.run("review", str(record(tmp_path)), "--playouts", "50", env=user)
    assert done.returncode == 0, done.stderr
    assert "Review of Linage size=5,komi=0.5: 3 moves, 50 playouts a position" in done.stdout
    assert "Accuracy of Ann:" in done.stdout and "Accuracy of Bob:" in done.stdout


@check("abstracts-tui --version", quick=True)
def version(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    done = product.run("--version", env=user)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"abstracts-tui \d+\.\d+\.\d+\S*, .*search core.*\n", done.stdout)
    if shutil.which("cc") is not None and product.has("sysconfig"):
        headers = subprocess.run(
            [
                product.python,
                "-c",
                "import os, sysconfig; "
                "print(os.path.exists(sysconfig.get_paths()['include'] + '/Python.h'))",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if headers.stdout.strip() == "True":  # what the install needed to build the core
            assert "compiled search core" in done.stdout


# -- the servers -----------------------------------------------------------------------


class Server:
    """`abstracts-tui serve` of the install on a free loopback port."""

    def __init__(self, product: Product, user: dict[str, str], *args: str) -> None:
        self.port = free_port()
        self.log: str | None = None
        self.process = subprocess.Popen(
            [product.command, "serve", "--port", str(self.port), *args],
            env=user,
            cwd=product.outside,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_until(lambda: listening(self.port) or self.process.poll() is not None, 60)
        except AssertionError:
            self.stop()
            raise
        assert self.process.poll() is None, self.stop()

    def ssh(self, user: str, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*SSH, "-T", "-p", str(self.port), f"{user}@127.0.0.1", *command],
            capture_output=True,
            text=True,
            timeout=60,
        )

    def login(self, user: str, *options: str) -> str:
        """The command line of a player's `ssh -t` to the server."""
        # Options before the tests' own: ssh takes the first value it is given for each.
        ssh = [SSH[0], *options, *SSH[1:], "-t", "-p", str(self.port), f"{user}@127.0.0.1"]
        return " ".join(ssh)

    def stop(self) -> str:
        """Stop it as its operator does (SIGTERM), once; what it logged."""
        if self.log is None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
            self.log, _ = self.process.communicate(timeout=30)
        return self.log


def make_room(terminal: Tmux) -> str:
    """From the lobby: a room of the form's defaults (Petrify 8x8); its code."""
    terminal.keys("c")
    terminal.wait_for("Start (Enter)")
    terminal.keys("Enter")
    screen = terminal.wait_for("Waiting for a second player")
    code = re.search(r"Room ([a-z0-9]{4})", screen)
    assert code is not None, screen
    return code.group(1)


def bob_joins_and_sees_a_move(
    server: Server, user: dict[str, str], terminal: Tmux, code: str, *, processes: int
) -> None:
    """bob joins ann's room `code` (ann in `terminal`), with `processes` session processes
    then (2: a process each; 0: both apps on threads), sees ann's d5, and quits."""
    join = f"{server.login('bob')} join {code}; echo SSH-EXIT=$?; sleep 60"
    with Tmux(join, 80, 24, env=user) as second:  # a second player, after a first app
        second.wait_for("Blue to move (ann)")
        terminal.wait_for("Blue to move (ann)")
        assert len(session_processes(server.process.pid)) == processes
        terminal.keys("Enter")  # d5, from ann's app to bob's
        second.wait_for("(ann) plays d5")
        second.keys("C-q")
        second.wait_for("SSH-EXIT=0")


@needs_ssh
@needs_tmux
@check("abstracts-tui serve [--host H] [--port P] [--log-level L] ...", quick=True)
def serve(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    server = Server(product, user, "--data", str(tmp_path / "server"))
    try:
        assert (
            server.ssh("bob", "games").stdout == "code\tgame\tplayers\tresult\trated\tdate (UTC)\n"
        )
        login = f"{server.login('ann')}; echo SSH-EXIT=$?; sleep 60"
        with Tmux(login, 80, 24, env=user) as terminal:
            terminal.wait_for("New room")
            assert len(session_processes(server.process.pid)) == 1  # ann's app, in a process
            code = make_room(terminal)
            games = server.ssh("ann", "games")  # a room by its code: listed to its player
            assert games.returncode == 0
            assert f"{code}\tPetrify 8x8\tann - waiting for a player" in games.stdout
            assert code not in server.ssh("bob", "games").stdout  # and to nobody else
            bob_joins_and_sees_a_move(server, user, terminal, code, processes=2)
            wait_until(lambda: len(session_processes(server.process.pid)) == 1, 30)
            export = server.ssh("bob", "export", code)
            assert export.returncode == 0 and export.stdout.startswith("(;FF[4]GM[1000]")
            assert "GA[petrify]" in export.stdout and "PB[ann]" in export.stdout
            assert "PW[bob]" in export.stdout
            ratings = server.ssh("bob", "ratings")
            assert ratings.stdout.startswith("name\tgame\trating")
            server.stop()
            screen = terminal.wait_for("SSH-EXIT=")
            assert "the server is stopping; your games are kept" in screen
    finally:
        log = server.stop()
    assert server.process.returncode == 0, log
    assert "Traceback" not in log


@needs_ssh
@needs_tmux
@check("abstracts-tui serve --threads ...", quick=True)
def serve_on_threads(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    server = Server(product, user, "--data", str(tmp_path / "server"), "--threads")
    try:
        login = f"{server.login('ann')}; echo SSH-EXIT=$?; sleep 60"
        with Tmux(login, 80, 24, env=user) as terminal:
            terminal.wait_for("New room")
            code = make_room(terminal)
            bob_joins_and_sees_a_move(server, user, terminal, code, processes=0)
            server.stop()
            screen = terminal.wait_for("SSH-EXIT=")
            assert "the server is stopping; your games are kept" in screen
    finally:
        log = server.stop()
    assert server.process.returncode == 0, log
    assert "Traceback" not in log


@needs_ssh
@needs_tmux
@check("abstracts-tui passwd NAME [--file FILE]", quick=True)
def passwords(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "players.pw"
    done = product.run("passwd", "ann", "--file", str(path), "--stdin", env=user, stdin="s3cret\n")
    assert done.returncode == 0, done.stderr
    assert path.read_text().startswith("ann:pbkdf2_sha256$")
    server = Server(product, user, "--data", str(tmp_path / "server"), "--password-file", str(path))
    try:
        options = ("-o", "BatchMode=no", "-o", "PreferredAuthentications=password")
        for _ in range(2):  # the second login after the first one's app has run
            with Tmux(f"{server.login('ann', *options)}; sleep 60", 80, 24, env=user) as terminal:
                terminal.wait_for("password:")
                terminal.keys("s3cret", "Enter")
                terminal.wait_for("New room")  # in, with the password made above
        assert server.ssh("ann", "games").returncode == 255  # no password: not in
    finally:
        log = server.stop()
    assert "Traceback" not in log


@needs_ssh
@check("abstracts-tui serve --admin NAME ...", quick=True)
def serve_with_an_admin(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    server = Server(product, user, "--data", str(tmp_path / "server"), "--admin", "root")
    try:
        reported = server.ssh("ann", "report", "bob", "spam in chat")
        assert reported.stdout == "bob is reported to the server's admins. Thank you.\n"
        assert server.ssh("ann", "reports").returncode == 1  # not an admin
        listed = server.ssh("root", "reports")
        assert listed.returncode == 0, listed.stderr
        assert listed.stdout.splitlines()[1].endswith("\tann\tbob\tspam in chat")
        assert server.ssh("root", "suspend", "bob", "1", "spam").returncode == 0
        refused = server.ssh("bob", "games")
        assert refused.returncode == 1 and "bob is suspended until " in refused.stdout
    finally:
        log = server.stop()
    assert "Traceback" not in log


@needs_ssh
@check(
    "abstracts-tui serve --smtp HOST:PORT [--smtp-from ADDRESS] [--smtp-user NAME] "
    "[--notify-private] ...",
    quick=True,
)
def serve_with_mail(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Sink

    mail = Controller(Sink(), hostname="127.0.0.1", port=free_port())
    mail.start()
    try:
        smtp = ["--smtp", f"127.0.0.1:{mail.port}"]
        refused = subprocess.run(
            [product.command, "serve", *smtp, "--smtp-user", "games"],
            env={k: v for k, v in user.items() if k != "ABSTRACTS_TUI_SMTP_PASSWORD"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert refused.returncode == 2
        assert "give the password in the variable ABSTRACTS_TUI_SMTP_PASSWORD" in refused.stderr
        data = ["--data", str(tmp_path / "server")]
        server = Server(product, user, *data, *smtp, "--smtp-from", "games@example.org")
        try:
            said = server.ssh("ann", "notify", "mailto:ann@example.org")
            assert said.stdout == (
                "Notices go to mailto:ann@example.org: your move in a game you are not "
                "connected to, a challenge of yours accepted, a game's end.\n"
            )
        finally:
            log = server.stop()
        assert "Traceback" not in log
    finally:
        mail.stop()


@check("abstracts-tui serve --check [--data DIR]", quick=True)
def serve_check(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    data = tmp_path / "server"
    store = data / "server.db"
    missing = product.run("serve", "--check", "--data", str(data), env=user)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == (
        f"Error: there is no store at {store} (the server's first start makes one)\n"
    )
    Server(product, user, "--data", str(data)).stop()  # the first start makes it
    sound = product.run("serve", "--check", "--data", str(data), env=user)
    assert (sound.returncode, sound.stderr) == (0, "")
    assert sound.stdout.startswith(f"{store} is sound: SQLite's integrity check finds nothing")
    store.write_bytes(b"")  # emptied by accident: refused, never taken for a new store
    empty = product.run("serve", "--check", "--data", str(data), env=user)
    assert empty.returncode == 2 and empty.stdout == ""
    assert empty.stderr.startswith(f"Error: {store} is empty (0 bytes), so it holds no store")
    assert len(empty.stderr.splitlines()) == 1
    start = product.run("serve", "--port", str(free_port()), "--data", str(data), env=user)
    assert start.returncode == 2 and start.stderr == empty.stderr
    assert store.read_bytes() == b""


@check("abstracts-tui serve --database postgresql://...", quick=True)
def database_without_its_extra(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    if product.has("psycopg"):
        pytest.skip("this install has the postgres extra (tests/store covers PostgreSQL)")
    done = product.run("serve", "--database", "postgresql://127.0.0.1:1/games", env=user)
    assert done.returncode == 2
    assert done.stderr == (
        "Error: --database needs psycopg, which is not installed: "
        "pip install 'abstracts-tui[postgres]' adds it\n"
    )


@check("abstracts-tui serve --web [HOST:]PORT ...", quick=True)
def serve_web_without_its_extra(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    if product.has("textual_serve"):
        pytest.skip("this install has the web extra (tests/web/test_rooms.py covers it)")
    done = product.run("serve", "--web", "0", "--data", str(tmp_path / "server"), env=user)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: --web needs ")
    assert done.stderr.endswith(
        ", which is not installed: pip install 'abstracts-tui[web]' adds it\n"
    )
    assert not (tmp_path / "server").exists()  # refused before anything is made


@check(
    "abstracts-tui web [--host H] [--port P] [--data DIR] [--open] "
    "[--public-url URL | --behind-proxy] [--max-visitors N] [--pages-per-address N]",
    quick=True,
)
def web_without_its_extra(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    if product.has("textual_serve"):
        pytest.skip("this install has the web extra (tests/web covers the browser)")
    done = product.run("web", env=user)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: web needs ")
    assert done.stderr.endswith(
        ", which is not installed: pip install 'abstracts-tui[web]' adds it\n"
    )


@check("abstracts-tui puzzles export --game GAME [--size N] [--grade G]", quick=True)
def puzzles_export(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    """The shipped puzzles come with the plain install: one JSON object a line."""
    done = product.run("puzzles", "export", "--game", "pilo", "--size", "6", env=user)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows and all(row["game"] == "pilo" and row["size"] == 6 for row in rows)
    assert all(row["value"] == "win" and row["solution"] for row in rows)
    refused = product.run("puzzles", "export", "--game", "pilo", "--size", "99", env=user)
    assert refused.returncode == 2 and "not 99" in refused.stderr


@check("abstracts-tui puzzles play [--game GAME] [--size N] [--grade G] [--lines]", quick=True)
def puzzles_play(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    """In line mode: the first puzzle said, `show` plays its line, `quit` counts."""
    args = ("puzzles", "play", "--game", "egotzi", "--size", "5", "--lines")
    done = product.run(*args, env=user, stdin="show\nshow\nshow\nshow\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Puzzle 1 of " in done.stdout and "to play and win" in done.stdout, done.stdout


@check(
    "abstracts-tui puzzles mine [--data DIR] [--database URL] [--seconds S] [--games N]",
    quick=True,
)
def puzzles_mine(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    """A folder without a server's store is refused; a store without finished games has
    nothing to mine (tests/puzzles/test_archive_mining.py mines a game)."""
    data = tmp_path / "server"
    refused = product.run("puzzles", "mine", "--data", str(data), env=user)
    assert refused.returncode == 2 and "There is no server store in" in refused.stderr
    from abstracts_tui.store import SqliteStore

    data.mkdir()
    SqliteStore(data / "server.db").close()
    done = product.run("puzzles", "mine", "--data", str(data), env=user)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "0 finished games looked at, 0 mined, 0 new puzzles kept.\n"


# -- the benches ---------------------------------------------------------------------


@check("python -m abstracts_tui.bench [GAME ...]")
def rules_bench(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    done = product.run(
        "-m", "abstracts_tui.bench", "pilo", "--seconds", "0.2", env=user, python=True
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^pilo +8 +[\d,]+ ", done.stdout, re.MULTILINE), done.stdout


@check("python -m abstracts_tui.tui.bench")
def app_bench(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    args = ("-m", "abstracts_tui.tui.bench", "--presses", "3", "--starts", "1", "--moves", "1")
    done = product.run(*args, env=user, python=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "start-up to first screen, abstracts-tui:" in done.stdout


@check("python -m abstracts_tui.engine.search --bench")
def search_bench(product: Product, user: dict[str, str], tmp_path: Path) -> None:
    args = ("-m", "abstracts_tui.engine.search", "--bench", "--seconds", "0.2", "egotzi")
    done = product.run(*args, env=user, python=True)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^egotzi +7 +49 ", done.stdout, re.MULTILINE), done.stdout


# -- the tests -------------------------------------------------------------------------


def commands() -> list[object]:
    return [
        pytest.param(line, marks=[pytest.mark.quick] if line in QUICK else [])
        for line in commands_table()
    ]


@pytest.mark.parametrize("line", commands())
def test_each_line_of_the_commands_table_works(
    line: str, product: Product, user: dict[str, str], tmp_path: Path
) -> None:
    assert line in CHECKS, f"the Commands table's {line!r} has no check here: add one"
    CHECKS[line](product, user, tmp_path)


@pytest.mark.quick
def test_every_check_is_of_a_line_the_readme_has() -> None:
    assert sorted(set(CHECKS) - set(commands_table())) == []


@needs_tmux
def test_the_quick_start_installs_and_starts_the_app_from_a_fresh_clone(
    product: Product, user: dict[str, str], tmp_path: Path
) -> None:
    """The quick start's first line, then its line for the browser, run as written in a
    fresh clone. (Its test line is the one CI runs first: the whole suite.)"""
    install, tests, web = quick_start()
    assert tests == the_test_command()
    source = tmp_path / "abstracts-tui"
    subprocess.run(["git", "clone", "-q", str(product.source), str(source)], check=True)
    with Tmux(f"{install}; echo EXIT=$?; sleep 60", 80, 24, env=user, cwd=source) as terminal:
        terminal.wait_for("choose a game", seconds=600)  # the install builds the core
        quit_with_status_0(terminal)
    if listening(8000):
        pytest.skip("port 8000, which the quick start's web line uses, is taken here")
    server = subprocess.Popen(
        ["sh", "-c", web],
        cwd=source,
        env=user,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        wait_until(lambda: listening(8000) or server.poll() is not None, 600)
        with urllib.request.urlopen("http://127.0.0.1:8000/", timeout=30) as page:
            assert page.status == 200 and "abstracts-tui" in page.read().decode()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        log, _ = server.communicate(timeout=60)
    assert "listening on http://127.0.0.1:8000/" in log, log
    assert "Traceback" not in log, log
