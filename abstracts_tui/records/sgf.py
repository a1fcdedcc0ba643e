"""SGF syntax (FF[4]): a game tree of nodes, each a list of properties.

Only the syntax lives here; what the properties mean for abstracts-tui is in
`record.py`. Errors carry the line and column of the fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class SgfError(ValueError):
    """Malformed SGF text; the message names the line and column of the fault."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column


@dataclass
class SgfNode:
    """One node: properties in the order read, each with one or more values."""

    properties: dict[str, list[str]] = field(default_factory=dict)
    children: list[SgfNode] = field(default_factory=list)
    line: int = 0
    """Where the node starts in the text it was read from (0 when built in code)."""

    def get(self, key: str) -> str | None:
        values = self.properties.get(key)
        return values[0] if values else None


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def where(self, pos: int | None = None) -> tuple[int, int]:
        pos = self.pos if pos is None else pos
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return line, column

    def fail(self, message: str, pos: int | None = None) -> SgfError:
        return SgfError(message, *self.where(pos))

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str, what: str) -> None:
        if self.peek() != char:
            found = repr(self.text[self.pos]) if self.pos < len(self.text) else "the end"
            raise self.fail(f"expected {what}, found {found}")
        self.pos += 1

    def tree(self) -> SgfNode:
        """GameTree = "(" Sequence { GameTree } ")"; returns the first node of the sequence."""
        start = self.pos
        self.expect("(", "'(' to open a game tree")
        if self.peek() != ";":
            raise self.fail("a game tree must start with a node ';'")
        first: SgfNode | None = None
        last: SgfNode | None = None
        while self.peek() == ";":
            node = self.node()
            if last is None:
                first = node
            else:
                last.children.append(node)
            last = node
        assert first is not None and last is not None
        while self.peek() == "(":
            last.children.append(self.tree())
        if self.peek() != ")":
            if self.pos >= len(self.text):
                raise self.fail("the game tree opened here is never closed", start)
            raise self.fail(f"expected ';', '(' or ')', found {self.text[self.pos]!r}")
        self.pos += 1
        return first

    def node(self) -> SgfNode:
        self.skip_space()
        node = SgfNode(line=self.where()[0])
        self.pos += 1  # the ';'
        while self.peek().isalpha():
            key_start = self.pos
            while self.pos < len(self.text) and self.text[self.pos].isalpha():
                self.pos += 1
            key = self.text[key_start : self.pos]
            if not key.isupper() or not key.isascii():
                raise self.fail(f"property names are upper-case letters, not '{key}'", key_start)
            if key in node.properties:
                raise self.fail(f"property {key} appears twice in one node", key_start)
            if self.peek() != "[":
                raise self.fail(f"property {key} has no value in [ ]")
            values = []
            while self.peek() == "[":
                values.append(self.value())
            node.properties[key] = values
        return node

    def value(self) -> str:
        start = self.pos
        self.pos += 1  # the '['
        chars: list[str] = []
        text = self.text
        while True:
            if self.pos >= len(text):
                raise self.fail("a value opened here is never closed with ']'", start)
            char = text[self.pos]
            if char == "]":
                self.pos += 1
                return "".join(chars)
            if char == "\\":
                self.pos += 1
                if self.pos < len(text):
                    escaped = text[self.pos]
                    if escaped == "\r" and text[self.pos + 1 : self.pos + 2] == "\n":
                        self.pos += 1
                    if escaped not in "\r\n":  # an escaped line break is removed (soft break)
                        chars.append(escaped)
                    self.pos += 1
                continue
            chars.append(char)
            self.pos += 1


def parse(text: str) -> list[SgfNode]:
    """Parse a collection of game trees; returns the root node of each."""
    reader = _Reader(text)
    roots = []
    while reader.peek() == "(":
        roots.append(reader.tree())
    if reader.pos < len(text):
        raise reader.fail(f"expected '(' to open a game tree, found {text[reader.pos]!r}")
    if not roots:
        raise SgfError("no game tree found: an SGF file starts with '(;'", 1, 1)
    return roots


def escape(value: str) -> str:
    """A property value with `]` and `\\` escaped."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def dumps(root: SgfNode) -> str:
    """SGF text for the tree below `root`: one node per line, variations in parentheses."""
    out: list[str] = []
    _write_sequence(root, out, 0)
    return "".join(out) + "\n"


def _node_text(node: SgfNode) -> str:
    return ";" + "".join(
        key + "".join(f"[{escape(value)}]" for value in values)
        for key, values in node.properties.items()
    )


def _write_sequence(node: SgfNode, out: list[str], depth: int) -> None:
    indent = "  " * depth
    out.append(f"{indent}(")
    current = node
    out.append(_node_text(current))
    while len(current.children) == 1:
        current = current.children[0]
        out.append("\n" + indent + " " + _node_text(current))
    for child in current.children:
        out.append("\n")
        _write_sequence(child, out, depth + 1)
    out.append(")" if depth else "\n)")
