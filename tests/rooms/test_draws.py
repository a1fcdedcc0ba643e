"""Draws agreed in a room: which games can end equal, an offer that stands until the other
player moves, offers that meet, the words said and folded, and a drawn room kept, rated
as a draw and read again whole by another process (SQLite's restart, a second PostgreSQL
process) with its offers."""

from __future__ import annotations

import asyncio

import pytest

from abstracts_tui.commands import ChooseSide, Command, Draw, Play, decode, encode
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.draws import NO_DRAW, can_end_equal, draw_offer
from abstracts_tui.rooms.events import Ended, OfferDeclined, OfferMade
from abstracts_tui.rooms.fold import fold
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.play import check, offer_text
from abstracts_tui.rooms.rows import game_line
from abstracts_tui.rooms.told import missed, told
from abstracts_tui.rules import RulesError, new_game
from abstracts_tui.session import Phase, Session
from tests.rooms.test_gateway import Opener, game, opener, refused, started
from tests.tui.room_events import LocalRoom

__all__ = ["opener"]  # the fixture, used by name

LINAGE = Setup("linage", 5, komi=0, first="ann", second="bob")


@pytest.mark.parametrize(
    ("name", "size", "variant", "komi", "equal"),
    [
        ("linage", 5, None, 0, True),
        ("linage", 5, None, -2, True),
        ("linage", 5, None, 6.5, False),
        ("egotzi", 6, "squared", 0, True),
        ("egotzi", 8, "squared", 4, True),
        ("egotzi", 7, "squared", 0, False),
        ("egotzi", 6, "standard", None, False),
        ("pilo", 8, None, None, False),
        ("petrify", 8, None, None, False),
        ("partitions", 6, None, None, False),
    ],
)
def test_only_games_whose_scores_can_tie_have_draws(
    name: str, size: int, variant: str | None, komi: float | None, equal: bool
) -> None:
    assert can_end_equal(new_game(name, size, variant, komi)) is equal


def begun(setup: Setup = LINAGE) -> tuple[Session, LocalRoom, list[object]]:
    session = Session.start(setup)
    room = LocalRoom(session)
    heard: list[object] = []
    room.listen(lambda stamped: heard.extend(stamped))
    if session.phase is Phase.SIDE:
        room.send(ChooseSide(1), "bob")  # ann moves first
    return session, room, heard


def move(session: Session, room: LocalRoom) -> None:
    game_now = session.game
    mover = session.waiting_for()
    assert mover is not None
    room.send(Play(game_now.move_name(game_now.legal_moves()[0])), mover)


def test_an_offer_made_before_ones_move_stands_through_it_until_the_other_moves() -> None:
    session, room, _ = begun()
    room.send(Draw(Draw.OFFER), "ann")  # on her own turn
    move(session, room)  # her move: the offer stands
    assert offer_text(session, room.terms, "bob") == "ann offers a draw."
    move(session, room)  # bob moves instead of answering: declined by playing on
    assert draw_offer(session, room.terms) is None
    assert check(session, room.terms, Draw(Draw.ACCEPT), "bob") == "Nobody offers you a draw now."


def test_an_offer_made_on_the_others_turn_is_accepted_or_void_once_they_move() -> None:
    session, room, heard = begun()
    move(session, room)
    room.send(Draw(Draw.OFFER), "ann")  # on bob's turn
    with pytest.raises(RulesError, match="offered a draw already"):
        room.send(Draw(Draw.OFFER), "ann")
    with pytest.raises(RulesError, match="Nobody offers you a draw"):
        room.send(Draw(Draw.ACCEPT), "ann")
    room.send(Draw(Draw.ACCEPT), "bob")
    assert session.over and session.record.result == "draw"
    assert session.turn_text() == "Draw agreed"
    ended = [event.event for event in heard if isinstance(event.event, Ended)]  # type: ignore[attr-defined]
    assert [(e.how, e.winner, e.by) for e in ended] == [(Ended.AGREED, None, "bob")]
    with pytest.raises(RulesError, match=r"The game is over: Draw agreed\."):
        room.send(Draw(Draw.OFFER), "ann")


def test_two_offers_meeting_end_the_game_drawn() -> None:
    session, room, _ = begun()
    room.send(Draw(Draw.OFFER), "bob")
    room.send(Draw(Draw.OFFER), "ann")  # the other's offer stands: the game ends
    assert session.over and session.record.result == "draw"


def test_a_draw_is_refused_in_one_sentence_where_the_game_cannot_end_equal() -> None:
    session, room, _ = begun(Setup("pilo", 8, first="ann", second="bob"))
    move(session, room)
    assert check(session, room.terms, Draw(Draw.OFFER), "bob") == NO_DRAW
    assert check(session, room.terms, Draw(Draw.OFFER), "carl") == (
        "Only the players can do that; watchers can chat."
    )


def test_a_draw_is_said_to_each_person_and_folded() -> None:
    session, room, heard = begun()
    room.send(Draw(Draw.OFFER), "ann")
    room.send(Draw(Draw.DECLINE), "bob")
    room.send(Draw(Draw.OFFER), "bob")
    room.send(Draw(Draw.ACCEPT), "ann")
    events = [stamped.event for stamped in heard]  # type: ignore[attr-defined]
    offered = next(e for e in events if isinstance(e, OfferMade))
    declined = next(e for e in events if isinstance(e, OfferDeclined))
    people = session.people
    assert told(offered, "bob", people) == ["ann offers a draw: type draw to accept, or decline."]
    assert told(offered, "ann", people) == ["Draw offered: waiting for bob's answer."]
    assert told(offered, "carl", people) == ["ann offers a draw."]
    assert told(declined, "ann", people) == ["bob declined the draw: play on."]
    assert told(events[-1], "carl", people) == ["The game is over: Draw agreed."]
    assert "a draw was agreed" in (missed(heard, "carl") or "")  # type: ignore[arg-type]
    state = fold(heard)  # type: ignore[arg-type]
    assert state.ended is not None and state.ended.how == Ended.AGREED and state.offers == ()


def test_a_draw_command_is_stored_and_read_back() -> None:
    for answer in (Draw.OFFER, Draw.ACCEPT, Draw.DECLINE):
        command: Command = Draw(answer)
        assert decode(*encode(command)) == command


def test_a_drawn_room_is_kept_rated_as_a_draw_and_read_again_with_its_offers(
    opener: Opener,
) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")
    setup = Setup("linage", 5, komi=0)

    async def play() -> tuple[str, str]:
        rooms = await started(opener)
        rooms.rated = True
        drawn = await game(rooms, setup, ann, bob)
        await rooms.send(drawn, ChooseSide(1), bob)
        assert "Nobody offers you a draw" in await refused(
            rooms.send(drawn, Draw(Draw.ACCEPT), bob)
        )
        await rooms.send(drawn, Draw(Draw.OFFER), ann)
        await rooms.send(drawn, Draw(Draw.ACCEPT), bob)
        assert drawn.finished and drawn.session.record.result == "draw"
        offered = await game(rooms, setup, ann, bob)
        await rooms.send(offered, ChooseSide(1), bob)
        await rooms.send(offered, Draw(Draw.OFFER), ann)
        game_now = offered.session.game
        await rooms.send(offered, Play(game_now.move_name(game_now.legal_moves()[0])), ann)
        await rooms.flush()
        await rooms.close()
        return drawn.code, offered.code

    drawn, offered = asyncio.run(play())

    async def again() -> None:  # a restart (SQLite), or another process (PostgreSQL)
        rooms = await started(opener)
        store = rooms.live.store  # type: ignore[attr-defined]
        stored = await asyncio.to_thread(store.room, drawn)
        assert stored is not None and stored.finished is not None
        assert (stored.result, stored.winner) == ("draw", None)
        assert "\tdraw\trated\t" in game_line(stored)
        ratings = await asyncio.to_thread(store.ratings, "linage")
        assert {r.name: r.games for r in ratings} == {"ann": 1, "bob": 1}
        first, second = sorted(ratings, key=lambda r: r.name)
        assert first.rating.value == pytest.approx(second.rating.value) == 1500  # a draw: 0.5 each
        room = await rooms.get(drawn)
        assert room is not None and room.session.over
        assert room.session.turn_text() == "Draw agreed"
        waiting = await rooms.get(offered)
        assert waiting is not None and draw_offer(waiting.session, waiting.terms) is not None
        await rooms.take_seat(waiting, bob)
        await rooms.send(waiting, Draw(Draw.ACCEPT), bob)  # the answer works there too
        assert waiting.session.record.result == "draw"
        await rooms.close()

    asyncio.run(again())
