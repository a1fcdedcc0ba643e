"""What every game shares: options, moves, outcomes, and the `Game` base class.

A `Game` holds one position and the stack of moves that led to it, like python-chess's
`Board`: `legal_moves()`, `play()` (checked), `push()` (unchecked, for search), `undo()`,
`position()` / `from_position()`.

Moves are integers ("move codes") so that search can be fast:
- a placement on cell `c` is `c`;
- a capture from `f` to `t` is `capture(f, t, cell_count)`;
- `PASS` and `SWAP` are negative constants.
`move_name()` and `parse_move()` convert to and from the notation (docs/rules.md, Notation).
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Self

from .catalogue import GameInfo, Options, read_float, read_int
from .errors import (
    IllegalMoveError,
    MoveSyntaxError,
    OptionError,
    PositionError,
    UndoError,
    shown,
)
from .geometry import LETTERS, Geometry, HexGrid
from .views import GameView

Move = int
PASS: Move = -1
SWAP: Move = -2


def capture(frm: int, to: int, cell_count: int) -> Move:
    """The move code of a capture from cell `frm` to cell `to`."""
    return cell_count + frm * cell_count + to


def capture_cells(move: Move, cell_count: int) -> tuple[int, int]:
    """(from, to) of a capture move code."""
    return divmod(move - cell_count, cell_count)


_PIECES: dict[type[Game], dict[str, Piece | None]] = {}
"""The cell tokens of position strings each game has read, and what they stand for: a
board is read by looking its tokens up (only valid tokens are kept, so it stays small).
The cells of a row are consecutive on every board."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game."""

    winner: int | None
    """Colour index of the winner (0 = first mover's colour), None for a draw."""
    reason: str
    """Why, in words, e.g. `Blue 29, Orange 16` or `tied 20-20: Orange made the last board play`."""


@dataclass(frozen=True)
class Score:
    """The score of a position with the breakdown a player wants to see.

    Games return a subclass that adds the breakdown as typed fields.
    """

    points: tuple[float, float]
    """Points by colour index, komi included."""
    lines: tuple[str, ...] = field(default=(), compare=False)
    """The breakdown in words, one line per patch, region, group or step."""


class Game(ABC):
    """One game of one rule set: a position and the moves that led to it.

    Subclasses set `info`, build `geometry` and the start position in `__init__`, and
    implement the abstract methods. The base class keeps the move stack: `push()` saves
    `_state()` before `_apply()`, and `undo()` gives it back to `_set_state()`.
    """

    info: ClassVar[GameInfo]
    geometry: Geometry

    def __init__(self, options: Options) -> None:
        self.options = options
        self.size = options.size
        self.moves: list[Move] = []
        """The moves played since the start (or since the position was set up)."""
        self._stack: list[object] = []

    # -- construction ---------------------------------------------------------------

    @classmethod
    def new(
        cls, size: int | None = None, variant: str | None = None, komi: float | None = None
    ) -> Self:
        """A new game at the start position; raises `OptionError` on bad options."""
        return cls(cls.info.options(size, variant, komi))

    def copy(self) -> Self:
        """An independent copy of this game, history included."""
        other = type(self).from_position(self.start_position)
        for move in self.moves:
            other.push(move)
        return other

    # -- state hooks for subclasses -----------------------------------------------------

    @abstractmethod
    def _state(self) -> object:
        """Everything `_apply` may change, as an immutable value (a tuple of ints)."""

    @abstractmethod
    def _set_state(self, state: object) -> None:
        """Restore a value returned by `_state`."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Play a legal move (no checks)."""

    @abstractmethod
    def view(self) -> GameView:
        """The position as a typed, read-only value of this game's own kind (`rules.views`):
        its bitboards in the game's layout and its counters, named field by field, for
        code outside the rules that works on the same bits (the compiled core)."""

    # -- rules ----------------------------------------------------------------------

    @property
    @abstractmethod
    def turn(self) -> int:
        """Colour index of the side to move: 0 for the first mover's colour."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move for the side to move; empty when the game is over."""

    @abstractmethod
    def illegal_reason(self, move: Move) -> str | None:
        """None if `move` is legal now, else why not, in words a player can act on."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def score(self) -> Score:
        """The score: the final one once the game is over, else a preview on this position."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over; None before."""

    # -- moves ----------------------------------------------------------------------

    def is_legal(self, move: Move) -> bool:
        return self.illegal_reason(move) is None

    def push(self, move: Move) -> None:
        """Play `move` without checking it (for search over `legal_moves()`)."""
        self._stack.append(self._state())
        self.moves.append(move)
        self._apply(move)

    def play(self, move: Move | str) -> Move:
        """Play a move given as a code or in notation; returns its code.

        Raises `MoveSyntaxError` or `IllegalMoveError` and changes nothing if it is not
        a legal move now.
        """
        code = self.parse_move(move) if isinstance(move, str) else move
        reason = self.illegal_reason(code)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.push(code)
        return code

    def undo(self) -> Move:
        """Take back the last move and return it; raises `UndoError` at the start."""
        if not self.moves:
            raise UndoError("there is no move to take back")
        self._set_state(self._stack.pop())
        return self.moves.pop()

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves until the game is over.

        This is the hot loop of random games and of search; a game may override it with
        a faster version that picks from the same distribution.
        """
        while not self.is_over():
            self.push(rng.choice(self.legal_moves()))

    @property
    def last_move(self) -> Move | None:
        return self.moves[-1] if self.moves else None

    def move_name(self, move: Move) -> str:
        """The canonical notation of a move code."""
        if move == PASS:
            return "pass"
        if move == SWAP:
            return "swap"
        n = self.geometry.cell_count
        if 0 <= move < n:
            return self.geometry.name(move)
        if self.info.captures and n <= move < n + n * n:
            frm, to = capture_cells(move, n)
            return f"{self.geometry.name(frm)}-{self.geometry.name(to)}"
        raise ValueError(f"{move} is not a move code of {self.info.title} size {self.size}")

    def parse_move(self, text: str) -> Move:
        """The move code for `text` in notation; raises `MoveSyntaxError` if malformed.

        Only the form is checked here: `play()` says whether the move is legal.
        """
        key = text.strip().lower()
        if key == "pass":
            return PASS
        if key == "swap":
            return SWAP
        if not key:
            raise MoveSyntaxError("no move given")
        if "-" in key:
            if not self.info.captures:
                raise MoveSyntaxError(
                    f"{self.info.title} has no moves from one cell to another: "
                    f"give a cell like c3, or pass"
                )
            frm_text, _, to_text = key.partition("-")
            frm, to = self.geometry.parse(frm_text), self.geometry.parse(to_text)
            return capture(frm, to, self.geometry.cell_count)
        return self.geometry.parse(key)

    def move_cells(self, move: Move) -> tuple[int | None, int | None]:
        """(from, to) cells of a move: (None, c) for a placement, (None, None) for pass/swap."""
        n = self.geometry.cell_count
        if move < 0:
            return None, None
        if move < n:
            return None, move
        frm, to = capture_cells(move, n)
        return frm, to

    def pushed(self, move: Move) -> list[tuple[int, int]]:
        """The pieces a move (legal now) would push to other cells, as (from, to) cells;
        none but in a game whose moves push (Egotzi)."""
        return []

    # -- colours and results -----------------------------------------------------------

    def colour_name(self, colour: int) -> str:
        return self.info.colours[colour]

    def side_to_move(self) -> str:
        """The colour to move, lower case, e.g. `blue`."""
        return self.info.colours[self.turn]

    def winner_name(self) -> str:
        """A colour name, `draw`, or `none` while the game is not over."""
        outcome = self.outcome()
        if outcome is None:
            return "none"
        return "draw" if outcome.winner is None else self.info.colours[outcome.winner]

    # -- position strings ---------------------------------------------------------------

    piece_kind: ClassVar[str] = "stone"
    """Kind of a coloured piece: `disk`, `stack` (with a height) or `stone`."""
    neutral_kind: ClassVar[str | None] = None
    """Kind of the neutral piece written `x` (`block`, or Linage's `stone`), if any."""

    @abstractmethod
    def piece_at(self, cell: int) -> Piece | None:
        """What stands on `cell`, or None when it is empty."""

    @abstractmethod
    def _counters(self) -> dict[str, str]:
        """The counters field of the position string, keys in `counter_keys` order."""

    @classmethod
    @abstractmethod
    def _from_pieces(
        cls,
        options: Options,
        pieces: list[Piece | None],
        turn: int,
        counters: Mapping[str, str],
    ) -> Self:
        """Build a game from a parsed position; raises `PositionError` if it is invalid.

        `pieces[c]` is what stands on cell `c`; `counters` holds every key of
        `counter_keys` and no other.
        """

    counter_keys: ClassVar[tuple[str, ...]] = ()

    def position(self) -> str:
        """The position string: `GAME OPTIONS BOARD SIDE COUNTERS` (docs/engine.md)."""
        return self._position_text(self.board_token(), self.turn, self._counters())

    def _position_text(self, board: str, turn: int, counters: Mapping[str, str]) -> str:
        """`GAME OPTIONS BOARD SIDE COUNTERS` from its parts."""
        counter_text = ",".join(f"{k}={v}" for k, v in counters.items()) or "-"
        options = self.options.token(self.info)
        return f"{self.info.name} {options} {board} {self.info.colours[turn]} {counter_text}"

    def setup_position(self, pieces: Sequence[Piece | None], turn: int) -> str:
        """The position string of `pieces` (by cell) with colour `turn` to move, as set up
        by hand: no passes pending and no swap offer open. It is not checked here:
        `from_position` says what is wrong with it, if anything."""
        board = self.board_token(pieces)
        return self._position_text(board, turn, self._setup_counters(pieces, turn))

    @classmethod
    def placeable_pieces(cls) -> list[Piece]:
        """The kinds of piece a position of this game can hold (stacks of height 1), in the
        order of the colours, neutral last: what setting up a position can place."""
        found = []
        for letter in [colour[0] for colour in cls.info.colours] + ["x"]:
            for token in (letter, letter + "1"):
                try:
                    piece = cls._parse_piece(token, 1)
                except PositionError:
                    continue
                if piece is not None:
                    found.append(piece)
                    break
        return found

    def _setup_counters(self, pieces: Sequence[Piece | None], turn: int) -> dict[str, str]:
        """The counters of a set-up position: those of a new game unless a game says more."""
        return type(self)(self.options)._counters()

    @property
    def start_position(self) -> str:
        """The position string before the first move of `moves`."""
        if not self.moves:
            return self.position()
        saved = self._state()
        self._set_state(self._stack[0])
        try:
            return self.position()
        finally:
            self._set_state(saved)

    @classmethod
    def from_position(cls, text: str) -> Self:
        """Load a position string; raises `PositionError` saying what is wrong."""
        return cls.read_position(text)[0]

    @classmethod
    def read_position(cls, text: str) -> tuple[Self, str]:
        """`from_position(text)`, and the position string as `position()` writes it (made
        without reading the board back when each cell of the text is one character)."""
        fields = text.split()
        if len(fields) != 5:
            raise PositionError(
                f"a position string has 5 fields (game, options, board, side to move, "
                f"counters) separated by spaces; this one has {len(fields)}"
            )
        name, option_text, board, side, counter_text = fields
        board = board.lower()
        if name.lower() != cls.info.name:
            raise PositionError(f"this is a {shown(name)} position, not {cls.info.name}")
        options = parse_options(cls.info, option_text)
        colours = cls.info.colours
        if side.lower() not in colours:
            raise PositionError(
                f"the side to move must be {colours[0]} or {colours[1]}, not '{shown(side)}'"
            )
        counters = parse_counters(counter_text, cls.counter_keys)
        geometry = cls.geometry_for(options.size)
        pieces: list[Piece | None] = [None] * geometry.cell_count
        row_cells = geometry.rows()
        rows = board.split("/")
        if len(rows) != len(row_cells):
            raise PositionError(
                f"the board must have {len(row_cells)} rows separated by '/', not {len(rows)}"
            )
        known = _PIECES.setdefault(cls, {})
        plain = True
        """Whether every cell was one character: the board text is then as `position()`
        writes it (a one-character token is its piece's own)."""
        for number, (row, cells) in enumerate(zip(rows, row_cells, strict=True), start=1):
            if len(row) == len(cells):  # likely a character a cell: looked up all at once
                try:
                    pieces[cells[0] : cells[-1] + 1] = [known[char] for char in row]
                    continue
                except KeyError:
                    pass
            plain = False
            tokens = split_cells(row, number, len(cells))
            for cell, token in zip(cells, tokens, strict=True):
                if token in known:
                    pieces[cell] = known[token]
                else:
                    pieces[cell] = known[token] = cls._parse_piece(token, number)
        turn = colours.index(side.lower())
        game = cls._from_pieces(options, pieces, turn, counters)
        if not plain:
            return game, game.position()
        return game, game._position_text(board, turn, game._counters())

    @classmethod
    @abstractmethod
    def geometry_for(cls, size: int) -> Geometry:
        """The board of this game at `size`."""

    def board_token(self, pieces: Sequence[Piece | None] | None = None) -> str:
        """The board field of the position string: rows from the top, separated by `/`;
        of `pieces` (by cell) if given, else of this position."""
        if pieces is None:
            pieces = [self.piece_at(cell) for cell in range(self.geometry.cell_count)]
        token = self._piece_token
        tokens = ["." if piece is None else token(piece) for piece in pieces]
        # Each row is a run of consecutive cells on every board.
        return "/".join("".join(tokens[row[0] : row[-1] + 1]) for row in self.geometry.rows())

    def _piece_token(self, piece: Piece | None) -> str:
        if piece is None:
            return "."
        letter = "x" if piece.colour is None else self.info.colours[piece.colour][0]
        return letter + str(piece.height) if piece.kind == "stack" else letter

    @classmethod
    def _parse_piece(cls, token: str, number: int) -> Piece | None:
        if token == ".":
            return None
        letters = {colour[0]: index for index, colour in enumerate(cls.info.colours)}
        allowed = [f"'{letter}'" for letter in letters]
        if cls.neutral_kind is not None:
            allowed.append(f"'x' ({cls.neutral_kind})")
        allowed.append("'.' (empty)")
        where = f"row {number} from the top"
        letter, digits = token[0], token[1:]
        if cls.piece_kind == "stack" and letter in letters:
            height = read_int(digits) if len(digits) <= 2 else None
            if height is None or height < 1:
                raise PositionError(
                    f"{where}: a stack is its colour's letter and its height, e.g. "
                    f"{letter}2; not '{shown(token)}'"
                )
            return Piece("stack", letters[letter], height)
        if digits or (letter not in letters and (letter != "x" or cls.neutral_kind is None)):
            raise PositionError(
                f"{where}: '{shown(token)}' is not a cell; use {', '.join(allowed)}"
            )
        if letter == "x":
            assert cls.neutral_kind is not None
            return Piece(cls.neutral_kind, None)
        return Piece(cls.piece_kind, letters[letter])

    def board_text(self) -> str:
        """A text diagram of the position with coordinates (the protocol's `showboard`)."""
        tokens = {
            cell: self._piece_token(self.piece_at(cell)) for cell in range(self.geometry.cell_count)
        }
        width = max(2, max(len(t) for t in tokens.values()) + 1)
        lines = []
        geometry = self.geometry
        if isinstance(geometry, HexGrid):
            widest = 2 * geometry.size - 1
            for row_cells in geometry.rows():
                row = geometry.coords(row_cells[0])[0]
                indent = " " * ((widest - len(row_cells)) * width // 2)
                body = "".join(tokens[c].rjust(width) for c in row_cells)
                lines.append(f"{LETTERS[row]} {indent}{body}")
            return "\n".join(lines)
        label = len(str(geometry.size))
        for row_cells in geometry.rows():
            row = row_cells[0] // geometry.size + 1
            body = "".join(tokens[c].rjust(width) for c in row_cells)
            lines.append(f"{str(row).rjust(label)}{body}")
        letters = "".join(LETTERS[c].rjust(width) for c in range(geometry.size))
        lines.append(" " * label + letters)
        return "\n".join(lines)


@dataclass(frozen=True)
class Piece:
    """What stands on a cell."""

    kind: str
    """`disk`, `stack`, `stone` or `block`."""
    colour: int | None
    """Colour index of its owner; None for a block or a neutral stone."""
    height: int = 1
    """The number of disks in a stack (1 for anything else)."""


def colour_masks(pieces: Sequence[Piece | None]) -> tuple[int, int]:
    """Bitboards (bit `c` for cell `c`) of the cells holding each colour's pieces."""
    masks = [0, 0]
    for cell, piece in enumerate(pieces):
        if piece is not None and piece.colour is not None:
            masks[piece.colour] |= 1 << cell
    return masks[0], masks[1]


_OPTIONS: dict[tuple[str, str], Options] = {}
"""Options fields of position strings read so far, by game (the valid ones, and only
up to a few hundred: a long list of positions reads each field once)."""


def parse_options(info: GameInfo, text: str) -> Options:
    """Parse the options field of a position string, e.g. `size=7,variant=squared,komi=4`."""
    known = _OPTIONS.get((info.name, text))
    if known is None:
        known = _parse_options(info, text)
        if len(_OPTIONS) >= 512:
            _OPTIONS.clear()
        _OPTIONS[info.name, text] = known
    return known


def _parse_options(info: GameInfo, text: str) -> Options:
    values: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or not value:
            raise PositionError(f"options are written key=value, e.g. size=8; not '{shown(part)}'")
        if key not in info.option_names():
            raise PositionError(
                f"{info.title} takes the options {', '.join(info.option_names())}, "
                f"not '{shown(key)}'"
            )
        if key in values:
            raise PositionError(f"the option {key} is given twice")
        values[key] = value
    if "size" not in values:
        raise PositionError("the options must give the board size, e.g. size=8")
    size = read_int(values["size"])
    if size is None:
        raise PositionError(f"the size must be a whole number, not '{shown(values['size'])}'")
    try:
        return info.options(size, values.get("variant"), parse_komi_text(values.get("komi")))
    except OptionError as error:
        raise PositionError(str(error)) from None


def parse_komi_text(text: str | None) -> float | None:
    if text is None:
        return None
    komi = read_float(text)
    if komi is None:
        raise PositionError(f"komi must be a number, not '{shown(text)}'")
    return komi


def parse_counters(text: str, keys: Sequence[str]) -> dict[str, str]:
    """Parse the counters field (`-` when a game has none); every key must be given once."""
    if text == "-":
        parts: list[str] = []
    else:
        parts = text.split(",")
    values: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not value:
            raise PositionError(
                f"counters are written key=value, e.g. passes=0; not '{shown(part)}'"
            )
        if key not in keys:
            known = ", ".join(keys) if keys else "none"
            raise PositionError(f"unknown counter '{shown(key)}' (this game's counters: {known})")
        if key in values:
            raise PositionError(f"the counter {key} is given twice")
        values[key] = value
    missing = [key for key in keys if key not in values]
    if missing:
        raise PositionError(f"the counters must give {', '.join(missing)}")
    return values


_TOKEN = re.compile(r".[0-9]*", re.DOTALL)
"""A cell of a board row: one character and any ASCII digits after it."""


def split_cells(row: str, number: int, length: int) -> list[str]:
    """Split board row `number` (1 = top) into `length` cell tokens.

    A token is `.` or a letter optionally followed by ASCII digits (a Pilo stack height).
    """
    tokens: list[str] = _TOKEN.findall(row)
    for token in tokens:
        if token != "." and not token[0].isalpha():
            raise PositionError(f"row {number} from the top: '{shown(token)}' is not a cell")
    if len(tokens) != length:
        raise PositionError(
            f"row {number} from the top must have {length} cells, not {len(tokens)}"
        )
    return tokens


def yes_no(value: str, key: str) -> bool:
    if value not in ("yes", "no"):
        raise PositionError(f"the counter {key} must be yes or no, not '{shown(value)}'")
    return value == "yes"


def yes_no_text(flag: bool) -> str:
    return "yes" if flag else "no"
