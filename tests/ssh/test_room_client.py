"""The rooms seen from a session's thread (`rooms/client.py`): the real rooms on the
server's loop, and a client on another thread's loop, as a session's app has it.

A replica follows every command the room applies, in order (the other player's, and its
own, which it has before its send returns), from the moment its screen follows it (what
came before is told then, not lost); a refused command comes back with its sentence and
changes nothing; a replica copied again whole says nothing by itself, its events say
what happened, each once; the room's presence and the your-move news cross; once
hidden, nothing of the replica is left on the server's loop.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from abstracts_tui.commands import ChooseSide, Play, Resign, SetKomi, Takeback
from abstracts_tui.crossing import on_thread, run_in
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.apply import twin
from abstracts_tui.rooms.chat import ChatRefused
from abstracts_tui.rooms.events import Stamped
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.live import Refused
from abstracts_tui.rooms.room import Room
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.server.room_desk import thread_client
from abstracts_tui.session import Change, Changed, Phase, Session
from abstracts_tui.store import SqliteStore
from abstracts_tui.store.live_sqlite import LiveSqlite
from tests.rooms.test_gateway import until


def moves(session: Session) -> list[str]:
    return [str(node.move) for node in session.record.root.mainline()]


def a_move(session: Session) -> str:
    """A legal move now, as a command names it."""
    game = session.game
    return game.move_name(game.legal_moves()[0])


def test_a_replica_on_a_sessions_thread_follows_the_room(tmp_path: Path) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")
    store = SqliteStore(tmp_path / "server.db")

    async def server() -> None:
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        room = await rooms.create(Setup("linage", clock="10m"), ann)
        code = room.code
        loop = asyncio.get_running_loop()
        client, desk = thread_client(rooms, store, bob, loop)

        async def live_moves() -> tuple[list[str], str]:
            return moves(room.session), room.session.record.to_sgf()

        async def as_ann(command: object) -> None:
            await rooms.send(room, command, ann)  # type: ignore[arg-type]

        async def app() -> None:  # on the session's thread, its own loop
            news: list[str] = []
            client.connect(lambda code, text, ring: news.append(text))
            entered = await client.enter(code, watch=False)
            assert entered.room is not None and entered.room.joiner == "bob"
            shown = await client.show(code)
            assert shown is not None
            shown.follow(True, lambda: None)  # as its screen does once it listens
            replica = shown.session
            assert replica.people == ("ann", "bob") and "bob" in shown.people()
            await run_in(loop, as_ann(SetKomi(3.5)))
            await until(lambda: replica.phase is Phase.SIDE)
            assert replica.game.options.komi == 3.5
            await shown.send(ChooseSide(1))
            assert replica.phase is Phase.PLAY  # before the send returned
            with pytest.raises(Refused, match="it is ann's turn"):
                await shown.send(Play(a_move(replica)))
            assert moves(replica) == []
            first = a_move(replica)
            await run_in(loop, as_ann(Play(first)))
            await until(lambda: moves(replica) == [first])
            await until(lambda: any(f"ann played {first}" in text for text in news))
            answer = a_move(replica)
            await shown.send(Play(answer))
            assert moves(replica) == [first, answer]
            there, sgf = await run_in(loop, live_moves())
            assert there == moves(replica) and sgf == replica.record.to_sgf()
            shown.follow(False, lambda: None)
            await run_in(loop, asyncio.sleep(0))  # after the hide, on the server's loop

        await on_thread("session", lambda: asyncio.run(app()))
        assert not room.commands and "bob" not in rooms.presences.here(code)
        desk.close()
        assert not rooms.news
        await rooms.close()

    asyncio.run(server())


def test_chat_take_back_and_the_lists_cross_to_a_sessions_thread(tmp_path: Path) -> None:
    """The lobby's lists come read again when a challenge is made and taken; the room's
    chat is a replica (lines said there and here, a refused one with its sentence); a
    take-back accepted there reaches the replica as its command (its answer told by
    whom), not as the room read again."""
    ann, bob = new_holder("ann"), new_holder("bob")
    store = SqliteStore(tmp_path / "server.db")

    async def server() -> None:
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        loop = asyncio.get_running_loop()
        client, desk = thread_client(rooms, store, bob, loop)
        made: list[str] = []

        async def challenge() -> str:
            room = await rooms.create(Setup("petrify"), ann, open=True)
            made.append(room.code)
            return room.code

        async def as_ann(command: object) -> None:
            room = rooms.known(made[0])
            assert room is not None
            await rooms.send(room, command, ann)  # type: ignore[arg-type]

        async def ann_says(text: str) -> None:
            room = rooms.known(made[0])
            assert room is not None
            await rooms.say(room, text, ann)

        async def app() -> None:  # on the session's thread, its own loop
            lists: list[list[str]] = []
            client.connect(
                lambda code, text, ring: None,
                lambda: lists.append([room.code for room in client.challenges("bob")]),
            )
            code = await run_in(loop, challenge())
            await until(lambda: [code] in lists)
            entered = await client.enter(code, watch=False)
            assert entered.room is not None and entered.room.joiner == "bob"
            await until(lambda: lists[-1] == [])  # taken: no longer a challenge
            shown = await client.show(code)
            assert shown is not None
            shown.follow(True, lambda: None)
            replica = shown.session
            await run_in(loop, ann_says("hello [bold]bob[/]"))
            await until(lambda: [line.text for line in shown.chat.lines] == ["hello [bold]bob[/]"])
            await client.say(code, "hi ann")
            said = [(line.by, line.text) for line in shown.chat.lines]
            assert said == [("ann", "hello [bold]bob[/]"), ("bob", "hi ann")]
            with pytest.raises(ChatRefused, match="nothing to say"):
                await client.say(code, "   ")
            first = a_move(replica)
            await run_in(loop, as_ann(Play(first)))
            await until(lambda: moves(replica) == [first])
            await shown.send(Play(a_move(replica)))
            await shown.send(Takeback(Takeback.OFFER))
            record = replica.record
            told: list[Changed] = []
            replica.listeners.subscribe(told.append)
            await run_in(loop, as_ann(Takeback(Takeback.ACCEPT)))
            await until(lambda: any(c.change is Change.OFFER for c in told))
            assert moves(replica) == [first] and shown.terms.offers == {}
            assert [c.by for c in told if c.change is Change.OFFER] == ["ann"]
            assert replica.record is record  # followed, not read again whole
            shown.follow(False, lambda: None)
            await run_in(loop, asyncio.sleep(0))  # after the hide, on the server's loop

        await on_thread("session", lambda: asyncio.run(app()))
        room = rooms.known(made[0])
        assert room is not None and not room.chat.listeners and not room.commands
        desk.close()
        assert not rooms.listing
        await rooms.close()

    asyncio.run(server())


def test_a_move_made_before_the_screen_listens_is_told_to_it_when_it_does(
    tmp_path: Path,
) -> None:
    """A screen is made with the replica and listens once it is mounted: a move the room
    applies meanwhile waits for it (the replica unchanged), then it is told who played
    what, as a move made while it listens is."""
    ann, bob = new_holder("ann"), new_holder("bob")
    store = SqliteStore(tmp_path / "server.db")

    async def server() -> None:
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        room = await rooms.create(Setup("petrify"), ann)
        loop = asyncio.get_running_loop()
        client, desk = thread_client(rooms, store, bob, loop)

        async def as_ann(command: object) -> None:
            await rooms.send(room, command, ann)  # type: ignore[arg-type]

        async def app() -> None:
            client.connect(lambda code, text, ring: None)
            await client.enter(room.code, watch=False)
            shown = await client.show(room.code)
            assert shown is not None
            replica = shown.session
            first = a_move(replica)
            await run_in(loop, as_ann(Play(first)))  # the screen is not mounted yet
            await until(lambda: bool(shown.held))
            assert moves(replica) == []  # what its first drawing shows, nothing missed
            told: list[Changed] = []
            replica.listeners.subscribe(told.append)  # mounted: it listens, then follows
            shown.follow(True, lambda: None)
            assert moves(replica) == [first]
            assert told == [Changed(Change.MOVE, 0, "ann", first)]
            shown.follow(False, lambda: None)
            await run_in(loop, asyncio.sleep(0))

        await on_thread("session", lambda: asyncio.run(app()))
        assert not room.commands
        desk.close()
        await rooms.close()

    asyncio.run(server())


def test_a_replica_that_went_astray_and_is_copied_again_says_each_event_once_in_order(
    tmp_path: Path,
) -> None:
    """A replica that went astray (a move taken back here only) no longer takes the
    room's commands: it is copied again whole, silently (its screen is only drawn again),
    and the room's events say what happened: each once, in order, none from the copy."""
    ann, bob = new_holder("ann"), new_holder("bob")
    store = SqliteStore(tmp_path / "server.db")

    async def server() -> None:
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        room = await rooms.create(Setup("petrify"), ann)
        loop = asyncio.get_running_loop()
        client, desk = thread_client(rooms, store, bob, loop)

        async def as_ann(command: object) -> None:
            await rooms.send(room, command, ann)  # type: ignore[arg-type]

        async def live_copy() -> Session:
            return twin(room.session)

        async def app() -> None:
            client.connect(lambda code, text, ring: None)
            await client.enter(room.code, watch=False)
            shown = await client.show(room.code)
            assert shown is not None
            replica = shown.session
            told: list[Changed] = []
            heard: list[Stamped] = []
            replica.listeners.subscribe(told.append)
            shown.listen(heard.extend)
            shown.follow(True, lambda: None)
            first = a_move(replica)
            await run_in(loop, as_ann(Play(first)))
            await until(lambda: moves(replica) == [first])
            replica.take_back(1)  # astray: ann's move gone here only
            told.clear()
            start = shown.version
            second = a_move(await run_in(loop, live_copy()))
            await shown.send(Play(second))  # does not apply here: copied again
            third = a_move(await run_in(loop, live_copy()))
            await run_in(loop, as_ann(Play(third)))
            await until(lambda: moves(replica) == [first, second, third])
            await until(lambda: shown.version == room.version)
            after = [stamped for stamped in heard if stamped.version > start]
            assert [stamped.version for stamped in after] == list(
                range(start + 1, room.version + 1)
            )
            assert [(e.event.by, e.event.move) for e in after] == [  # type: ignore[union-attr]
                ("bob", second),
                ("ann", third),
            ]
            # The copy told the screen no move (bob's never applied here): only that the
            # position is drawn again; the events said it.
            assert (Change.MOVE, "bob", second) not in [(c.change, c.by, c.move) for c in told]
            assert Change.STEP in [c.change for c in told]
            assert replica.record.to_sgf() == (await run_in(loop, live_copy())).record.to_sgf()
            shown.follow(False, lambda: None)
            await run_in(loop, asyncio.sleep(0))

        await on_thread("session", lambda: asyncio.run(app()))
        desk.close()
        await rooms.close()

    asyncio.run(server())


def test_the_lobby_is_told_your_move_then_the_end_and_the_rating_change_never_your_move_after(
    tmp_path: Path,
) -> None:
    """bob, in his lobby (no room shown), is told ann's move in their rated game with the
    bell, then her resignation and both ratings' change as news without it; nothing after
    the end says it is his move."""
    ann, bob = new_holder("ann"), new_holder("bob")
    store = SqliteStore(tmp_path / "server.db")

    async def server() -> None:
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        room = await rooms.create(Setup("pilo", 6), ann, rated=True)
        loop = asyncio.get_running_loop()
        client, desk = thread_client(rooms, store, bob, loop)

        async def as_ann(command: object) -> None:
            await rooms.send(room, command, ann)  # type: ignore[arg-type]

        async def app() -> None:
            news: list[tuple[str, bool]] = []
            client.connect(lambda code, text, ring: news.append((text, ring)))
            entered = await client.enter(room.code, watch=False)
            assert entered.room is not None and entered.room.joiner == "bob"
            shown = await client.show(room.code)
            assert shown is not None
            shown.follow(True, lambda: None)
            while len(moves(shown.session)) < 2 or shown.session.waiting_for() != "ann":
                if shown.session.waiting_for() == "bob":
                    await shown.send(Play(a_move(shown.session)))
                else:
                    await run_in(loop, as_ann(Play(a_move(shown.session))))
                    await until(lambda: shown.session.waiting_for() == "bob")
            shown.follow(False, lambda: None)  # bob goes back to his lobby
            first = a_move(shown.session)
            news.clear()
            await run_in(loop, as_ann(Play(first)))
            await until(lambda: len(news) >= 1)
            assert news == [(f"ann played {first} in room {room.code} (Pilo): your move.", True)]
            await run_in(loop, as_ann(Resign()))
            await until(lambda: "Ratings: " in " ".join(text for text, _ in news))
            await run_in(loop, asyncio.sleep(0.2))
            texts = [text for text, _ in news[1:]]
            assert texts[0].startswith(f"ann resigned in room {room.code} (Pilo): ")
            ratings = " ".join(texts)  # with the end, or on its own just after it
            assert "Ratings: ann 1500? -> " in ratings and ", bob 1500? -> " in ratings
            assert not any(ring for _, ring in news[1:])
            assert not any("your move" in text for text in texts)

        await on_thread("session", lambda: asyncio.run(app()))
        desk.close()
        await rooms.close()

    asyncio.run(server())


def ties(rooms: Rooms, room: Room) -> dict[str, int]:
    """How many are told of each of the room's changes, through its public objects (and
    the rooms' news and lists)."""
    return {
        "commands": len(room.commands),
        "events": len(room.told),
        "joins": len(room.listeners),
        "changes": len(room.session.listeners),
        "keeper": len(room.session.saving_listeners),
        "chat": len(room.chat.listeners),
        "presence": len(rooms.presences.followers.get(room.code, ())),
        "news": len(rooms.news),
        "lists": len(rooms.listing),
    }


@pytest.mark.parametrize("end", ["hidden", "session ended"])
def test_a_room_no_longer_shown_keeps_no_tie_to_the_session(tmp_path: Path, end: str) -> None:
    """A screen that shows a room and waits for its join ties the session to the room
    (its commands, events, changes, keeper, chat, presence, join): once the screen hides
    it and stops waiting, or the session ends with the room still shown, the room has as
    many ties as before, and the rooms none of the session's."""
    ann, bob = new_holder("ann"), new_holder("bob")
    store = SqliteStore(tmp_path / "server.db")

    async def server() -> None:
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        room = await rooms.create(Setup("petrify", clock="10m"), ann)
        before = ties(rooms, room)
        loop = asyncio.get_running_loop()
        client, desk = thread_client(rooms, store, bob, loop)
        during: list[dict[str, int]] = []

        async def count() -> dict[str, int]:
            return ties(rooms, room)

        async def app() -> None:
            client.connect(lambda code, text, ring: None)
            stop_waiting = client.when_joined(room.code, lambda: None)
            shown = await client.show(room.code)
            assert shown is not None
            shown.follow(True, lambda: None)
            await client.say(room.code, "hello")  # the desk has had the wait by now
            during.append(await run_in(loop, count()))
            if end == "hidden":
                shown.follow(False, lambda: None)
                stop_waiting()
                await run_in(loop, asyncio.sleep(0))  # after the hide, on the server's loop
                await client.refresh()  # every request posted before this one is done

        await on_thread("session", lambda: asyncio.run(app()))
        tied = {name: n - before[name] for name, n in during[0].items()}
        assert tied == {name: 1 for name in before}
        if end == "session ended":
            desk.close()
        assert ties(rooms, room) == {**before, "news": 1, "lists": 1} if end == "hidden" else before
        desk.close()
        assert ties(rooms, room) == before
        await rooms.close()

    asyncio.run(server())
