"""Replies kept ready in days-per-move rooms (conditional moves): kept after checks, secret
until played, played at once as the player's move when the other plays the move named,
cleared by any other move, a take-back or the game's end; refused in one sentence (no
days per move, not legal, too many, on one's own turn). On both live stores: SQLite, and
a real PostgreSQL where the process that commits the other's move plays the reply."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from abstracts_tui.commands import ChooseSide, Play, Resign, decode, encode
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.conditional import REPLIES_KEPT, Reply, added, checked
from abstracts_tui.rooms.events import MovePlayed
from abstracts_tui.rooms.holder import Holder, new_holder
from abstracts_tui.rooms.live import Refused
from abstracts_tui.rooms.room import Room
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.rules import RulesError
from abstracts_tui.session import Session
from abstracts_tui.store.conditional import StoredReplies
from tests.rooms.test_gateway import Opener, game, opener, started, until

__all__ = ["opener"]  # the fixture, used by name

DAYS = Setup("linage", 5, komi=0, clock="3d")


def begun_session(clock: str | None = "3d") -> Session:
    session = Session.start(Setup("linage", 5, komi=0, first="ann", second="bob", clock=clock))
    session.choose_side(1)  # ann moves first
    return session


def test_a_reply_is_checked_when_kept() -> None:
    session = begun_session()
    session.play("a1")  # ann's: bob to move
    kept = checked(session, "ann", "B2", "c3")
    assert (kept.named, kept.reply, kept.moves) == ("b2", "c3", session.move_number())
    with pytest.raises(RulesError, match="It is your move"):
        checked(session, "bob", "b2", "c3")
    with pytest.raises(RulesError, match="a1 is not a move bob can play now"):
        checked(session, "ann", "a1", "c3")
    with pytest.raises(RulesError, match="c3 cannot answer c3"):
        checked(session, "ann", "c3", "c3")
    with pytest.raises(RulesError, match="Only the players"):
        checked(session, "carl", "b2", "c3")


def test_replies_are_only_for_days_per_move_and_bounded() -> None:
    for clock in (None, "10m+5s"):
        session = begun_session(clock)
        session.play("a1")
        with pytest.raises(RulesError, match="only in games of days per move"):
            checked(session, "ann", "b2", "c3")
    replies = [Reply(f"m{i}", "x") for i in range(REPLIES_KEPT)]
    assert added(replies, Reply("m3", "y"))[-1] == Reply("m3", "y")  # the same move: replaced
    with pytest.raises(Refused, match=f"You keep {REPLIES_KEPT} replies ready already"):
        added(replies, Reply("other", "y"))


def test_a_reply_played_is_a_move_kept_in_the_store_as_such() -> None:
    assert decode(*encode(Play("e5", kept=True))) == Play("e5", kept=True)
    assert encode(Play("e5")) == ("move", "e5")


async def refused(asking: Awaitable[object]) -> str:
    with pytest.raises(Refused) as caught:
        await asking
    return str(caught.value)


async def _started(opener: Opener) -> Rooms:
    rooms = await started(opener)
    rooms.conditions.replies = StoredReplies(rooms.live.store)  # type: ignore[attr-defined]
    return rooms


async def _days_game(rooms: Rooms, ann: Holder, bob: Holder) -> Room:
    room = await game(rooms, DAYS, ann, bob)
    await rooms.send(room, ChooseSide(1), bob)  # ann moves first
    await rooms.send(room, Play("a1"), ann)  # bob to move
    return room


def _moves(room: Room) -> list[str]:
    return [node.move or "" for node in room.session.record.root.mainline()][1:]


def test_a_reply_is_played_for_the_move_named_and_the_others_cleared(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await _started(opener)
        conditions = rooms.conditions
        room = await _days_game(rooms, ann, bob)
        said = await conditions.answer(room, "ann", ("if", "b2", "then", "c3"))
        assert said == ("Kept: if bob plays b2, c3 is played.",)
        await conditions.answer(room, "ann", ("if", "d4", "then", "e5"))
        assert await conditions.answer(room, "ann", ("ifs",)) == (
            "Replies kept ready (2, secret from bob):",
            "  if b2 then c3",
            "  if d4 then e5",
        )
        assert not any("b2" in str(stamped.event) for stamped in room.events)  # secret
        version = room.version
        await rooms.send(room, Play("b2"), bob)
        assert _moves(room)[-2:] == ["b2", "c3"]
        assert room.session.waiting_for() == "bob"
        played = [s.event for s in room.events if s.version > version]
        reply = [e for e in played if isinstance(e, MovePlayed) and e.by == "ann"]
        assert reply and reply[0].words.startswith("ann's move, kept ready: c3.")
        # Taken when played: d4's reply is gone with it.
        assert await conditions.answer(room, "ann", ("ifs",)) == (
            "No reply is kept ready. "
            "Type: if MOVE then REPLY (your reply ready for their MOVE), ifs, or if clear.",
        )
        # Another move of the other's clears them, without a reply.
        await conditions.answer(room, "ann", ("if", "e1", "then", "e2"))
        await rooms.send(room, Play("d1"), bob)  # not e1: ann's reply is not played
        assert room.session.waiting_for() == "ann" and _moves(room)[-1] == "d1"
        assert (await conditions.answer(room, "ann", ("ifs",)))[0].startswith("No reply")
        # Refused in one sentence each, nothing kept.
        assert "It is your move" in await refused(
            conditions.answer(room, "ann", ("if", "b5", "then", "c5"))
        )
        await rooms.send(room, Play("a2"), ann)
        assert "not a move bob can play now" in await refused(
            conditions.answer(room, "ann", ("if", "a1", "then", "c5"))
        )
        assert "Type: if MOVE then REPLY" in await refused(
            conditions.answer(room, "ann", ("if", "b5", "c5"))
        )
        # `if clear` forgets them; the game's end does too.
        await conditions.answer(room, "ann", ("if", "b5", "then", "c5"))
        assert await conditions.answer(room, "ann", ("if", "clear")) == (
            "No reply is kept ready now.",
        )
        await conditions.answer(room, "ann", ("if", "b5", "then", "c5"))
        await rooms.send(room, Resign(), bob)
        assert room.finished
        replies = rooms.conditions.replies
        assert replies is not None and await replies.kept(room.code, "ann") == []
        await rooms.close()

    asyncio.run(play())


def test_no_reply_is_kept_where_the_clock_is_not_days_per_move(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await _started(opener)
        room = await game(rooms, Setup("linage", 5, komi=0, clock="10m"), ann, bob)
        await rooms.send(room, ChooseSide(1), bob)
        await rooms.send(room, Play("a1"), ann)
        assert "only in games of days per move" in await refused(
            rooms.conditions.answer(room, "ann", ("if", "b2", "then", "c3"))
        )
        await rooms.close()

    asyncio.run(play())


def test_the_process_that_commits_the_move_plays_the_reply(database_url: str) -> None:
    """Two server processes of one PostgreSQL: ann keeps her reply through one, bob moves
    through the other, which plays it; the first sees both moves."""
    from tests.rooms.test_gateway import postgres_rooms

    opener = postgres_rooms(database_url)
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        first = await _started(opener)
        second = await _started(opener)
        room = await _days_game(first, ann, bob)
        await first.conditions.answer(room, "ann", ("if", "b2", "then", "c3"))
        there = await second.get(room.code)
        assert there is not None
        await until(lambda: there.version == room.version)
        await second.take_seat(there, bob)
        await second.send(there, Play("b2"), bob)
        assert _moves(there)[-2:] == ["b2", "c3"]
        await until(lambda: _moves(room)[-2:] == ["b2", "c3"])
        assert room.session.waiting_for() == "bob"
        listed = await first.conditions.answer(room, "ann", ("ifs",))
        assert listed[0].startswith("No reply")  # taken by the process that played it
        await first.close()
        await second.close()

    asyncio.run(play())


def test_nobody_sends_a_move_said_kept_ready_but_the_server(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await _started(opener)
        room = await _days_game(rooms, ann, bob)
        assert "played by the server only" in await refused(
            rooms.send(room, Play("b2", kept=True), bob)
        )
        assert room.session.waiting_for() == "bob"
        await rooms.close()

    asyncio.run(play())


def test_a_reply_kept_in_an_earlier_position_is_void(opener: Opener) -> None:
    """One kept while the other's move was on its way from another process (its position
    gone by then) is never played."""
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await _started(opener)
        room = await _days_game(rooms, ann, bob)
        replies = rooms.conditions.replies
        assert replies is not None
        earlier = room.session.move_number() - 2
        await replies.keep(room.code, "ann", [Reply("b2", "c3", earlier)])
        assert (await rooms.conditions.answer(room, "ann", ("ifs",)))[0].startswith("No reply")
        await rooms.send(room, Play("b2"), bob)
        assert _moves(room)[-1] == "b2" and room.session.waiting_for() == "ann"
        await rooms.close()

    asyncio.run(play())
