"""Game records: a whole game with its variations and comments, stored as SGF.

A record is a tree of `RecordNode`s. The root holds the game's options and, when the
game did not start from the empty board, a setup position; every other node holds one
move (or a setup position) and an optional comment. The first child of a node is the
main line, the others are variations. A record also remembers the node shown when it was
written (`shown`): a node other than the end of the main line carries the private
property `SHOWN[]`, and reading the record opens it there. The README documents the file
format.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from .. import __version__
from ..clock import TimeControl
from ..rules import (
    GAMES,
    Game,
    OptionError,
    Options,
    RulesError,
    format_number,
    game_class,
    load_position,
    shown,
)
from ..rules.catalogue import read_float, read_int
from . import sgf
from .errors import RecordError
from .timing import (
    TIME_KEYS,
    TimeLeft,
    control_properties,
    read_control,
    read_time_left,
    time_left_properties,
    time_winner,
)

N = TypeVar("N", int, float)

GM_NUMBER = "1000"
"""The private SGF GM value of abstracts-tui records (the property GA names the game)."""

SHOWN = "SHOWN"
"""The private SGF property (valueless, `SHOWN[]`) of the node a record opens at, when
that is not the end of its main line (a move taken back in analysis, a variation)."""

ROOT_KEYS = (
    *("FF", "GM", "CA", "AP", "GA", "SZ", "VR", "KM", "DT", "RE", "EV", "SP", "C", "AI"),
    *TIME_KEYS,
    SHOWN,
)

MAX_MIB = 16
MAX_SIZE = MAX_MIB * 1024 * 1024
"""The largest record file read, in bytes: a game with every variation and comment ever
added stays far below it, and a file above it is refused before it is read."""

MAX_SETUPS = 2_000
"""The most set-up positions below the root of a record: each is read and checked against
the rules (up to a fifth of a millisecond for the largest boards), and a study sets up a
position by hand a few times, not thousands."""

WIDE = 8
"""Past this many children a node's children are looked up in a table while reading."""


@dataclass(eq=False)
class RecordNode:
    """A node of the game tree: a move (or a setup position) and a comment."""

    move: str | None = None
    """The move in canonical notation; None at the root and at a setup node."""
    setup: str | None = None
    """A position string set up at this node (the root's is the start position)."""
    comment: str = ""
    time_left: TimeLeft | None = None
    """The mover's clock after the move (a game with a clock)."""
    children: list[RecordNode] = field(default_factory=list, repr=False)
    parent: RecordNode | None = field(default=None, repr=False)
    evaluation: float | None = field(default=None, repr=False)
    """The first colour's win rate here, from the longest search of it so far (not saved)."""
    evaluated_with: int = field(default=0, repr=False)
    """The playouts of the search that gave `evaluation`."""

    def evaluate(self, first_winrate: float | None, playouts: int) -> None:
        """Keep `first_winrate` unless a longer search has already evaluated this node."""
        if first_winrate is not None and playouts >= self.evaluated_with:
            self.evaluation = first_winrate
            self.evaluated_with = playouts

    def add(self, move: str | None = None, setup: str | None = None) -> RecordNode:
        """The child holding `move` (or `setup`), made if it is not there yet."""
        for child in self.children:
            if child.move == move and child.setup == setup:
                return child
        child = RecordNode(move=move, setup=setup, parent=self)
        self.children.append(child)
        return child

    def mainline(self) -> Iterator[RecordNode]:
        """The nodes below this one along first children."""
        node = self
        while node.children:
            node = node.children[0]
            yield node

    def line(self) -> list[RecordNode]:
        """The nodes from the root's first move down to this node."""
        nodes = []
        node: RecordNode | None = self
        while node is not None and node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def on_main_line(self) -> bool:
        """Whether this node lies on the main line (first children from the root)."""
        return all(node.parent is None or node.parent.children[0] is node for node in self.line())

    def walk(self) -> Iterator[RecordNode]:
        """This node and every node below it, depth first."""
        todo = [self]
        while todo:
            node = todo.pop()
            yield node
            todo.extend(reversed(node.children))


@dataclass(eq=False)
class Record:
    """A game record: options, players, date, result and the tree of moves."""

    game: str
    options: Options
    players: tuple[str, str] = ("", "")
    """The people who start the game as the first and the second colour (a swap
    exchanges their colours from then on)."""
    date: str = ""
    result: str = ""
    """`<colour>+<margin>` (e.g. `orange+13`), `draw`, or empty while unfinished."""
    event: str = ""
    root: RecordNode = field(default_factory=RecordNode)
    computers: dict[str, str] = field(default_factory=dict)
    """Players that are the computer: name -> strength level (SGF `AI[level:name]`)."""
    clock: TimeControl | None = None
    """The time control (SGF `TM` and `OT`); None: no clock."""
    extra: dict[str, list[str]] = field(default_factory=dict)
    """Root properties this program does not use, kept so that saving loses nothing."""
    shown: RecordNode | None = field(default=None, repr=False)
    """The node shown, where the record opens (SGF `SHOWN[]`); None: the end of the main
    line. A session keeps it at the node it shows."""

    def opening_node(self) -> RecordNode:
        """The node the record opens at: `shown`, or the end of the main line."""
        if self.shown is not None:
            return self.shown
        nodes = list(self.root.mainline())
        return nodes[-1] if nodes else self.root

    def marked_node(self) -> RecordNode | None:
        """The node that `to_sgf` marks `SHOWN[]`: `shown`, unless it is None or the end
        of the main line (where a record opens anyway)."""
        node = self.shown
        if node is None or node.children or not node.on_main_line():
            return node
        return None

    @classmethod
    def from_game(
        cls, game: Game, players: tuple[str, str] = ("", ""), date: str | None = None
    ) -> Record:
        """The record of `game`'s moves as the main line."""
        record = cls(
            game=game.info.name,
            options=game.options,
            players=players,
            date=date if date is not None else datetime.date.today().isoformat(),
        )
        start = game.start_position
        if start != type(game)(game.options).position():
            record.root.setup = start
        node = record.root
        for move in game.moves:
            node = node.add(game.move_name(move))
        record.result = result_text(game)
        return record

    def new_game(self) -> Game:
        """The game at the root (its setup position, or the empty board)."""
        cls = game_class(self.game)
        if self.root.setup is not None:
            return cls.from_position(self.root.setup)
        return cls(self.options)

    def game_at(self, node: RecordNode) -> Game:
        """The game with the moves from the root down to `node` played (from the last
        setup position on the way: what came before it does not count)."""
        path = []
        current: RecordNode | None = node
        while current is not None and current is not self.root:
            path.append(current)
            if current.setup is not None:
                break
            current = current.parent
        if path and path[-1].setup is not None:
            game = game_class(self.game).from_position(path[-1].setup)
        else:
            game = self.new_game()
        for step in reversed(path):
            if step.move is not None:
                game.play(step.move)
        return game

    def main_game(self) -> Game:
        """The game at the end of the main line."""
        nodes = list(self.root.mainline())
        return self.game_at(nodes[-1]) if nodes else self.new_game()

    def to_sgf(self) -> str:
        """The record as SGF text."""
        info = game_class(self.game).info
        props: dict[str, list[str]] = {
            "FF": ["4"],
            "GM": [GM_NUMBER],
            "CA": ["UTF-8"],
            "AP": [f"abstracts-tui:{__version__}"],
            "GA": [self.game],
            "SZ": [str(self.options.size)],
        }
        if info.variants:
            props["VR"] = [self.options.variant]
        if info.takes_komi(self.options.variant):
            props["KM"] = [format_number(self.options.komi)]
        for colour, name in zip(info.colours, self.players, strict=True):
            if name:
                props["P" + colour[0].upper()] = [name]
        for key, value in (("DT", self.date), ("RE", self.result), ("EV", self.event)):
            if value:
                props[key] = [value]
        if self.computers:
            props["AI"] = [f"{level}:{name}" for name, level in self.computers.items()]
        if self.root.setup is not None:
            props["SP"] = [self.root.setup]
        if self.root.comment:
            props["C"] = [self.root.comment]
        if self.clock is not None:
            props.update(control_properties(self.clock))
        marked = self.marked_node()
        if marked is self.root:
            props[SHOWN] = [""]
        props.update(self.extra)
        top = sgf.SgfNode(props)
        self._copy_tree(top, marked)
        return sgf.dumps(top)

    def _copy_tree(self, top: sgf.SgfNode, marked: RecordNode | None) -> None:
        """The SGF nodes of the moves and setups below the root, depth first."""
        # A move is written with the letter of the colour to move, so the game is
        # replayed along the way; after a setup it is only loaded once a move needs it
        # (a chain of setups, or setups each with one move, is written loading none).
        start: Game | str = self.root.setup if self.root.setup is not None else self.new_game()
        todo = [_Writing(self.root, top, start)]
        while todo:
            frame = todo[-1]
            children = frame.node.children
            if frame.next == len(children):
                todo.pop()
                _take_back(frame.game, frame.undos)
                continue
            child = children[frame.next]
            frame.next += 1
            carried = 0
            if frame.next == len(children):  # the last child takes the frame's place
                todo.pop()
                carried = frame.undos
            props: dict[str, list[str]] = {}
            here = frame.game
            if child.setup is not None:
                props["SP"] = [child.setup]
                here = child.setup
                _take_back(frame.game, carried)  # the child plays on a game of its own
                carried = 0
            if child.move is not None and isinstance(here, str) and not child.children:
                # A last move after a setup: the colour is the position's side to move.
                props[letter := here.split()[3][0].upper()] = [child.move]
            elif child.move is not None:
                if isinstance(here, str):
                    here = game_class(self.game).from_position(here)
                    if child.setup is None:  # the frame's game, for its other children
                        frame.game = here
                props[letter := here.side_to_move()[0].upper()] = [child.move]
                here.play(child.move)
                carried += child.setup is None
            if child.move is not None and child.time_left is not None:
                props.update(time_left_properties(letter, child.time_left))
            if child.comment:
                props["C"] = [child.comment]
            if child is marked:
                props[SHOWN] = [""]
            sgf_child = sgf.SgfNode(props)
            frame.out.children.append(sgf_child)
            todo.append(_Writing(child, sgf_child, here, carried))

    @classmethod
    def from_sgf(cls, text: str) -> Record:
        """Read a record; raises `RecordError` naming the line of any fault.

        Every move of every variation is checked against the rules, each node as it is
        read: the first fault stops the reading.
        """
        items = sgf.read(text)
        opening = next(items)
        assert opening is sgf.OPEN  # or `read` has raised
        top = next(items)
        assert isinstance(top, sgf.SgfNode)
        record = cls._read_root(top)
        reader = _TreeReader(record)
        if SHOWN in top.properties:
            reader.mark(record.root, top.line)
        reader.read(items)
        games, line = 1, 0
        depth = 0
        for item in items:  # the rest of the file: any other game tree is a fault
            if item is sgf.OPEN:
                depth += 1
                games += depth == 1
            elif item is sgf.CLOSE:
                depth -= 1
            elif not line:
                assert isinstance(item, sgf.SgfNode)
                line = item.line
        if games > 1:
            raise RecordError(f"this file holds {games} games; a record holds one", line)
        return record

    @classmethod
    def _read_root(cls, top: sgf.SgfNode) -> Record:
        line = top.line
        name = top.get("GA")
        if top.get("GM") != GM_NUMBER or name is None:
            raise RecordError(
                f"not an abstracts-tui record (it needs GM[{GM_NUMBER}] and "
                f"GA[game], one of {', '.join(GAMES)})",
                line,
            )
        try:
            info = game_class(name).info
            size = _number(top, "SZ", read_int, "the board size SZ must be a whole number")
            komi = _number(top, "KM", read_float, "the komi KM must be a number")
            variant = top.get("VR")
            if komi is not None and not info.takes_komi(variant or "") and komi == 0:
                komi = None  # KM[0] on a game without komi is harmless
            options = info.options(size, variant, komi)
        except RulesError as error:
            raise RecordError(str(error), line) from None
        players = tuple(top.get("P" + colour[0].upper()) or "" for colour in info.colours)
        record = cls(
            game=info.name,
            options=options,
            players=(players[0], players[1]),
            date=top.get("DT") or "",
            result=top.get("RE") or "",
            event=top.get("EV") or "",
        )
        record.root.comment = top.get("C") or ""
        record.clock = read_control(top.get("TM"), top.get("OT"), line)
        if "+" in record.result and record.result.partition("+")[2].lower() == "time":
            if time_winner(record.result, info.colours) is None:
                raise RecordError(
                    f"the result RE[{shown(record.result)}]: a loss on time is written "
                    f"{info.colours[0]}+time or {info.colours[1]}+time",
                    line,
                )
            if record.clock is None:
                raise RecordError("a game lost on time needs its time control TM[...]", line)
        for value in top.properties.get("AI", []):
            level, _, name = value.partition(":")
            if name in record.players:
                record.computers[name] = level
        setup = top.get("SP")
        if setup is not None:
            try:
                start = load_position(setup)
            except RulesError as error:
                raise RecordError(f"the setup position SP: {error}", line) from None
            if start.info.name != info.name or start.options != options:
                raise RecordError(
                    f"the setup position SP is a {start.info.name} "
                    f"{start.options.token(start.info)} position, but the record is "
                    f"{info.name} {options.token(info)}",
                    line,
                )
            record.root.setup = start.position()
        colour_keys = {"P" + colour[0].upper() for colour in info.colours}
        record.extra = {
            key: values
            for key, values in top.properties.items()
            if key not in ROOT_KEYS and key not in colour_keys
        }
        return record

    def save(self, path: str | Path) -> None:
        """Write the record to `path` as SGF (UTF-8)."""
        Path(path).write_text(self.to_sgf(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; raises `RecordError` (or `OSError` if it cannot be read).

        A file larger than `MAX_SIZE` is refused before it is read.
        """
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_SIZE:
                raise RecordError(too_long(size))
            data = handle.read(MAX_SIZE + 1)  # not a plain file (a pipe): its size is read
        if len(data) > MAX_SIZE:
            raise RecordError(too_long(None))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise RecordError("the file is not UTF-8 text", line) from None
        return cls.from_sgf(text)


@dataclass(slots=True)
class _Writing:
    """A node whose children `to_sgf` is writing."""

    node: RecordNode
    out: sgf.SgfNode
    """The SGF node made for it."""
    game: Game | str
    """The game at the node, or the setup position to load it from when a move needs it."""
    undos: int = 0
    """The moves played on `game` since the frame that needs it as it was: taken back
    when this frame is done. A node's last child takes its place and carries them, so a
    long line (or a last variation nested deep) does not stack up frames."""
    next: int = 0
    """The child to write next."""


def _take_back(game: Game | str, moves: int) -> None:
    for _ in range(moves):
        assert isinstance(game, Game)
        game.undo()


class _TreeReader:
    """Reads the nodes below a record's root as `sgf.read` yields them, checking each
    against the rules as it comes. Nothing recursive: the tree's shape only changes
    how long the list of open variations grows."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.cls = game_class(record.game)
        self.tables: dict[RecordNode, dict[tuple[str | None, str | None], RecordNode]] = {}
        """Children by move and setup, for the nodes with more than `WIDE` children."""
        self.marked_line = 0
        """The line of the node marked `SHOWN[]` (0: none yet)."""
        self.setups = 0
        """The set-up positions read so far (the root's is not counted)."""

    def mark(self, node: RecordNode, line: int) -> None:
        """`node` carries `SHOWN[]`: the record opens there (one node only)."""
        if self.marked_line:
            raise RecordError(
                f"{SHOWN}[] marks the one node a record opens at; the node on line "
                f"{self.marked_line} has it already",
                line,
            )
        self.record.shown = node
        self.marked_line = line or 1

    def read(self, items: Iterator[sgf.SgfNode | str]) -> None:
        """Read up to the end of the root's game tree."""
        node = self.record.root
        game = self.record.new_game()
        letters = {colour[0].upper(): colour for colour in self.cls.info.colours}
        opened: list[tuple[RecordNode, Game, int]] = []
        """For each variation open: the node it hangs from, and the game there with its
        number of moves (the variation may play more on that game: they are taken back).
        A variation that sets up a position plays on a game of its own; the game above
        stays loaded (at most `MAX_SETUPS` of them), so that each position is read once."""
        for item in items:
            if item is sgf.OPEN:
                opened.append((node, game, len(game.moves)))
            elif item is sgf.CLOSE:
                if not opened:
                    return
                node, game, moves = opened.pop()
                for _ in range(len(game.moves) - moves):
                    game.undo()
            else:
                assert isinstance(item, sgf.SgfNode)
                node, game = self.node(item, node, game, letters)

    def node(
        self, item: sgf.SgfNode, node: RecordNode, game: Game, letters: dict[str, str]
    ) -> tuple[RecordNode, Game]:
        """The record node for `item` below `node` (where `game` is played), and the game
        after it."""
        line = item.line
        setup = item.get("SP")
        if setup is not None:
            self.setups += 1
            if self.setups > MAX_SETUPS:
                raise RecordError(f"a record holds at most {MAX_SETUPS:,} set-up positions", line)
            try:
                game, setup = self.cls.read_position(setup)
            except RulesError as error:
                raise RecordError(f"the setup position SP: {error}", line) from None
            if game.options != self.record.options:
                raise RecordError("the setup position SP has other options", line)
        keys = [key for key in item.properties if key in letters]
        if len(keys) > 1:
            raise RecordError(f"a node holds one move, not {' and '.join(keys)}", line)
        move: str | None = None
        if keys:
            key = keys[0]
            text = item.properties[key][0]
            if letters[key] != game.side_to_move():
                raise RecordError(
                    f"the move {key}[{shown(text)}] is marked for {letters[key].capitalize()}, "
                    f"but it is {game.side_to_move().capitalize()}'s turn",
                    line,
                )
            try:
                move = game.move_name(game.play(text))
            except RulesError as error:
                raise RecordError(f"the move {key}[{shown(text)}]: {error}", line) from None
        elif setup is None:
            raise RecordError(
                f"a node after the first holds a move "
                f"({' or '.join(f'{k}[...]' for k in letters)}) or a setup SP[...]",
                line,
            )
        child = self.child(node, move, setup)
        child.comment = item.get("C") or ""
        if SHOWN in item.properties:
            self.mark(child, line)
        if len(item.properties) > 1:  # more than the move: its time left, maybe
            mover = keys[0] if keys else None
            child.time_left = read_time_left(
                item.properties, "".join(letters), mover, self.record.clock, line
            )
        return child, game

    def child(self, node: RecordNode, move: str | None, setup: str | None) -> RecordNode:
        """`node.add(move, setup)`, in constant time however many children it has."""
        if len(node.children) < WIDE:
            return node.add(move, setup)
        table = self.tables.get(node)
        if table is None:
            table = self.tables[node] = {(c.move, c.setup): c for c in reversed(node.children)}
        found = table.get((move, setup))
        if found is None:
            found = table[move, setup] = RecordNode(move=move, setup=setup, parent=node)
            node.children.append(found)
        return found


def _number(top: sgf.SgfNode, key: str, read: Callable[[str], N | None], what: str) -> N | None:
    """The root property `key` read as a number by `read`, None if absent."""
    text = top.get(key)
    if text is None:
        return None
    value = read(text)
    if value is None:
        raise OptionError(f"{what}, not '{shown(text)}'")
    return value


def too_long(size: int | None) -> str:
    """The message for a file over `MAX_SIZE` (of `size` bytes, or None if unknown)."""
    how_long = "larger" if size is None else f"{size:,} bytes long"
    return f"a record file is at most {MAX_MIB} MiB ({MAX_SIZE:,} bytes); this one is {how_long}"


def result_text(game: Game) -> str:
    """`<colour>+<margin>`, `draw`, or empty while the game is not over."""
    outcome = game.outcome()
    if outcome is None:
        return ""
    if outcome.winner is None:
        return "draw"
    points = game.score().points
    margin = abs(points[0] - points[1])
    return f"{game.colour_name(outcome.winner)}+{format_number(margin)}"
