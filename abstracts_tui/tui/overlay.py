"""The score shown on the board: which cells each side owns, and what does not count.

`overlay_for(game)` reads the game's score breakdown and gives each cell at most one mark
for `BoardView.show(overlay=...)`:

- `own0` / `own1`: territory of the first / second colour (Petrify and Pilo patches,
  Linage regions);
- `cancelled`: a piece of a group that cancelled against an equal enemy group (Petrify,
  Pilo, Egotzi standard);
- `fragment`: a piece of a Partitions fragment group (these score for the opponent);
- `free`: a point of a Linage region that both sides can still play in.

A cancelled piece inside an owned patch is marked `cancelled`: it is the more specific
fact. Pure: no Textual here.
"""

from __future__ import annotations

from ..rules import Game, Score
from ..rules.egotzi import EgotziScore
from ..rules.linage import LinageScore
from ..rules.pairs import Group
from ..rules.partitions import PartitionsScore
from ..rules.squares import PatchScore

OWN = ("own0", "own1")


def overlay_for(game: Game) -> dict[int, str]:
    """Cell -> mark for the score of `game` as it stands (see the module docstring)."""
    return score_marks(game.score())


def score_marks(score: Score) -> dict[int, str]:
    """The marks for a score breakdown; a score without one gives no marks."""
    marks: dict[int, str] = {}
    if isinstance(score, PatchScore):
        for patch in score.patches:
            if patch.owner is not None:
                marks.update(dict.fromkeys(patch.cells, OWN[patch.owner]))
            _mark_pairs(marks, patch.cancelled)
    elif isinstance(score, LinageScore):
        for region in score.regions:
            mark = "free" if region.owner is None else OWN[region.owner]
            marks.update(dict.fromkeys(region.cells, mark))
    elif isinstance(score, EgotziScore):
        _mark_pairs(marks, score.cancelled)
    elif isinstance(score, PartitionsScore):
        for group in score.groups:
            if group.fragment:
                marks.update(dict.fromkeys(group.cells, "fragment"))
    return marks


def _mark_pairs(marks: dict[int, str], pairs: tuple[tuple[Group, Group], ...]) -> None:
    for first, second in pairs:
        marks.update(dict.fromkeys(first.cells | second.cells, "cancelled"))
