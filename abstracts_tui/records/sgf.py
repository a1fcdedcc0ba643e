"""SGF syntax (FF[4]): a game tree of nodes, each a list of properties.

Only the syntax lives here; what the properties mean for abstracts-tui is in
`record.py`. Errors carry the line and column of the fault.

Reading and writing take time and memory in proportion to the text, whatever its shape:
no recursion (a tree nested 100,000 levels deep reads like a flat one), values taken in
slices rather than a character at a time, and line numbers counted once as the reader
moves on. The reader stops at `MAX_NODES` nodes and `MAX_VALUES` property values, so that
the rules' checks of each node, which follow it, take a bounded time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..rules.errors import shown
from .errors import RecordError

MAX_NODES = 50_000
"""The most nodes (moves and set-ups) of a collection: a game of several hundred moves
with hundreds of variations is a few thousand; reading this many, each checked against
the rules, takes about a second."""
MAX_VALUES = 4 * MAX_NODES
"""The most property values of a collection: a node of a record holds a move, its time
left, its periods left and a comment at most."""

MAX_INDENT = 16
"""Variations are indented by their depth up to this many levels, then no further: the
text of a deeply nested tree stays in proportion to its nodes."""

OPEN = "("
CLOSE = ")"
"""What `read` yields where a game tree opens and closes."""

_SPACE = re.compile(r"\s*")
_NAME = re.compile(r"[^\W\d_]+")
"""A run of letters: property names are upper-case ASCII, anything else is reported."""
_VALUE = re.compile(r"\[((?:[^\]\\]++|\\.)*+)\]", re.DOTALL)
"""A whole value with its escapes: runs of plain text taken at once, never gone back over
(possessive), so that a value made of escapes is read in one pass too."""
_PLAIN = re.compile(r"\s*([A-Z]+)\s*\[([^\]\\]*)\](?!\s*\[)")
"""A property of one value without escapes, the common case, read in one match."""


class SgfError(RecordError):
    """Malformed SGF text; the message names the line and column of the fault."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message, line, column)


@dataclass(eq=False, slots=True)
class SgfNode:
    """One node: properties in the order read, each with one or more values."""

    properties: dict[str, list[str]] = field(default_factory=dict)
    children: list[SgfNode] = field(default_factory=list, repr=False)
    line: int = 0
    """Where the node starts in the text it was read from (0 when built in code)."""

    def get(self, key: str) -> str | None:
        values = self.properties.get(key)
        return values[0] if values else None


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self._line = 1
        self._counted = 0
        """Newlines before `_counted` are counted in `_line`: the reader only moves on."""
        self.nodes = 0
        self.values = 0

    def line(self) -> int:
        """The line of the current position (counting only the text since the last call)."""
        self._line += self.text.count("\n", self._counted, self.pos)
        self._counted = self.pos
        return self._line

    def fail(self, message: str, pos: int | None = None) -> SgfError:
        pos = self.pos if pos is None else pos
        line = self.text.count("\n", 0, pos) + 1  # once, for the one error reported
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return SgfError(message, line, column)

    def peek(self) -> str:
        """The next character after white space ('' at the end), which it skips."""
        match = _SPACE.match(self.text, self.pos)
        assert match is not None  # `\s*` matches everywhere
        self.pos = match.end()
        return self.text[self.pos : self.pos + 1]

    def found(self) -> str:
        return repr(self.text[self.pos]) if self.pos < len(self.text) else "the end"

    def tree(self) -> Iterator[SgfNode | str]:
        """GameTree = "(" Sequence { GameTree } ")", as `read` yields it.

        The trees still open are a list of where each one opened, not the call stack.
        """
        text = self.text
        space = _SPACE.match
        opened: list[int] = []
        while True:
            opened.append(self.pos)  # at a "("
            self.pos += 1
            yield OPEN
            if self.peek() != ";":
                raise self.fail("a game tree must start with a node ';'")
            while True:
                yield self.node()
                pos = self.pos = space(text, self.pos).end()  # type: ignore[union-attr]
                char = text[pos : pos + 1]
                if char != ";":
                    break
            while char == ")":
                opened.pop()
                yield CLOSE
                if not opened:
                    self.pos += 1
                    return
                pos = self.pos = space(text, self.pos + 1).end()  # type: ignore[union-attr]
                char = text[pos : pos + 1]
            if char == "(":
                continue
            if not char:
                raise self.fail("the game tree opened here is never closed", opened[-1])
            raise self.fail(f"expected ';', '(' or ')', found {self.found()}")

    def node(self) -> SgfNode:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(f"a record holds at most {MAX_NODES:,} nodes (moves and set-ups)")
        node = SgfNode(line=self.line())
        self.pos += 1  # the ';'
        text = self.text
        properties = node.properties
        while self.values < MAX_VALUES:
            plain = _PLAIN.match(text, self.pos)
            if plain is None or plain.group(1) in properties:
                break  # anything else, or a fault: read as below
            self.values += 1
            properties[plain.group(1)] = [plain.group(2)]
            self.pos = plain.end()
        while True:
            self.peek()
            name = _NAME.match(text, self.pos)
            if name is None:
                return node
            key = name.group()
            if not key.isupper() or not key.isascii():
                raise self.fail(f"property names are upper-case letters, not '{shown(key)}'")
            if key in node.properties:
                raise self.fail(f"property {shown(key)} appears twice in one node")
            self.pos = name.end()
            if self.peek() != "[":
                raise self.fail(f"property {shown(key)} has no value in [ ]")
            values = []
            while self.peek() == "[":
                self.values += 1
                if self.values > MAX_VALUES:
                    raise self.fail(f"a record holds at most {MAX_VALUES:,} property values")
                values.append(self.value())
            node.properties[key] = values

    def value(self) -> str:
        text = self.text
        start = self.pos  # at the "["
        end = text.find("]", start + 1)
        if end >= 0 and text.find("\\", start + 1, end) < 0:
            self.pos = end + 1
            return text[start + 1 : end]
        close = _VALUE.match(text, start)
        if close is None:
            raise self.fail("a value opened here is never closed with ']'", start)
        self.pos = close.end()
        return unescape(close.group(1))


def unescape(raw: str) -> str:
    """A value's text with its escapes undone: `\\x` is `x`, and a backslash before a line
    break removes both (a soft break). Done with whole-string replacements, so a value
    made of escapes reads as fast as any other."""
    # Backslashes pair from the left, as str.replace scans: set the escaped ones aside
    # as a character the value does not hold.
    hold = "\0"
    if hold in raw:
        used = set(raw)
        hold = next(chr(code) for code in range(1, 0x110000) if chr(code) not in used)
    text = raw.replace("\\\\", hold)
    for soft in ("\\\r\n", "\\\n", "\\\r"):
        text = text.replace(soft, "")
    return text.replace("\\", "").replace(hold, "\\")


def read(text: str) -> Iterator[SgfNode | str]:
    """The collection as a stream: `OPEN` where a game tree opens, each node as soon as
    it is read (its `children` left empty), `CLOSE` where a tree closes. A reader that
    checks each node as it comes stops at the first fault without building the tree.
    Raises `SgfError` where the text breaks the syntax."""
    reader = _Reader(text)
    found = False
    while reader.peek() == "(":
        found = True
        yield from reader.tree()
    if reader.pos < len(text):
        raise reader.fail(f"expected '(' to open a game tree, found {reader.found()}")
    if not found:
        raise SgfError("no game tree found: an SGF file starts with '(;'", 1, 1)


def parse(text: str) -> list[SgfNode]:
    """Parse a collection of game trees; returns the root node of each."""
    roots: list[SgfNode] = []
    last: SgfNode | None = None
    """The node the next one follows (None before a game's first node)."""
    opened: list[SgfNode | None] = []
    """For each tree open, the node its variation hangs from."""
    for item in read(text):
        if item is OPEN:
            opened.append(last)
        elif item is CLOSE:
            last = opened.pop()
        else:
            assert isinstance(item, SgfNode)
            if last is None:
                roots.append(item)
            else:
                last.children.append(item)
            last = item
    return roots


def escape(value: str) -> str:
    """A property value with `]` and `\\` escaped."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def dumps(root: SgfNode) -> str:
    """SGF text for the tree below `root`: one node per line, variations in parentheses."""
    out: list[str] = []
    # Each entry: a node that starts a sequence at that depth, or None: close one.
    todo: list[tuple[SgfNode | None, int]] = [(root, 0)]
    while todo:
        node, depth = todo.pop()
        if node is None:
            out.append(")" if depth else "\n)")
            continue
        indent = "  " * min(depth, MAX_INDENT)
        out.append(f"\n{indent}(" if depth else "(")
        out.append(_node_text(node))
        while len(node.children) == 1:
            node = node.children[0]
            out.append("\n" + indent + " " + _node_text(node))
        todo.append((None, depth))
        todo.extend((child, depth + 1) for child in reversed(node.children))
    return "".join(out) + "\n"


def _node_text(node: SgfNode) -> str:
    return ";" + "".join(
        key + "".join(f"[{escape(value)}]" for value in values)
        for key, values in node.properties.items()
    )
