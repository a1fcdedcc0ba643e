"""Analysis of a game at one screen: stepping through the record, its variations, the
main line (going back to it, promoting a line to it, deleting a variation), comments and
jumps to a move number.

Each step changes the session (which tells its listeners what changed) and returns the
sentence that says what became of it, so that any front end can say it as it is.
"""

from __future__ import annotations

from ..records import RecordNode
from ..rules.catalogue import read_int
from ..session import Session

START = "This is the start."
END = "This is the end of the line."


class Analysis:
    """The analysis commands over one session's record."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def said(self, moved: bool, nothing: str) -> str:
        """`Move 4. Blue to move.` (with the comment kept there) after a step; `nothing`
        where the step went nowhere."""
        if not moved:
            return nothing
        session = self.session
        comment = f" Comment: {session.node.comment}" if session.node.comment else ""
        return f"Move {session.move_number()}. {session.turn_text()}.{comment}"

    @property
    def last(self) -> int:
        """The number of the last move of the line shown."""
        return len(self.session.line_nodes())

    def back(self) -> str:
        return self.said(self.session.back(), START)

    def forward(self) -> str:
        return self.said(self.session.forward(), END)

    def leap(self, moves: int) -> str:
        """`moves` back (negative) or on along the line, stopping at either end."""
        here = self.session.move_number()
        target = max(0, min(self.last, here + moves))
        edge = START if moves < 0 else END
        return self.said(target != here and self.session.jump(target), edge)

    def to_start(self) -> str:
        return self.said(self.session.jump(0), START)

    def to_end(self) -> str:
        return self.said(self.session.jump(self.last), "")

    def jump(self, number: int) -> str:
        """The position after move `number` of the line shown (0: the start)."""
        return self.said(self.session.jump(number), "")

    def move_number(self, text: str) -> int | None:
        """The move number `text` names on the line shown, if it names one (ASCII digits
        only: int() refuses `²`, which str.isdigit() takes)."""
        found = read_int(text.strip())
        return found if found is not None and 0 <= found <= self.last else None

    def jump_check(self, text: str) -> str | None:
        """What a move number to go to must be, where `text` is not one; None if it is."""
        return None if self.move_number(text) is not None else self.jump_hint()

    def jump_hint(self) -> str:
        return f"a number from 0 (the start) to {self.last}"

    def variation(self, step: int) -> str:
        """The next (`step` 1) or previous (-1) move tried in the position before this one."""
        session = self.session
        count = len(session.variations())
        if not session.switch_variation(step):
            return "No other move was tried here."
        index = session.variations().index(session.node) + 1
        return f"Variation {index} of {count}: {session.turn_text()}."

    def branch_point(self) -> RecordNode:
        """The last position the line shown shares with the main line."""
        node = self.session.node
        while not node.on_main_line():
            assert node.parent is not None  # the root is on the main line
            node = node.parent
        return node

    def main_line(self, promote_key: str) -> str:
        """Back to where the line shown left the main line (the record stays as it is)."""
        session = self.session
        if session.on_main_line():
            return (
                f"This is the main line already ({promote_key} makes the line shown the main line)."
            )
        session.go_to(self.branch_point())
        return f"Back to the main line, move {session.move_number()}: {session.turn_text()}."

    def promote_question(self, main_line_key: str) -> str | None:
        """What to ask before the line shown becomes the main line; None on the main line."""
        if self.session.on_main_line():
            return None
        parted = len(self.branch_point().line()) + 1
        return (
            f"Make this line the main line? The main line's moves from move {parted} on "
            f"become a variation, and a save keeps this line as the game ({main_line_key} only "
            "goes back to the main line)."
        )

    def promote(self) -> str | None:
        """Make the line shown the main line, the main line's own moves from where they
        part a variation; what is said of it (None if nothing changed)."""
        if self.session.promote():
            return "This line is now the main line; the one it replaced is a variation."
        return None

    def delete_question(self) -> str | None:
        """What to ask before the variation shown is deleted; None where there is none."""
        session = self.session
        if session.node.parent is None or session.on_main_line():
            return None
        positions = sum(1 for _ in session.node.walk())
        return f"Delete this variation ({positions} position{'s' * (positions != 1)} from here on)?"

    def delete(self) -> str | None:
        return "Variation deleted." if self.session.delete_variation() else None

    def comment_prompt(self) -> str:
        """What the comment's dialog asks."""
        number = self.session.move_number()
        where = f"move {number}" if number else "the game"
        return f"A comment on {where} (saved with the record):"

    def comment(self, text: str) -> str:
        """Keep `text` as the comment of the position shown (blank: remove it)."""
        self.session.set_comment(text)
        return "Comment kept." if text.strip() else "Comment removed."


MAIN_LINE_ALREADY = "This is the main line already."
ONLY_VARIATIONS = "Only a variation can be deleted (promote another line first)."
