"""A draw claimed instead of a win from a player who left a game that can end equal
(`claim draw`): the rule, the end it makes (`draw`, rated as a draw), the words every
screen says, the stored change (an earlier version's claim still reads as a win) and
the play model's step and key."""

from __future__ import annotations

import pytest

from abstracts_tui.commands import Claim, CommandError, decode, encode
from abstracts_tui.game_setup import Setup
from abstracts_tui.play.offers import Act, RoomOffers
from abstracts_tui.rooms import claims
from abstracts_tui.rooms.apply import apply
from abstracts_tui.rooms.derive import events_of
from abstracts_tui.rooms.events import Ended, Stamped
from abstracts_tui.rooms.play import check, done_text
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.rooms.told import missed, told
from abstracts_tui.session import Session

LINAGE = Setup("linage", 5, komi=0, first="ann", second="bob")
"""A game that can end equal (a whole-number komi)."""
PILO = Setup("pilo", 6, first="ann", second="bob")
"""A game that cannot."""


def played(setup: Setup, moves: int = 2) -> Session:
    session = Session.start(setup)
    if session.chooser is not None and session.phase.name == "SIDE":
        session.choose_side(1)
    for _ in range(moves):
        game = session.game
        session.play(game.move_name(game.legal_moves()[0]))
    return session


def test_a_draw_is_claimed_only_where_the_game_can_end_equal() -> None:
    terms = RoomTerms()
    assert check(played(LINAGE), terms, Claim(draw=True), "ann") is None
    assert check(played(PILO), terms, Claim(draw=True), "ann") == (
        "This game cannot end equal, so there is no draw to claim."
    )
    assert check(played(PILO), terms, Claim(), "ann") is None  # the win still is
    assert check(played(LINAGE, 1), terms, Claim(draw=True), "ann") == (
        "Each side has not moved yet: abort the game instead (no result, unrated)."
    )
    assert check(played(LINAGE), terms, Claim(draw=True), "carl") == (
        "Only the players can do that; watchers can chat."
    )


def test_a_draw_claimed_ends_the_game_drawn_said_on_every_screen() -> None:
    before, after = played(LINAGE), played(LINAGE)
    apply(after, RoomTerms(), Claim(draw=True), "ann", 1000.0)
    assert after.over and after.record.result == "draw"
    (ended,) = events_of(Claim(draw=True), "ann", before, after)
    assert ended == Ended(
        Ended.CLAIMED,
        None,
        "bob",
        "The game is over: bob left the game: ann claims a draw.",
        by="ann",
    )
    assert told(ended, "carl", after.people) == [
        "The game is over: bob left the game: ann claims a draw."
    ]
    assert done_text(after, Claim(draw=True), "ann") == (
        "Game over: bob left the game: ann claims a draw."
    )
    stamped = [Stamped(8, 1000.0, ended)]
    assert missed(stamped, "bob") == "While you were away: you left the game: ann claims a draw."
    assert missed(stamped, "carl") == "While you were away: bob left the game: ann claims a draw."


def test_a_claim_is_stored_with_what_it_claims_and_an_earlier_claim_reads_as_a_win() -> None:
    assert encode(Claim(draw=True)) == ("claim", "draw")
    assert encode(Claim()) == ("claim", "")
    assert decode("claim", "draw") == Claim(draw=True)
    assert decode("claim", "") == Claim()
    with pytest.raises(CommandError, match="is not a win or a draw"):
        decode("claim", "half")


def test_the_play_model_offers_the_draw_claim_only_where_the_game_can_end_equal() -> None:
    offers = RoomOffers(played(LINAGE), RoomTerms(), "ann", rated=True)
    assert offers.may_claim(frozenset({"ann"}), draw=True)
    assert not offers.may_claim(frozenset({"ann", "bob"}), draw=True)
    step = offers.claim_draw()
    assert (step.act, step.command, step.text) == (
        Act.SEND,
        Claim(draw=True),
        "Sent: draw claim, waiting for the server.",
    )
    pilo = RoomOffers(played(PILO), RoomTerms(), "ann", rated=True)
    assert pilo.may_claim(frozenset({"ann"}))
    assert not pilo.may_claim(frozenset({"ann"}), draw=True)
    assert pilo.claim_draw().text == claims.NO_DRAW
