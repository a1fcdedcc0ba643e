"""The words of a game, as line mode, the rooms and the full-screen app say them: a
position, a move, a score and the computer's view as plain sentences that a speech engine
reads well and a Braille display shows in one line (the sentences of play built on them
are `play/sentences.py`'s).

Pure functions of the rules' objects: no input, no output, no terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import PASS, SWAP, Game, Move, Piece, format_number
from .rules.geometry import LETTERS, HexGrid, SquareGrid


def colour(game: Game, index: int) -> str:
    return game.colour_name(index).capitalize()


def piece_words(game: Game, piece: Piece | None) -> str:
    """`Blue`, `Orange stack of 3`, `block`, `neutral stone`; `empty`."""
    if piece is None:
        return "empty"
    if piece.colour is None:
        return "block" if piece.kind == "block" else f"neutral {piece.kind}"
    words = colour(game, piece.colour)
    if piece.kind == "stack" and piece.height > 1:
        words += f" stack of {piece.height}"
    return words


def cells_words(game: Game, cells: Sequence[int]) -> str:
    """The cells in order, each named with what is on it; runs of empty cells counted:
    `3 empty, Blue d5, empty, Orange f5, 2 empty`."""
    parts: list[str] = []
    empty = 0
    for cell in cells:
        piece = game.piece_at(cell)
        if piece is None:
            empty += 1
            continue
        if empty:
            parts.append("empty" if empty == 1 else f"{empty} empty")
            empty = 0
        parts.append(f"{piece_words(game, piece)} {game.geometry.name(cell)}")
    if empty:
        parts.append(
            ("all empty" if empty == len(cells) else "empty")
            if empty in (1, len(cells))
            else f"{empty} empty"
        )
    return ", ".join(parts)


def row_label(game: Game, cells: Sequence[int]) -> str:
    """The row's name as a player types it: `5` on a square board, `c` on the hex board."""
    geometry = game.geometry
    if isinstance(geometry, HexGrid):
        return LETTERS[geometry.coords(cells[0])[0]]
    assert isinstance(geometry, SquareGrid)
    return str(geometry.coords(cells[0])[1] + 1)


def board_words(game: Game) -> list[str]:
    """The board row by row from the top, one line a row: `row 5: 3 empty, Blue d5, ...`."""
    return [
        f"row {row_label(game, cells)}: {cells_words(game, cells)}"
        for cells in game.geometry.rows()
    ]


def row_cells(game: Game, label: str) -> list[int] | None:
    """The cells of the row named `label` (`5`, or `c` on the hex board), left to right."""
    for cells in game.geometry.rows():
        if row_label(game, cells) == label.strip().lower():
            return list(cells)
    return None


def column_cells(game: Game, letter: str) -> list[int] | None:
    """The cells of column `letter` from the top (square boards only)."""
    geometry = game.geometry
    if not isinstance(geometry, SquareGrid):
        return None
    letter = letter.strip().lower()
    if len(letter) != 1 or letter not in LETTERS[: geometry.size]:
        return None
    column = LETTERS.index(letter)
    return [geometry.cell(column, row) for row in reversed(range(geometry.size))]


def row_names(game: Game) -> str:
    """What `row` takes: `1 to 9`, or `a to i` on the hex board."""
    labels = [row_label(game, cells) for cells in game.geometry.rows()]
    return f"{labels[-1]} to {labels[0]}"


def cell_words(game: Game, cell: int) -> str:
    """What is on `cell` and around it: `d4: Blue. Around it: Orange c4, empty d5, ...`."""
    geometry = game.geometry
    around = ", ".join(
        f"{piece_words(game, game.piece_at(near))} {geometry.name(near)}"
        for near in geometry.neighbours[cell]
    )
    return f"{geometry.name(cell)}: {piece_words(game, game.piece_at(cell))}. Around it: {around}."


def move_words(
    before: Game, after: Game, move: Move, person: str | None, thought: float | None = None
) -> str:
    """The move just played, by whom, and what it changed beside its own cells:
    `Blue (Ann) plays d4, capturing c4.`
    `Orange (Bob) moves b3 to e3, capturing Blue stack of 2.`
    `Blue (Ann) moves c6 to b6, capturing Orange, leaving a block on c6.`
    `Black (Ann) plays c4, pushing d4 to e4, c3 to c2.`
    `person` None names the colour alone (a variation, where one person plays both);
    `thought`, the seconds the computer took over it: `White (Computer) plays a1 in 1.2 s.`"""
    mover = before.turn
    who = colour(before, mover) if person is None else f"{colour(before, mover)} ({person})"
    took = took_words(thought)
    if move == PASS:
        return f"{who} passes{took}."
    if move == SWAP:
        now = f": {person} now plays {colour(before, 1 - mover)}" if person is not None else ""
        return f"{who} swaps{took}{now}."
    frm, to = before.move_cells(move)
    assert to is not None
    name = before.geometry.name
    words = []
    if frm is None:
        text = f"{who} plays {name(to)}{took}"
    else:
        taken = before.piece_at(to)
        text = f"{who} moves {name(frm)} to {name(to)}{took}"
        if taken is not None and taken.colour not in (None, mover):
            words.append(f"capturing {piece_words(before, taken)}")
        left = after.piece_at(frm)
        if left is not None:
            article = "a " if left.colour is None else ""  # a block, a neutral stone
            words.append(f"leaving {article}{piece_words(after, left)} on {name(frm)}")
    pushed = before.pushed(move)
    if pushed:
        words.append("pushing " + ", ".join(f"{name(a)} to {name(b)}" for a, b in pushed))
    skip = {c for c in (frm, to) if c is not None} | {c for pair in pushed for c in pair}
    words += change_words(before, after, mover, skip=skip)
    return text + "".join(", " + word for word in words) + "."


def took_words(thought: float | None) -> str:
    """How long the computer thought over its move, said after the move: ` in 1.2 s`,
    ` in under 0.1 s`; the empty text for a person's move (None)."""
    if thought is None:
        return ""
    return f" in {thought:.1f} s" if thought >= 0.1 else " in under 0.1 s"


def change_words(before: Game, after: Game, mover: int, skip: set[int]) -> list[str]:
    """What a move did to the cells besides its own: captures, stones turned, blocks made."""
    captured: list[str] = []
    removed: list[str] = []
    changed: list[str] = []
    for cell in range(before.geometry.cell_count):
        if cell in skip:
            continue
        old, new = before.piece_at(cell), after.piece_at(cell)
        if old == new:
            continue
        name = before.geometry.name(cell)
        if new is None and old is not None:
            (captured if old.colour not in (None, mover) else removed).append(name)
        elif new is not None:
            changed.append(f"{name} now {piece_words(after, new)}")
    words = []
    if captured:
        words.append("capturing " + ", ".join(captured))
    if removed:
        words.append("removing " + ", ".join(removed))
    return words + changed


def score_words(game: Game) -> list[str]:
    """The score as it stands, each part: `Score now: Blue 12, Orange 9.` and the
    breakdown (every patch, region or group), one line each; the end's reason."""
    score = game.score()
    outcome = game.outcome()
    points = ", ".join(f"{colour(game, i)} {format_number(score.points[i])}" for i in range(2))
    lines = [f"{'Final score' if outcome else 'Score now'}: {points}."]
    if outcome is not None:
        lines.append(outcome.reason[:1].upper() + outcome.reason[1:] + ".")
    lines += [line.strip()[:1].upper() + line.strip()[1:] for line in score.lines if line.strip()]
    return lines


def legal_words(game: Game, limit: int = 40) -> str:
    """The legal moves: all of them when few, else how many and where."""
    moves = game.legal_moves()
    names = [game.move_name(m) for m in moves]
    if not names:
        return "No legal moves: the game is over."
    if len(names) <= limit:
        return f"{len(names)} legal move{'s' * (len(names) != 1)}: {', '.join(names)}."
    rows: dict[str, int] = {}
    for move in moves:
        _, to = game.move_cells(move)
        if to is None:
            continue
        for cells in game.geometry.rows():
            if to in cells:
                label = row_label(game, cells)
                rows[label] = rows.get(label, 0) + 1
    where = ", ".join(f"row {label} {count}" for label, count in rows.items())
    extra = [n for n in names if n in ("pass", "swap")]
    tail = f"; also {' and '.join(extra)}" if extra else ""
    return f"{len(names)} legal moves, by row of the cell played: {where}{tail}."


def komi_question(game: Game, chooser: str) -> str:
    """What the first person is asked in the komi phase."""
    return (
        f"{chooser}, set komi: the points {colour(game, 1)} gets for moving second, in "
        f"steps of {game.info.komi_step:g}. Type komi and a number."
    )


def side_question(game: Game, chooser: str) -> str:
    """What the second person is asked in the side phase."""
    return (
        f"{chooser}, which colour do you take? Type first for {colour(game, 0)}, who moves "
        f"first, or second for {colour(game, 1)}."
    )


def pie_question(game: Game, mover: str) -> str:
    """What the second player is asked after the first move, under the pie rule."""
    return (
        f"{mover}, you may swap, taking {colour(game, 0)}'s move as yours, or play on: "
        "type swap, or play a move."
    )
