"""The games' catalogue: each game's name, title, summary, sizes and options, and the
checks of options and komi, without the rules themselves.

The selection screen and the settings list the games from here, so that the app's first
screen comes up without importing the five games' rules; each game's class takes its
`info` from this catalogue, which is the one place a game's options are written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .errors import OptionError, shown


def format_number(value: float) -> str:
    """`6` for 6.0, `-2.5` for -2.5: how scores and komi are written everywhere."""
    return str(int(value)) if value == int(value) else str(value)


@dataclass(frozen=True)
class GameInfo:
    """What a game is and which options it takes (one entry of the registry)."""

    name: str
    title: str
    summary: str
    colours: tuple[str, str]
    """Colour names, lower case, the first mover's colour first."""
    sizes: range
    default_size: int
    geometry: str
    """`square`, `points` or `hex`: which board widget draws it."""
    variants: tuple[str, ...] = ()
    """Variant names, the default first; empty when the game has none."""
    komi_variants: tuple[str, ...] = ()
    """Variants that use komi (`""` stands for a game without variants)."""
    komi_step: float = 0.0
    """Komi must be a multiple of this (2 for even integers, 0.5 for half points)."""
    default_komi: float = 0.0
    pie_variants: tuple[str, ...] = ()
    """Variants played with the pie rule (`""` for a game without variants)."""
    captures: bool = False
    """Whether moves may be captures written `from-to`."""

    def takes_komi(self, variant: str) -> bool:
        return variant in self.komi_variants

    def has_pie_rule(self, variant: str) -> bool:
        return variant in self.pie_variants

    def option_names(self) -> list[str]:
        """The options `newgame` accepts for this game."""
        names = ["size"]
        if self.variants:
            names.append("variant")
        if self.komi_variants:
            names.append("komi")
        return names

    def options(
        self, size: int | None = None, variant: str | None = None, komi: float | None = None
    ) -> Options:
        """Validated options; raises `OptionError` saying what is allowed."""
        if size is None:
            size = self.default_size
        if size not in self.sizes:
            raise OptionError(
                f"{self.title} is played on sizes {self.sizes.start} to {self.sizes.stop - 1}, "
                f"not {size}"
            )
        if variant is None:
            variant = self.variants[0] if self.variants else ""
        elif variant not in self.variants:
            if not self.variants:
                raise OptionError(f"{self.title} has no variants")
            raise OptionError(
                f"{self.title} has the variants {', '.join(self.variants)}, not '{shown(variant)}'"
            )
        if komi is None:
            komi = self.default_komi if self.takes_komi(variant) else 0.0
        elif not self.takes_komi(variant):
            where = f"{self.title} {variant}" if variant else self.title
            raise OptionError(f"{where} is played without komi")
        else:
            komi = parse_komi(komi, self.komi_step)
        return Options(size, variant, komi)


_INT = re.compile(r"[+-]?[0-9]{1,30}")
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?")


def read_int(text: str) -> int | None:
    """`text` as a whole number in ASCII digits (a sign allowed), else None.

    `int()` alone takes other scripts' digits (`٣`), `1_000` and thousands of digits, and
    `str.isdigit()` lets through `²`, which `int()` then refuses.
    """
    return int(text) if _INT.fullmatch(text) else None


def read_float(text: str) -> float | None:
    """`text` as a decimal number in ASCII digits (`-2.5`, `6`, `1e2`), else None: not
    `inf`, `nan`, `1_0` or other scripts' digits, which `float()` alone takes."""
    return float(text) if _FLOAT.fullmatch(text) else None


def parse_komi(value: float | str, step: float) -> float:
    """Komi as a float; raises `OptionError` unless it is a finite multiple of `step`."""
    what = "an even whole number" if step == 2 else "a whole or half number"
    komi = read_float(value) if isinstance(value, str) else float(value)
    if komi is None:
        raise OptionError(f"komi must be {what}, not '{shown(str(value))}'")
    if not math.isfinite(komi) or komi % step != 0:
        raise OptionError(f"komi must be {what}, not {value}")
    if abs(komi) > 1000:
        raise OptionError(f"komi must lie between -1000 and 1000, not {value}")
    return komi + 0.0  # no negative zero


@dataclass(frozen=True)
class Options:
    """A game's options once validated."""

    size: int
    variant: str = ""
    komi: float = 0.0

    def token(self, info: GameInfo) -> str:
        """The options field of a position string, e.g. `size=7,variant=squared,komi=4`."""
        parts = [f"size={self.size}"]
        if info.variants:
            parts.append(f"variant={self.variant}")
        if info.takes_komi(self.variant):
            parts.append(f"komi={format_number(self.komi)}")
        return ",".join(parts)


PETRIFY = GameInfo(
    name="petrify",
    title="Petrify",
    summary="Captures leave blocks; own areas",
    colours=("blue", "orange"),
    sizes=range(6, 11),
    default_size=8,
    geometry="square",
    pie_variants=("",),
    captures=True,
)

PILO = GameInfo(
    name="pilo",
    title="Pilo",
    summary="Equal stacks capture and grow",
    colours=("blue", "orange"),
    sizes=range(6, 11),
    default_size=8,
    geometry="square",
    pie_variants=("",),
    captures=True,
)

EGOTZI = GameInfo(
    name="egotzi",
    title="Egotzi",
    summary="Each stone pushes its neighbours",
    colours=("black", "white"),
    sizes=range(5, 10),
    default_size=7,
    geometry="square",
    variants=("standard", "squared"),
    komi_variants=("squared",),
    komi_step=2,
    pie_variants=("standard",),
)

LINAGE = GameInfo(
    name="linage",
    title="Linage",
    summary="Neutral stones wall off territory",
    colours=("vertical", "horizontal"),
    sizes=range(5, 20),
    default_size=11,
    geometry="points",
    komi_variants=("",),
    komi_step=0.5,
)

PARTITIONS = GameInfo(
    name="partitions",
    title="Partitions",
    summary="Fragments score for the opponent",
    colours=("white", "black"),
    sizes=range(5, 11),
    default_size=6,
    geometry="hex",
)

CATALOGUE: dict[str, GameInfo] = {
    info.name: info for info in (PETRIFY, PILO, EGOTZI, LINAGE, PARTITIONS)
}
"""Every game's info by its name, in the order the games are listed (that of `GAMES`)."""


def find_game(word: str) -> GameInfo | None:
    """The game `word` names (its name, or the start of its title), if exactly one."""
    word = word.lower()
    found = [info for info in CATALOGUE.values() if info.name == word]
    found = found or [info for info in CATALOGUE.values() if info.title.lower().startswith(word)]
    return found[0] if len(found) == 1 else None
