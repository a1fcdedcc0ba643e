"""A room's offers from one table of cases driven through the play model
(`play.offers.RoomOffers`), the full-screen app's room screen (`tui.online.OnlinePlay` on
the play screen `build_app` makes) and line mode's room (`lines.room.LineRoom` on a real
room, its store SQLite, followed from a session's thread): a behaviour one front end has
and another lacks fails here.

A case is a Pilo game of ann (first) and bob with some moves played, what ann does from
her connection and what the person at the screen types (bob, or carl who watches), and
what must follow: the sentences said, in order, the moves left, the result and whether
the screen went on to a rematch's room.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from textual.pilot import Pilot

from abstracts_tui.commands import ChooseSide, Command, Draw, Play, Rematch, Resign, Takeback
from abstracts_tui.crossing import on_thread, run_in
from abstracts_tui.game_setup import Setup
from abstracts_tui.lines.room import LineRoom
from abstracts_tui.play.offers import Act, RoomOffers, Step
from abstracts_tui.rooms.chat import Chat
from abstracts_tui.rooms.client import Shown
from abstracts_tui.rooms.holder import Holder, new_holder
from abstracts_tui.rooms.play import done_text
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.server.room_desk import thread_client
from abstracts_tui.session import Phase, Session
from abstracts_tui.store import SqliteStore
from abstracts_tui.store.live_sqlite import LiveSqlite
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.online import OfferDialog, ResignDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.online import RoomSeat
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from abstracts_tui.tui.settings import Settings
from tests.rooms.test_gateway import until
from tests.tui.room_events import LocalRoom
from tests.tui.waiting import until as until_shown

SETUP = Setup("pilo", 8, first="ann", second="bob")
LINAGE = Setup("linage", 5, komi=0, first="ann", second="bob")
"""A game that can end equal (a whole-number komi): bob takes the second colour first."""


@dataclass(frozen=True)
class Case:
    name: str
    moves: int
    """Moves played first, ann's first."""
    steps: tuple[str | Command, ...]
    """A word typed at the screen (`takeback`, `decline`, `rematch`, `resign`, `abort`,
    `claim draw`, `yes`, `no`), or a command from ann's connection."""
    said: tuple[str, ...]
    """Sentences said at the screen in this order (others may come between them)."""
    left: int
    """Moves in the game at the end."""
    result: str = ""
    rematch: bool = False
    """Whether the screen went on to the rematch's room."""
    user: str = "bob"
    never: tuple[str, ...] = field(default=())
    """Sentences never said."""
    setup: Setup = SETUP


CASES = (
    Case(
        "a take-back asked after one's own move",
        2,
        ("takeback",),
        (
            "Sent: take-back request, waiting for the server.",
            "Take-back asked: waiting for ann's answer.",
        ),
        2,
    ),
    Case(
        "no take-back before one's own move",
        1,
        ("takeback",),
        ("You have made no move to take back.",),
        1,
    ),
    Case(
        "the other player's take-back accepted: their move and the reply go",
        2,
        (Takeback(Takeback.OFFER), "takeback"),
        ("Sent: answer, waiting for the server.", "Taken back. Blue to move (ann)."),
        0,
    ),
    Case(
        "the other player's take-back declined",
        2,
        (Takeback(Takeback.OFFER), "decline"),
        ("Sent: answer, waiting for the server.", "Take-back declined: play on."),
        2,
    ),
    Case(
        "nothing to decline",
        2,
        ("decline",),
        ("Nobody asks you to take back or offers you a rematch now.",),
        2,
    ),
    Case(
        "an abort asked first, then sent",
        1,
        ("abort", "yes"),
        ("Sent: abort, waiting for the server.",),
        1,
        "Void",
    ),
    Case(
        "an abort asked first, and not confirmed",
        1,
        ("abort", "no"),
        ("Play on.",),
        1,
        never=("Sent: abort, waiting for the server.",),
    ),
    Case(
        "no abort once each side has moved",
        2,
        ("abort",),
        ("Each side has moved: the game can be resigned, no longer aborted.",),
        2,
    ),
    Case(
        "a resignation asked first, then sent",
        2,
        ("resign", "yes"),
        ("Sent: resignation, waiting for the server.",),
        2,
        "blue+R",
    ),
    Case(
        "no rematch before the end",
        2,
        ("rematch",),
        ("A rematch is offered once the game is over.",),
        2,
    ),
    Case(
        "a rematch offered once the game is over",
        2,
        (Resign(), "rematch"),
        (
            "Sent: rematch offer, waiting for the server.",
            "Rematch offered: waiting for ann's answer.",
        ),
        2,
        "orange+R",
    ),
    Case(
        "the other player's rematch accepted: on to its room",
        2,
        (Resign(), Rematch(Rematch.OFFER), "rematch"),
        ("Rematch accepted: making its room.",),
        2,
        "orange+R",
        rematch=True,
    ),
    Case(
        "a draw offered in a game that can end equal",
        2,
        ("draw",),
        (
            "Sent: draw offer, waiting for the server.",
            "Draw offered: waiting for ann's answer.",
        ),
        2,
        setup=LINAGE,
    ),
    Case(
        "no draw in a game that cannot end equal",
        2,
        ("draw",),
        ("This game cannot end equal, so there is no draw to offer.",),
        2,
    ),
    Case(
        "the other player's draw accepted: the game ends drawn",
        2,
        (Draw(Draw.OFFER), "draw"),
        ("Sent: answer, waiting for the server.", "Draw agreed"),
        2,
        "draw",
        setup=LINAGE,
    ),
    Case(
        "the other player's draw declined",
        2,
        (Draw(Draw.OFFER), "decline"),
        ("Sent: answer, waiting for the server.", "Draw declined: play on."),
        2,
        setup=LINAGE,
    ),
    Case(
        "a watcher cannot offer a draw",
        2,
        ("draw",),
        ("Only the players can do that; watchers can chat.",),
        2,
        user="carl",
        setup=LINAGE,
    ),
    Case(
        "no draw claimed in a game that cannot end equal",
        2,
        ("claim draw",),
        ("This game cannot end equal, so there is no draw to claim.",),
        2,
    ),
    Case(
        "a watcher cannot claim a draw",
        2,
        ("claim draw",),
        ("Only the players can do that; watchers can chat.",),
        2,
        user="carl",
        setup=LINAGE,
    ),
    Case(
        "a watcher cannot ask to take back",
        2,
        ("takeback",),
        ("Only the players can do that; watchers can chat.",),
        2,
        user="carl",
    ),
)


def in_order(said: list[str], expected: tuple[str, ...]) -> bool:
    """Whether `expected` are said in this order (each within one line said)."""
    found: Iterator[str] = iter(said)
    return all(any(sentence in line for line in found) for sentence in expected)


def check(case: Case, session: Session, said: list[str], gone: list[str]) -> None:
    assert in_order(said, case.said), said
    assert not [line for line in said if any(never in line for never in case.never)], said
    assert len(session.game.moves) == case.left, said
    assert session.record.result == case.result, said
    assert bool(gone) == case.rematch, said


def a_move(session: Session) -> str:
    game = session.game
    return game.move_name(game.legal_moves()[0])


def begun(session: Session) -> Session:
    """The session, with bob's side taken where komi was agreed (ann moves first)."""
    if session.phase is Phase.SIDE:
        session.choose_side(1)
    return session


def played(session: Session, moves: int) -> None:
    for _ in range(moves):
        session.play(a_move(session))


# -- the model ---------------------------------------------------------------------------


def run_model(case: Case) -> tuple[Session, list[str], list[str]]:
    """The steps on the model, each command given to the room at once."""
    session = begun(Session.start(case.setup))
    played(session, case.moves)
    room = LocalRoom(session)
    offers = RoomOffers(session, room.terms, case.user, rated=True)
    said: list[str] = []
    gone: list[str] = []
    asked: Step | None = None

    def send(command: Command) -> None:
        room.send(command, case.user)
        said.append(done_text(session, command, case.user))

    for step in case.steps:
        if not isinstance(step, str):
            room.send(step, "ann")
            continue
        if step in ("yes", "no"):
            assert asked is not None and asked.command is not None
            said.append(offers.confirmed(asked, step == "yes"))
            if step == "yes":
                send(asked.command)
            continue
        found = getattr(offers, step.replace(" ", "_"))()  # `claim draw`: claim_draw
        if found.act is Act.CONFIRM:
            asked = found
        elif found.act is Act.REMATCH:
            said.append(found.text)
            room.send(Rematch(Rematch.ACCEPT, "r3mt"), case.user)
            gone.append("r3mt")
        elif found.act is Act.REFUSE:
            said.append(found.text)
        else:
            said.append(found.text)
            send(found.command)
    return session, said, gone


# -- the full-screen app -----------------------------------------------------------------


def run_app(case: Case, data: Path) -> tuple[Session, list[str], list[str]]:
    """The steps on the play screen of a room (the app's room screen) whose commands are
    applied in this process (no store between); a word is the room's key, or an answer
    in the dialog it opens."""
    app = build_app(data=data, settings=Settings())
    session = begun(Session.start(case.setup))
    played(session, case.moves)
    room = LocalRoom(session)
    said: list[str] = []
    gone: list[str] = []

    async def send(command: Command) -> None:
        room.send(command, case.user)

    async def chat_send(text: str) -> str | None:
        return None

    async def rematch_room() -> None:  # the room's own: made, then named in this one
        room.send(Rematch(Rematch.ACCEPT, "r3mt"), case.user)

    seat = RoomSeat(
        code="k7m2",
        user=case.user,
        rated=True,
        chat=Chat(),
        say=chat_send,
        rematch_room=rematch_room,
        go_to=gone.append,
        players=lambda: session.people,
        listen=room.listen,
        terms=room.terms,
    )
    people = frozenset({case.user}) & frozenset(session.people)
    shared = Seat(local_people=people, shared=True, files=False, send=send, room=seat)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = PlayScreen(session, seat=shared)
            keep(screen, said)
            app.push_screen(screen)
            await until_shown(pilot, lambda: app.screen is screen)
            for step in case.steps:
                await app_step(app, pilot, screen, step, room)
            await app.workers.wait_for_complete()
            await pilot.pause()

    asyncio.run(main())
    return session, said, gone


def keep(screen: PlayScreen, said: list[str]) -> None:
    """Keep every sentence the screen says in its status line (a refusal too)."""
    say = screen.say

    def kept(message: str) -> None:
        said.append(message)
        say(message)

    screen.say = kept  # type: ignore[method-assign]


async def app_step(
    app: AbstractsApp, pilot: Pilot[None], screen: PlayScreen, step: str | Command, room: LocalRoom
) -> None:
    """Ann's command given to the room; an answer in the dialog on top; else the room's
    key of the word (`decline`, which the app asks in its dialog, by the play's own)."""
    if not isinstance(step, str):
        room.send(step, "ann")
    elif isinstance(app.screen, OfferDialog | ResignDialog):
        await pilot.press({"decline": "n", "no": "n"}.get(step, "y"))
    elif step == "decline":
        assert screen.online is not None
        screen.online.decline()
    else:
        screen.room_keys.press(step.replace(" ", "_"))
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


# -- line mode ---------------------------------------------------------------------------


def run_lines(case: Case, data: Path) -> tuple[Session, list[str], list[str]]:
    """The steps on line mode's room, in a real room (its store SQLite) followed from a
    session's thread as the SSH server's line sessions do."""
    store = SqliteStore(data / "server.db")
    ann, person = new_holder("ann"), new_holder(case.user)
    said: list[str] = []
    gone: list[str] = []
    result: list[Session] = []

    async def server() -> None:
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        loop = asyncio.get_running_loop()
        room = await rooms.create(case.setup, ann)
        bob = person if case.user == "bob" else new_holder("bob")
        if case.user != "bob":
            await rooms.join(room, bob)
        client, desk = thread_client(rooms, store, person, loop)

        async def as_(holder: Holder, command: Command) -> int:
            await rooms.send(room, command, holder)
            return room.version

        async def session() -> None:
            client.connect(lambda code, text, ring: None)
            await client.enter(room.code, watch=case.user != "bob")
            if room.session.phase is Phase.SIDE:
                await run_in(loop, as_(bob, ChooseSide(1)))
            for number in range(case.moves):
                move = Play(a_move(room.session))
                await run_in(loop, as_(bob if number % 2 else ann, move))
            shown = await client.show(room.code)
            assert shown is not None
            line_room = LineRoom(
                shown, client, said.append, address="host", go_to=gone.append, columns=lambda: 80
            )
            line_room.start()
            for step in case.steps:
                if isinstance(step, str):
                    await line_room.answer(step)
                    if line_room.turns.sending is not None:
                        await line_room.turns.sending
                else:
                    version = await run_in(loop, as_(ann, step))
                    await until(caught_up(shown, version))
            await until(caught_up(shown, room.version))
            line_room.stop()
            result.append(shown.session)

        await on_thread("session", lambda: asyncio.run(session()))
        desk.close()
        await rooms.close()

    asyncio.run(server())
    return result[0], said, gone


def caught_up(shown: Shown, version: int) -> Callable[[], bool]:
    """Whether the replica has the room's change of `version`."""
    return lambda: shown.version >= version


# -- the table ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_model(case: Case) -> None:
    check(case, *run_model(case))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_full_screen_app(case: Case, tmp_path: Path) -> None:
    check(case, *run_app(case, tmp_path))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_line_mode(case: Case, tmp_path: Path) -> None:
    check(case, *run_lines(case, tmp_path))
