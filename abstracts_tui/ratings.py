"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013).

A rating is a value, a deviation (how unsure it is) and a volatility (how much it
moves). A player's rating is updated from the games of one rating period; the server
treats each rated game as a period of its own, updated when the game ends, which is what
online servers that use Glicko-2 commonly do. A rating whose deviation is above
PROVISIONAL_DEVIATION is shown as provisional (`1500?`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

SCALE = 173.7178
"""Glicko-2's conversion between the Glicko scale (1500-based) and its own."""
TAU = 0.5
"""The system constant that limits how fast volatility changes (Glickman: 0.3 to 1.2)."""
CONVERGENCE = 1e-6
PROVISIONAL_DEVIATION = 110.0
"""Ratings less sure than this are shown as provisional."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the usual scale: 1500 +- 350 for a new player."""

    value: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    def text(self) -> str:
        """`1632`, or `1500?` while provisional."""
        return f"{round(self.value)}{'?' if self.provisional else ''}"


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in one game, and how many rated games it comes from."""

    name: str
    game: str
    rating: Rating
    games: int


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """`player`'s rating after one period of `games`: (opponent, score) with score 1 for
    a win, 0.5 for a draw, 0 for a loss. With no games only the deviation grows."""
    mu = (player.value - 1500) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    results = [((o.value - 1500) / SCALE, o.deviation / SCALE, s) for o, s in games]
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.value, min(350.0, phi_star * SCALE), sigma)
    v_inverse = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, score in results:
        expected = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * expected * (1 - expected)
        delta_sum += g * (score - expected)
    v = 1 / v_inverse
    delta = v * delta_sum
    sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu = mu + phi * phi * delta_sum
    return Rating(mu * SCALE + 1500, phi * SCALE, sigma)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def after_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (`first_score`: 1, 0.5 or 0)."""
    return update(first, [(second, first_score)]), update(second, [(first, 1 - first_score)])


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating in one game just after one rated game of it (the history of a
    rating, one point a game)."""

    game: str
    code: str
    """The room the game was played in."""
    at: datetime
    """When that game finished."""
    rating: Rating
    """The rating after it (its value and deviation)."""


@dataclass(frozen=True)
class Tally:
    """A player's finished games with somebody else (not those called off)."""

    played: int = 0
    won: int = 0
    lost: int = 0

    @property
    def drawn(self) -> int:
        return self.played - self.won - self.lost
