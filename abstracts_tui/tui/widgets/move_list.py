"""The move list of the play screen: the line played, appended to move by move.

In play a new move adds one line; the whole list is built again only when another line
is shown (an undo, a step or a variation in analysis), and even then the moves are
named from the record, not replayed. Analysis shows the line on past the position shown,
with `>` at it and that line kept in the middle of the list, `(i/n)` where a move has
alternatives and `*` where it has a comment.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from ...records import RecordNode
from ...session import Change, Changed, Session
from ..textual_internals import SteadyScroll, SteadyStatic
from .steady_text import show_text


class MoveList(SteadyScroll, can_focus=False):
    """The moves of the line shown, one a line."""

    DEFAULT_CSS = """
    MoveList {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.nodes: list[RecordNode] = []
        self.lines: list[str] = []
        """The text of each node's line, without the `>` of the position shown."""
        self.analysing = False
        self.kept: int | None = None
        """The line kept in view: the position shown's in analysis, None for the last."""

    def compose(self) -> ComposeResult:
        yield SteadyStatic("No moves yet.", id="moves", markup=False)

    def show(self, session: Session, changed: Changed | None = None, *, analysing: bool) -> None:
        """Show the line after `changed` (None: build it again)."""
        node = session.node
        appended = (
            changed is not None
            and changed.change is Change.MOVE
            and not analysing
            and not self.analysing
            and node.parent is (self.nodes[-1] if self.nodes else session.record.root)
            and len(self.nodes) == len(node.line()) - 1
        )
        self.analysing = analysing
        if appended:
            assert changed is not None
            self.nodes.append(node)
            self.lines.append(self._line(session, node, len(self.nodes), changed.mover))
        else:
            self._build(session)
        self._draw(session)

    def _build(self, session: Session) -> None:
        nodes = session.line_nodes() if self.analysing else session.node.line()
        self.nodes = nodes
        self.lines = [
            self._line(session, node, number, mover)
            for number, (node, mover) in enumerate(
                zip(nodes, session.movers(nodes), strict=True), start=1
            )
        ]

    @staticmethod
    def _line(session: Session, node: RecordNode, number: int, mover: int | None) -> str:
        if node.setup is not None:
            text = "(position set up)"
        elif node.move is not None and mover is not None:
            colour = session.game.info.colours[mover].capitalize()
            text = f"{colour:<11}{node.move}"
        else:
            text = ""
        marks = ""
        siblings = node.parent.children if node.parent is not None else [node]
        if len(siblings) > 1:
            marks += f" ({siblings.index(node) + 1}/{len(siblings)})"
        if node.comment:
            marks += " *"
        return f"{number:>3}. {text}{marks}"

    def _draw(self, session: Session) -> None:
        here = session.node
        if self.analysing:
            text = "\n".join(
                (">" if node is here else " ") + line
                for node, line in zip(self.nodes, self.lines, strict=True)
            )
        else:
            text = "\n".join(" " + line for line in self.lines)
        show_text(self.query_one("#moves", Static), text or "No moves yet.")
        shown = next((i for i, node in enumerate(self.nodes) if node is here), None)
        self.kept = shown if self.analysing else None
        if not self._anchor_if_long():
            # After the new lines are laid out, or the scroll is held to the old length.
            self.call_after_refresh(self._keep_in_view)

    def _anchor_if_long(self) -> bool:
        """Keep the last line in view as the list grows, in the layout that lays a new
        line out (scrolled after it, each move laid the screen out twice), where the
        list is longer than its box (an anchored short list is drawn at the box's
        bottom); whether it is."""
        height = self.scrollable_content_region.height
        long = self.kept is None and 0 < height < len(self.lines)
        if long != self.is_anchored:
            self.anchor(long)
        return long

    def on_resize(self) -> None:
        # The panels beside grow and shrink as a search reports: the list with them.
        self._anchor_if_long()
        self._keep_in_view()

    def _keep_in_view(self) -> None:
        """The line of the position shown in the middle of the list (None: the last)."""
        line = self.kept
        if line is None:
            self.scroll_end(animate=False, immediate=True)
            return
        middle = max(0, line - self.scrollable_content_region.height // 2)
        self.scroll_to(y=middle, animate=False, immediate=True)
