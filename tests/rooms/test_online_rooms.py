"""Online play through a room's gateway, on both live stores (SQLite in one process, and
a real PostgreSQL shared by two `Rooms` as two server processes): resign and abort kept
and rated as they should be, a take-back asked in one process and answered in another,
chat lines reaching every process, a rematch in a new room, open challenges listed."""

from __future__ import annotations

import asyncio

import pytest

from abstracts_tui.commands import Abort, Play, Rematch, Resign, Takeback
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.bounds import RoomRates
from abstracts_tui.rooms.chat import BURST, ChatLine, ChatRefused
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.live import Refused
from abstracts_tui.rooms.play import offer_text
from abstracts_tui.rooms.room import RoomError
from abstracts_tui.rooms.rooms import WAITING_ROOMS, Rooms
from tests.rooms.test_gateway import Opener, game, opener, postgres_rooms, refused, started, until

__all__ = ["opener"]  # the fixture, used by name

PILO = Setup("pilo", 6)


def moves(rooms: Rooms, room_code: str) -> list[str | None]:
    room = rooms.known(room_code)
    assert room is not None
    return [node.move for node in room.session.record.root.mainline()]


async def two_moves(rooms: Rooms, code: str, ann: object, bob: object) -> None:
    room = rooms.known(code)
    assert room is not None
    for holder in (ann, bob):
        game_now = room.session.game
        await rooms.send(room, Play(game_now.move_name(game_now.legal_moves()[0])), holder)  # type: ignore[arg-type]


def test_a_resignation_is_kept_and_rated_and_an_abort_is_not_rated(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> tuple[str, str]:
        rooms = await started(opener)
        rooms.rated = True
        room = await game(rooms, PILO, ann, bob)
        assert "abort the game instead" in await refused(rooms.send(room, Resign(), bob))
        await two_moves(rooms, room.code, ann, bob)
        await rooms.send(room, Resign(), bob)
        assert room.finished and room.session.record.result == "blue+R"
        assert room.flag_timer is None
        void = await game(rooms, PILO, ann, bob)
        await rooms.send(void, Abort(), ann)
        assert void.finished and void.session.record.result == "Void"
        await rooms.flush()
        await rooms.close()
        return room.code, void.code

    resigned, aborted = asyncio.run(play())

    async def again() -> None:  # a restart (SQLite), or another process (PostgreSQL)
        rooms = await started(opener)
        for code, result, winner in ((resigned, "blue+R", "ann"), (aborted, "Void", None)):
            stored = await asyncio.to_thread(rooms.live.store.room, code)  # type: ignore[attr-defined]
            assert stored is not None and stored.finished is not None
            assert (stored.result, stored.winner) == (result, winner)
        ratings = await asyncio.to_thread(rooms.live.store.ratings, "pilo")  # type: ignore[attr-defined]
        assert {r.name: r.games for r in ratings} == {"ann": 1, "bob": 1}  # the resignation
        await rooms.close()

    asyncio.run(again())


def test_a_take_back_asked_in_one_process_is_answered_in_another(database_url: str) -> None:
    opener = postgres_rooms(database_url)
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        here, there = await started(opener), await started(opener)
        room = await game(here, PILO, ann, bob)
        await two_moves(here, room.code, ann, bob)
        await here.send(room, Takeback(Takeback.OFFER), ann)
        theirs = await there.get(room.code)
        assert theirs is not None
        await until(
            lambda: offer_text(theirs.session, theirs.terms, "bob") == "ann asks to take back."
        )
        await there.take_seat(theirs, bob)
        await there.send(theirs, Takeback(Takeback.ACCEPT), bob)
        assert moves(there, room.code) == []
        await until(lambda: moves(here, room.code) == [])  # caught up: gone here too
        assert (
            room.session.waiting_for() == "ann"
            and offer_text(room.session, room.terms, "ann") is None
        )
        await here.close()
        await there.close()

    asyncio.run(play())


def test_offers_waiting_and_lines_said_are_found_by_a_process_that_reads_the_room_whole(
    opener: Opener,
) -> None:
    """A room's record keeps no offer and no chat: a process that reads the room whole
    from the store (another process's first look at it, here after everything was
    committed, on PostgreSQL; the server's restart, on SQLite) finds the offers waiting
    and the lines said in the room's last changes."""
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> tuple[str, str]:
        rooms = await started(opener)
        asked = await game(rooms, PILO, ann, bob)
        await two_moves(rooms, asked.code, ann, bob)
        await rooms.say(asked, "one more try?", bob)
        await rooms.send(asked, Takeback(Takeback.OFFER), bob)
        ended = await game(rooms, PILO, ann, bob)
        await two_moves(rooms, ended.code, ann, bob)
        await rooms.send(ended, Resign(), ann)
        await rooms.send(ended, Rematch(Rematch.OFFER), ann)
        await rooms.flush()  # kept before the other process reads them
        await rooms.close()
        return asked.code, ended.code

    asked, ended = asyncio.run(play())

    async def again() -> None:  # another process, or a restart
        rooms = await started(opener)
        room = await rooms.get(asked)
        assert room is not None and moves(rooms, asked) == ["a1", "b1"]
        assert offer_text(room.session, room.terms, "ann") == "bob asks to take back."
        assert list(room.chat.lines) == [ChatLine("bob", "one more try?")]  # said lately
        finished = await rooms.get(ended)
        assert finished is not None and finished.finished
        assert offer_text(finished.session, finished.terms, "bob") == "ann offers a rematch."
        await rooms.send(room, Takeback(Takeback.ACCEPT), ann)  # the answer works too
        assert moves(rooms, asked) == ["a1"] and offer_text(room.session, room.terms, "ann") is None
        await rooms.close()

    asyncio.run(again())


def test_chat_lines_reach_every_screen_of_the_room(opener: Opener) -> None:
    ann, bob, carol = new_holder("ann"), new_holder("bob"), new_holder("carol")

    async def play() -> None:
        rooms = await started(opener)
        room = await game(rooms, PILO, ann, bob)
        await rooms.say(room, "good \x1b[31mluck", ann)
        await rooms.say(room, "[b]watching[/b]", carol)
        assert list(room.chat.lines) == [
            ChatLine("ann", "good luck"),
            ChatLine("carol", "[b]watching[/b]", watcher=True),
        ]
        with pytest.raises(ChatRefused, match="nothing to say"):
            await rooms.say(room, " \x07 ", bob)
        for number in range(BURST - 1):
            await rooms.say(room, f"line {number}", ann)
        with pytest.raises(ChatRefused, match="Too many lines at once"):
            await rooms.say(room, "one more", ann)
        assert len(room.chat.lines) == 2 + BURST - 1
        await rooms.close()

    asyncio.run(play())


def test_a_chat_line_said_in_one_process_is_shown_in_another(database_url: str) -> None:
    opener = postgres_rooms(database_url)
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        here, there = await started(opener), await started(opener)
        room = await game(here, PILO, ann, bob)
        theirs = await there.get(room.code)
        assert theirs is not None
        await here.say(room, "hello from here", ann)
        await until(lambda: list(theirs.chat.lines) == [ChatLine("ann", "hello from here")])
        await here.close()
        await there.close()

    asyncio.run(play())


def test_a_rematch_is_a_new_room_with_the_colours_reversed(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await started(opener)
        room = await game(rooms, Setup("pilo", 6, clock="5m"), ann, bob)
        await two_moves(rooms, room.code, ann, bob)
        await rooms.send(room, Resign(), ann)
        with pytest.raises(RoomError, match="Nobody offers you a rematch"):
            await rooms.rematch(room, ann)
        assert len(rooms.rooms) == 1  # no room made for nothing
        await rooms.send(room, Rematch(Rematch.OFFER), bob)
        new = await rooms.rematch(room, ann)  # accepted by ann
        assert room.terms.rematch == new.code
        assert (new.creator, new.joiner) == ("bob", "ann")
        assert new.session.waiting_for() == "bob" and new.setup.clock == "5m"
        assert new.holders["ann"] == ann.token  # bob's screen takes his seat on entering
        await rooms.take_seat(new, bob)
        await rooms.send(new, Play("a1"), bob)
        assert "agreed already" in await refused(rooms.send(room, Rematch(Rematch.OFFER), bob))
        await rooms.close()

    asyncio.run(play())


def test_open_challenges_are_listed_to_others_until_accepted(opener: Opener) -> None:
    ann, bob, carol = new_holder("ann"), new_holder("bob"), new_holder("carol")

    async def play() -> tuple[str, str]:
        rooms = await started(opener)
        open_room = await rooms.create(Setup("pilo", 6), ann, open=True)
        by_code = await rooms.create(Setup("pilo", 6), ann)
        assert [r.code for r in rooms.challenges("bob")] == [open_room.code]
        assert rooms.challenges("ann") == []  # one's own is one of one's games
        assert open_room not in rooms.to_watch("bob")
        # A room made to be joined by its code is listed to its players only.
        assert rooms.listed("bob") == [open_room]
        assert rooms.listed("ann") == [open_room, by_code]
        await rooms.close()
        return open_room.code, by_code.code

    code, private = asyncio.run(play())

    async def again() -> None:
        rooms = await started(opener)
        room = await rooms.get(code)
        assert room is not None and room.open
        assert [r.code for r in rooms.challenges("carol")] == [code]
        await rooms.join(room, bob)
        assert rooms.challenges("carol") == [] and room in rooms.to_watch("carol")
        # Joined by its code, the private room's game is still nobody else's to see.
        by_code = await rooms.get(private)
        assert by_code is not None and not by_code.open
        await rooms.join(by_code, bob)
        assert rooms.to_watch("carol") == [room] and rooms.listed("carol") == [room]
        assert by_code in rooms.listed("bob") and by_code in rooms.of_player("bob")
        await rooms.close()

    asyncio.run(again())
    del carol


def test_only_players_resign_and_a_refusal_changes_nothing(opener: Opener) -> None:
    ann, bob, carol = new_holder("ann"), new_holder("bob"), new_holder("carol")

    async def play() -> None:
        rooms = await started(opener)
        room = await game(rooms, PILO, ann, bob)
        version = room.version
        with pytest.raises(Refused, match="Only the players"):
            await rooms.send(room, Resign(), carol)
        assert room.version == version and not room.finished
        await rooms.close()

    asyncio.run(play())


def test_rooms_waiting_for_a_player_are_bounded_per_person(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await started(opener)
        later = [0.0]
        rooms.rates = RoomRates(lambda: later[0])  # rooms made a minute: `test_bounds`
        made = [
            await rooms.create(PILO, ann, open=number % 2 == 0) for number in range(WAITING_ROOMS)
        ]
        later[0] += 60
        with pytest.raises(RoomError) as refused_room:
            await rooms.create(PILO, ann)
        assert str(refused_room.value) == (
            f"you have {WAITING_ROOMS} rooms waiting for a player already: abort one of them "
            "(enter it, then abort) before you make another"
        )
        assert len(rooms.unfinished()) == WAITING_ROOMS  # nothing made
        await rooms.create(PILO, bob)  # another person's are their own
        await rooms.send(made[0], Abort(), ann)  # one aborted makes room for one more
        await rooms.create(PILO, ann)
        await rooms.join(made[1], bob)  # and so does one joined
        joined = await rooms.create(PILO, ann)
        with pytest.raises(RoomError, match="waiting for a player already"):
            await rooms.create(PILO, ann)
        # A rematch's room is joined at once: not refused by the rooms still waiting.
        await rooms.join(joined, bob)
        await two_moves(rooms, joined.code, ann, bob)
        await rooms.send(joined, Resign(), ann)
        await rooms.send(joined, Rematch(Rematch.OFFER), bob)
        again = await rooms.rematch(joined, ann)
        assert again.joiner is not None
        await rooms.close()

    asyncio.run(play())


def test_finished_rooms_nobody_shows_are_let_go_of_and_read_again_when_asked(
    opener: Opener,
) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await started(opener)
        ended = await game(rooms, PILO, ann, bob)
        await two_moves(rooms, ended.code, ann, bob)
        await rooms.say(ended, "good game", bob)
        await rooms.send(ended, Resign(), ann)
        shown = await game(rooms, PILO, ann, bob)
        await rooms.send(shown, Abort(), ann)
        shown.chat.listeners.subscribe(lambda line: None)  # as a screen that shows it
        going = await game(rooms, PILO, ann, bob)  # unfinished: kept
        await rooms.flush()
        rooms.sweep()  # seen unshown once: kept until the next look
        assert rooms.known(ended.code) is ended
        rooms.sweep()
        assert rooms.known(ended.code) is None
        assert rooms.known(shown.code) is shown and rooms.known(going.code) is going
        again = await rooms.get(ended.code)  # asked for (a watcher, a rematch): read again
        assert again is not None and again.finished and again is not ended
        assert moves(rooms, ended.code) == ["a1", "b1"]
        assert list(again.chat.lines) == [ChatLine("bob", "good game")]
        await rooms.send(again, Rematch(Rematch.OFFER), bob)  # and it takes commands
        assert offer_text(again.session, again.terms, "ann") == "bob offers a rematch."
        await rooms.close()

    asyncio.run(play())
