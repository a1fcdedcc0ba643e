"""Glicko-2 against Glickman's worked example, and the properties a player expects."""

from __future__ import annotations

import pytest

from abstracts_tui.ratings import Rating, after_game, update


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (2013): 1500/200/0.06 beats 1400/30, loses to
    # 1550/100 and 1700/300, with tau 0.5 -> 1464.06, 151.52, 0.05999.
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = update(player, games, tau=0.5)
    assert new.value == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_and_a_loss_lowers_by_the_same_between_equals() -> None:
    winner, loser = after_game(Rating(), Rating(), 1.0)
    assert winner.value > 1500 > loser.value
    assert winner.value - 1500 == pytest.approx(1500 - loser.value)
    assert winner.deviation < 350 and loser.deviation < 350


def test_a_draw_between_equals_moves_neither() -> None:
    first, second = after_game(Rating(1600, 80), Rating(1600, 80), 0.5)
    assert first.value == pytest.approx(1600) and second.value == pytest.approx(1600)


def test_beating_a_stronger_player_gains_more() -> None:
    upset, _ = after_game(Rating(1500, 100), Rating(1800, 100), 1.0)
    expected, _ = after_game(Rating(1500, 100), Rating(1200, 100), 1.0)
    assert upset.value - 1500 > expected.value - 1500 > 0


def test_new_players_are_provisional_until_their_deviation_falls() -> None:
    rating = Rating()
    assert rating.provisional and rating.text() == "1500?"
    for _ in range(30):
        rating, _ = after_game(rating, Rating(1500, 60), 0.5)
    assert not rating.provisional
    assert rating.text() == "1500"


def test_a_period_without_games_makes_a_rating_less_sure() -> None:
    assert update(Rating(1700, 50, 0.06), []).deviation > 50
