"""Claiming a game from a player who left it (`rooms.claims`): the rule every copy of the
game checks, how long the other player must have been gone, the end it makes (a win by
forfeit, `B+F` in the record), what the screens say of it, and when the play model
offers it."""

from __future__ import annotations

from abstracts_tui.commands import Claim
from abstracts_tui.game_setup import Setup
from abstracts_tui.play.offers import Act, RoomOffers
from abstracts_tui.records.results import FORFEITED, How, decided, read, written
from abstracts_tui.rooms import claims
from abstracts_tui.rooms.apply import apply
from abstracts_tui.rooms.derive import events_of
from abstracts_tui.rooms.events import Arrived, Back, Ended, Left, Stamped
from abstracts_tui.rooms.play import check
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.rooms.told import missed
from abstracts_tui.session import Session

PILO = Setup("pilo", 6, first="ann", second="bob")


def played(*moves: str, clock: str | None = None) -> Session:
    session = Session.start(Setup("pilo", 6, first="ann", second="bob", clock=clock))
    for move in moves:
        session.play(move)
    return session


def test_a_game_is_claimed_once_each_side_has_moved_and_on_the_others_turn_under_a_clock() -> None:
    terms = RoomTerms()
    assert check(played("c3"), terms, Claim(), "ann") == (
        "Each side has not moved yet: abort the game instead (no result, unrated)."
    )
    assert check(played("c3", "d3"), terms, Claim(), "carl") == (
        "Only the players can do that; watchers can chat."
    )
    assert check(played("c3", "d3"), terms, Claim(), "ann") is None  # no clock: any turn
    assert check(played("c3", "d3"), terms, Claim(), "bob") is None
    timed = played("c3", "d3", clock="5m+3s")  # ann to move: her clock runs, not bob's
    assert check(timed, terms, Claim(), "ann") == (
        "It is your move: a game is claimed from bob on their turn."
    )
    assert check(timed, terms, Claim(), "bob") is None


def test_how_long_the_other_has_been_gone_comes_from_the_rooms_events() -> None:
    events = [
        Stamped(3, 100.0, Arrived("bob")),
        Stamped(4, 200.0, Left("bob")),
        Stamped(5, 250.0, Back("bob")),
        Stamped(6, 300.0, Left("bob")),
        Stamped(7, 310.0, Left("ann")),
    ]
    assert claims.gone_since(events, "bob") == 300.0
    assert claims.gone_since(events[:3], "bob") is None  # back
    session = played("c3", "d3")
    assert claims.presence_refusal(session, "ann", frozenset({"bob"}), None, 400.0) == (
        "There is nothing to claim: bob is in the room."
    )
    assert claims.presence_refusal(session, "ann", frozenset(), 300.0, 330.0) == (
        "Not yet: bob left 30s ago, and the game may be claimed once they have been gone "
        "for 1m (in 30s)."
    )
    assert claims.presence_refusal(session, "ann", frozenset(), 300.0, 360.0) is None
    days = played("c3", "d3", clock="3d")  # a day in a game of days per move
    assert claims.claim_seconds(days) == claims.CORRESPONDENCE_CLAIM_SECONDS == 86_400.0
    assert claims.presence_refusal(days, "bob", frozenset(), 0.0, 3600.0) is not None
    assert claims.presence_refusal(days, "bob", frozenset(), 0.0, 86_400.0) is None


def test_a_claim_ends_the_game_as_a_win_by_forfeit_said_on_every_screen() -> None:
    before = played("c3", "d3")
    after = played("c3", "d3")
    terms = RoomTerms()
    apply(after, terms, Claim(), "ann", 1000.0)
    assert after.over and after.record.result == f"blue+{FORFEITED}"
    assert after.turn_text() == "Orange (bob) left the game: Blue (ann) wins"
    assert after.ended_text() == "bob left the game"
    (ended,) = events_of(Claim(), "ann", before, after)
    assert ended == Ended(
        Ended.CLAIMED,
        "ann",
        "bob",
        "The game is over: Orange (bob) left the game: Blue (ann) wins.",
        by="ann",
    )
    assert missed([Stamped(8, 1000.0, ended)], "bob") == (
        "While you were away: you left the game: ann wins."
    )
    colours = ("blue", "orange")
    assert decided("orange+F", colours) is not None
    assert decided("orange+F", colours).how is How.FORFEIT  # type: ignore[union-attr]
    assert written("orange+F", colours, False) == "W+F"
    assert read("B+F", colours, False) == read("B+Forfeit", colours, False) == "blue+F"


def test_the_play_model_offers_a_claim_only_while_the_other_player_is_away() -> None:
    session = played("c3", "d3")
    offers = RoomOffers(session, RoomTerms(), "ann", rated=True)
    assert not offers.may_claim(frozenset({"ann", "bob"}))
    assert offers.may_claim(frozenset({"ann"}))
    step = offers.claim()
    assert (step.act, step.command, step.text) == (
        Act.SEND,
        Claim(),
        "Sent: claim, waiting for the server.",
    )
    watcher = RoomOffers(session, RoomTerms(), "carl", rated=True)
    assert not watcher.may_claim(frozenset())
    early = RoomOffers(played("c3"), RoomTerms(), "ann", rated=True)
    assert not early.may_claim(frozenset({"ann"}))
    assert early.claim().act is Act.REFUSE
