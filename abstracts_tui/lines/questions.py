"""The questions line mode answers about a game without changing it: whose turn, the
board, a row, a column, a cell, the score, the moves, the legal moves, the clocks and
the rules.

Functions of a session and a `say`, shared by a game played here (`lines.play`) and a
room's game followed over SSH (`lines.room`), whose session is a replica.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules import Game
from ..session import Phase, Session
from ..words import (
    board_words,
    cell_words,
    cells_words,
    colour,
    column_cells,
    legal_words,
    row_cells,
    row_names,
    score_words,
)

Say = Callable[[str], None]
Question = Callable[[Session, str, Say], None]


def turn(session: Session, rest: str, say: Say) -> None:
    if session.phase is not Phase.PLAY:
        say(f"{session.chooser} chooses before the first move.")
    else:
        say(f"{session.turn_text()}.")


def board(session: Session, rest: str, say: Say) -> None:
    for line in board_words(session.game):
        say(line)


def row(session: Session, rest: str, say: Say) -> None:
    game = session.game
    cells = row_cells(game, rest)
    if cells is None:
        say(f"No row {rest or 'given'}: the rows are {row_names(game)}.")
        return
    say(f"Row {rest.strip().lower()}: {cells_words(game, cells)}.")


def column(session: Session, rest: str, say: Say) -> None:
    game = session.game
    cells = column_cells(game, rest)
    if cells is None:
        if game.info.geometry == "hex":
            say("The hex board has rows only: type row and its letter.")
        else:
            last = game.geometry.name(game.geometry.cell_count - 1)[0]
            say(f"No column {rest or 'given'}: the columns are a to {last}.")
        return
    say(f"Column {rest.strip().lower()}, from the top: {cells_words(game, cells)}.")


def cell(session: Session, rest: str, say: Say) -> None:
    from ..rules import RulesError

    game = session.game
    if not rest.strip():
        say(f"No cell given: type cell and its name, such as cell {game.geometry.name(0)}.")
        return
    try:
        found = game.geometry.parse(rest)
    except RulesError as error:
        say(f"No such cell: {error}.")
        return
    say(cell_words(game, found))


def score(session: Session, rest: str, say: Say) -> None:
    for line in score_lines(session.game):
        say(line)


def score_lines(game: Game) -> list[str]:
    """The score as `score_words` says it, with the final score said once: the end's
    reason and a summary of the count repeat its points, so only what they add is kept
    (`Final score: Black 12, White 4 (biggest groups left after cancelling).`)."""
    lines = score_words(game)
    head, *rest = lines
    if game.outcome() is None:
        return lines
    points = head.removeprefix("Final score: ").removesuffix(".")
    if rest and rest[0].rstrip(".").startswith(points):
        added = rest.pop(0).rstrip(".")[len(points) :].strip()
        head = f"Final score: {points}{' ' * bool(added)}{added}."
    return [head, *(line for line in rest if not line.rstrip(".").endswith(points))]


def rules(session: Session, rest: str, say: Say) -> None:
    """The game's rules in short, as the full screen's rules screen has them: a line
    for each paragraph or list item (a screen reader reads a line at a time)."""
    from ..tui.rules_text import RULES

    for line in paragraphs(RULES[session.game.info.name]):
        say(line)
    say("Type help for the commands.")


def paragraphs(text: str) -> list[str]:
    """The lines of a text wrapped by hand joined back: one per paragraph or list item."""
    found: list[str] = []
    joining = False
    for line in text.splitlines():
        line = line.strip()
        if not line:
            joining = False
        elif joining and not line.startswith("- "):
            found[-1] += " " + line
        else:
            found.append(line)
            joining = True
    return found


def moves(session: Session, rest: str, say: Say) -> None:
    line = session.node.line()
    names = [
        f"{colour(session.game, mover)} {node.move}"
        for node, mover in zip(line, session.movers(line), strict=True)
        if mover is not None
    ]
    if not names:
        say("No moves yet.")
        return
    listed = names if rest.strip().lower() == "all" else names[-10:]
    first = len(names) - len(listed) + 1
    say(
        f"Moves {first} to {len(names)}: "
        + ", ".join(f"{first + i} {name}" for i, name in enumerate(listed))
        + "."
    )


def legal(session: Session, rest: str, say: Say) -> None:
    say(legal_words(session.game))


def clock(session: Session, rest: str, say: Say) -> None:
    found = session.clock
    if found is None:
        say("This game has no clock.")
        return
    now = session.now()
    game = session.game
    faces = []
    for c in (0, 1):
        face = found.face(c ^ session.swapped, now)
        faces.append(f"{colour(game, c)} ({session.person(c)}) {clock_words(face)}")
    say("Time left: " + "; ".join(faces) + ".")


QUESTIONS: dict[str, Question] = {
    "turn": turn,
    "board": board,
    "row": row,
    "column": column,
    "cell": cell,
    "score": score,
    "moves": moves,
    "legal": legal,
    "clock": clock,
    "rules": rules,
}
"""Each question by its command's name."""


def clock_words(face: str) -> str:
    """A clock face as words: `4:57` is `4 minutes 57 seconds`."""
    main, _, rest = face.partition(" ")
    parts = main.split(":")
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        minutes, seconds = int(parts[0]), int(parts[1])
        main = f"{minutes} minute{'s' * (minutes != 1)} {seconds} second{'s' * (seconds != 1)}"
    elif len(parts) == 3 and all(p.isdigit() for p in parts):
        hours, minutes = int(parts[0]), int(parts[1])
        main = f"{hours} hour{'s' * (hours != 1)} {minutes} minute{'s' * (minutes != 1)}"
    return f"{main} {rest}".strip()


def seconds_words(seconds: float) -> str:
    """`1 minute`, `30 seconds`."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' * (minutes != 1)}"
    whole = int(seconds)
    return f"{whole} second{'s' * (whole != 1)}"
