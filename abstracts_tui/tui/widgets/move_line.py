"""The move line (`:`): a move typed, checked at each character beside the text, and
handed to the screen (`MoveLine.Typed`) once Enter is pressed on a legal move.

The keys stay where they were (the board, most of the time): while the line is open the
screen hands it every key first (`take`), and it keeps the characters, Backspace,
ctrl+u and Enter, and the keys that would move a cursor along the text; Esc and the
other keys go on to the screen's bindings. So opening and closing the line moves no
focus, which restyles widgets and draws the board again, and a character repaints
the line alone: the text (`MoveField`, drawn line by line, with a steady cursor) and
what the check says of it.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.strip import Strip
from textual.validation import Validator
from textual.widget import Widget
from textual.widgets import Static

from ...session import Session
from ..typed_move import typed_check

LONGEST_MOVE = 24
"""The most characters the line takes: more than any move's name, with spaces around it."""
PLACEHOLDER = "move"
"""What the empty line shows, under the cursor."""
ERASING = {"backspace": False, "ctrl+h": False, "ctrl+u": True}
"""Keys that erase the last character, or (True) all the text."""
STILL = {"left", "right", "up", "down", "home", "end", "delete"}
"""Keys that would move a cursor along the text or delete after it: kept by the line
(the cursor stays at the end), so that they do not move the board's cursor meanwhile."""


class MoveField(Widget):
    """The text typed so far, in the colours of a text field with the keys, the cursor
    after the last character (on the placeholder's first one while it is empty)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"move-field--cursor", "move-field--placeholder"}
    DEFAULT_CSS = """
    MoveField {
        height: 1;
        background: $surface;
        background-tint: $foreground 5%;
        color: $foreground;
        & > .move-field--cursor {
            background: $input-cursor-background;
            color: $input-cursor-foreground;
            text-style: $input-cursor-text-style;
        }
        & > .move-field--placeholder {
            color: $text-disabled;
        }
        &:ansi {
            background: ansi_default;
            color: ansi_default;
            & > .move-field--cursor {
                background: ansi_white;
                color: ansi_black;
            }
            & > .move-field--placeholder {
                text-style: dim;
                color: ansi_default;
            }
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = ""

    def show(self, text: str) -> None:
        """Show `text`; its line is repainted, nothing else."""
        if text != self.text:
            self.text = text
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y or width <= 0:
            return Strip.blank(width, self.rich_style)
        cursor = self.get_component_rich_style("move-field--cursor")
        if self.text:
            shown = self.text[-(width - 1) :] if width > 1 else ""  # the end stays in sight
            segments = [Segment(shown), Segment(" ", cursor)]
        else:
            placeholder = self.get_component_rich_style("move-field--placeholder")
            segments = [
                Segment(PLACEHOLDER[0], placeholder + cursor),
                Segment(PLACEHOLDER[1:], placeholder),
            ]
        strip = Strip(segments).crop_extend(0, width, None)
        return strip.apply_style(self.rich_style)


class CheckLine(Static):
    """What the check says of the text: one line of plain text, cut short with an
    ellipsis, drawn as it is (no markup, no wrapping to work out at each character)."""

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        text = str(self.content) if not y else ""
        if len(text) > width:
            text = text[: max(width - 1, 0)] + "…"
        style = self.rich_style
        # The text in the line's colours, the rest in its background, as Textual draws it.
        return Strip([Segment(text, style)]).crop_extend(0, width, Style(bgcolor=style.bgcolor))


class MoveLine(Horizontal):
    """The line where a move is typed, and what it says of the text so far."""

    class Typed(Message):
        """A legal move was typed and Enter pressed (`text`: as it was typed)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, session: Session, check: Validator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.check = check
        self.text = ""
        """What has been typed since the line opened."""
        self.field = MoveField(id="move-line")
        # What the check says is beside the text, on the line the status line gives up.
        self.said = CheckLine(id="move-check", markup=False)

    def compose(self) -> ComposeResult:
        yield self.field
        yield self.said

    def start(self) -> None:
        """An empty line (keys typed right after `:` belong to it: `take` them)."""
        self.retype("")

    def say(self, sentence: str) -> None:
        """What the line says of its text (one line, cut short with an ellipsis); the
        status line keeps what it said."""
        if str(self.said.content) != sentence:
            self.said.update(sentence, layout=False)

    def retype(self, text: str) -> None:
        """The text becomes `text`, checked."""
        self.text = text
        self.field.show(text)
        self.say(typed_check(self.session.game, text))

    def take(self, event: events.Key) -> bool:
        """Whether the line keeps `event`, a key pressed while it is open (the screen
        then stops it): characters, erasing, Enter, and the keys in `STILL`."""
        key = event.key
        if key == "enter":
            self.submit()
        elif key in ERASING:
            self.retype("" if ERASING[key] else self.text[:-1])
        elif event.is_printable and event.character is not None:
            self.add(event.character)
        else:
            return key in STILL
        return True

    def paste(self, text: str) -> None:
        """Text pasted while the line is open: its first line, added to the text."""
        lines = text.splitlines()
        self.add(lines[0] if lines else "")

    def add(self, characters: str) -> None:
        """`characters` typed after the text; refused with the bell past `LONGEST_MOVE`."""
        text = self.text + "".join(c for c in characters if c.isprintable())
        if len(text) > LONGEST_MOVE:
            self.text = text[:LONGEST_MOVE]
            self.field.show(self.text)
            self.say(f"Not taken: a move is typed in at most {LONGEST_MOVE} characters.")
            self.app.bell()
            return
        if text != self.text:
            self.retype(text)

    def submit(self) -> None:
        """Enter: the move to the screen if it is legal; else why not, the text kept to
        be corrected."""
        result = self.check.validate(self.text)
        if not result.is_valid:
            # Beside the text, which stays to be corrected: the status line is hidden.
            self.say("Not played: " + "; ".join(result.failure_descriptions))
            self.app.bell()
            return
        self.post_message(self.Typed(self.text))


class MoveTyping:
    """A screen's part in the move line (`move_line`, one of its widgets): while the
    line is open it takes the keys first, and pasted text; the footer leaves out the
    keys of the characters it takes, as it does for a focused text field."""

    move_line: MoveLine

    @property
    def typing(self) -> bool:
        """Whether the move line is open (in place of the status line)."""
        return self.move_line.display

    def on_key(self, event: events.Key) -> None:
        if self.typing and self.move_line.take(event):
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        if self.typing:
            event.stop()
            self.move_line.paste(event.text)

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return self.typing and character is not None and character.isprintable()
