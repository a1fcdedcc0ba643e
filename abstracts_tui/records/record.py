"""Game records: a whole game with its variations and comments, stored as SGF.

A record is a tree of `RecordNode`s. The root holds the game's options and, when the
game did not start from the empty board, a setup position; every other node holds one
move (or a setup position) and an optional comment. The first child of a node is the
main line, the others are variations. The README documents the file format.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__
from ..rules import (
    GAMES,
    Game,
    Options,
    RulesError,
    format_number,
    game_class,
    load_position,
)
from . import sgf

GM_NUMBER = "1000"
"""The private SGF GM value of abstracts-tui records (the property GA names the game)."""

ROOT_KEYS = ("FF", "GM", "CA", "AP", "GA", "SZ", "VR", "KM", "DT", "RE", "EV", "SP", "C", "AI")


class RecordError(ValueError):
    """A record that cannot be read; the message names the line of the fault."""


@dataclass(eq=False)
class RecordNode:
    """A node of the game tree: a move (or a setup position) and a comment."""

    move: str | None = None
    """The move in canonical notation; None at the root and at a setup node."""
    setup: str | None = None
    """A position string set up at this node (the root's is the start position)."""
    comment: str = ""
    children: list[RecordNode] = field(default_factory=list)
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

    def walk(self) -> Iterator[RecordNode]:
        """This node and every node below it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()


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
    extra: dict[str, list[str]] = field(default_factory=dict)
    """Root properties this program does not use, kept so that saving loses nothing."""

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
        """The game with the moves from the root down to `node` played."""
        path = []
        current: RecordNode | None = node
        while current is not None and current is not self.root:
            path.append(current)
            current = current.parent
        game = self.new_game()
        for step in reversed(path):
            if step.setup is not None:
                game = type(game).from_position(step.setup)
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
        props.update(self.extra)
        top = sgf.SgfNode(props)
        self._copy_children(self.root, top, self.new_game())
        return sgf.dumps(top)

    def _copy_children(self, node: RecordNode, out: sgf.SgfNode, game: Game) -> None:
        for child in node.children:
            props: dict[str, list[str]] = {}
            played = game
            if child.setup is not None:
                props["SP"] = [child.setup]
                played = type(game).from_position(child.setup)
            if child.move is not None:
                props[played.side_to_move()[0].upper()] = [child.move]
                played.play(child.move)
            if child.comment:
                props["C"] = [child.comment]
            sgf_child = sgf.SgfNode(props)
            out.children.append(sgf_child)
            self._copy_children(child, sgf_child, played)
            if played is game and child.move is not None:
                game.undo()

    @classmethod
    def from_sgf(cls, text: str) -> Record:
        """Read a record; raises `RecordError` naming the line of any fault.

        Every move of every variation is checked against the rules.
        """
        try:
            roots = sgf.parse(text)
        except sgf.SgfError as error:
            raise RecordError(str(error)) from None
        if len(roots) > 1:
            raise RecordError(
                f"line {roots[1].line}: this file holds {len(roots)} games; a record holds one"
            )
        top = roots[0]
        record = cls._read_root(top)
        game = record.new_game()
        record._read_children(top, record.root, game)
        return record

    @classmethod
    def _read_root(cls, top: sgf.SgfNode) -> Record:
        where = f"line {top.line}"
        name = top.get("GA")
        if top.get("GM") != GM_NUMBER or name is None:
            raise RecordError(
                f"{where}: not an abstracts-tui record (it needs GM[{GM_NUMBER}] and "
                f"GA[game], one of {', '.join(GAMES)})"
            )
        try:
            info = game_class(name).info
            size_text = top.get("SZ")
            size = int(size_text) if size_text is not None else None
            komi_text = top.get("KM")
            komi = float(komi_text) if komi_text is not None else None
            variant = top.get("VR")
            if komi is not None and not info.takes_komi(variant or "") and komi == 0:
                komi = None  # KM[0] on a game without komi is harmless
            options = info.options(size, variant, komi)
        except (RulesError, ValueError) as error:
            raise RecordError(f"{where}: {error}") from None
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
        for value in top.properties.get("AI", []):
            level, _, name = value.partition(":")
            if name in record.players:
                record.computers[name] = level
        setup = top.get("SP")
        if setup is not None:
            try:
                start = load_position(setup)
            except RulesError as error:
                raise RecordError(f"{where}: the setup position SP: {error}") from None
            if start.info.name != info.name or start.options != options:
                raise RecordError(
                    f"{where}: the setup position SP is a {start.info.name} "
                    f"{start.options.token(start.info)} position, but the record is "
                    f"{info.name} {options.token(info)}"
                )
            record.root.setup = start.position()
        colour_keys = {"P" + colour[0].upper() for colour in info.colours}
        record.extra = {
            key: values
            for key, values in top.properties.items()
            if key not in ROOT_KEYS and key not in colour_keys
        }
        return record

    def _read_children(self, top: sgf.SgfNode, node: RecordNode, game: Game) -> None:
        info = game.info
        letters = {colour[0].upper(): colour for colour in info.colours}
        for child in top.children:
            where = f"line {child.line}"
            setup = child.get("SP")
            played = game
            if setup is not None:
                try:
                    played = type(game).from_position(setup)
                except RulesError as error:
                    raise RecordError(f"{where}: the setup position SP: {error}") from None
                if played.options != game.options:
                    raise RecordError(f"{where}: the setup position SP has other options")
                setup = played.position()
            keys = [key for key in child.properties if key in letters]
            if len(keys) > 1:
                raise RecordError(f"{where}: a node holds one move, not {' and '.join(keys)}")
            move: str | None = None
            if keys:
                key = keys[0]
                text = child.properties[key][0]
                if letters[key] != played.side_to_move():
                    raise RecordError(
                        f"{where}: the move {key}[{text}] is marked for "
                        f"{letters[key].capitalize()}, but it is "
                        f"{played.side_to_move().capitalize()}'s turn"
                    )
                try:
                    move = played.move_name(played.play(text))
                except RulesError as error:
                    raise RecordError(f"{where}: the move {key}[{text}]: {error}") from None
            elif setup is None:
                raise RecordError(
                    f"{where}: a node after the first holds a move "
                    f"({' or '.join(f'{k}[...]' for k in letters)}) or a setup SP[...]"
                )
            new = node.add(move, setup)
            new.comment = child.get("C") or ""
            self._read_children(child, new, played)
            if played is game and move is not None:
                game.undo()

    def save(self, path: str | Path) -> None:
        """Write the record to `path` as SGF (UTF-8)."""
        Path(path).write_text(self.to_sgf(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; raises `RecordError` (or `OSError` if it cannot be read)."""
        data = Path(path).read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise RecordError(f"line {line}: the file is not UTF-8 text") from None
        return cls.from_sgf(text)


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
