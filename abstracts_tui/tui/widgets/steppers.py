"""Values chosen with left and right: `Stepper` (`< 8 x 8 >`), the setup's rows that put a
label and a hint beside one (`ChoiceRow`), the board size, which may also be typed
(`SizeRow`), and who plays a seat (`SeatStepper`). Each posts `Stepper.Changed` when the
user picks another value."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.style import Style
from textual.widget import Widget

_CHANGE = Binding.Group("Change")


class Stepper(Widget, can_focus=True):
    """One value out of a short list, changed with left/right: `< 8 x 8 >`."""

    DEFAULT_CSS = """
    Stepper {
        width: auto;
        height: 1;
        padding: 0 1;
    }
    Stepper:focus {
        text-style: reverse bold;
    }
    """
    BINDINGS = [
        Binding("left,h,minus", "step(-1)", "", key_display="←", group=_CHANGE, id="stepper.less"),
        Binding("right,l,plus", "step(1)", "", key_display="→", group=_CHANGE, id="stepper.more"),
    ]

    index: reactive[int] = reactive(0, layout=True)  # "< 10 x 10 >" is wider than "< 9 x 9 >"

    @dataclass
    class Changed(Message):
        """The user picked another value."""

        stepper: Stepper
        index: int

        @property
        def control(self) -> Stepper:
            return self.stepper

    def __init__(self, labels: list[str], index: int = 0, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels = labels
        self.set_reactive(Stepper.index, index)

    def set_choices(self, labels: list[str], index: int) -> None:
        """Show other values (no `Changed` message: the user did not pick them)."""
        self.labels = labels
        self.set_reactive(Stepper.index, index)
        self.refresh(layout=True)

    def render(self) -> Content:
        label = self.labels[self.index] if self.labels else ""
        return Content(f"< {label} >")

    def action_step(self, delta: int) -> None:
        index = max(0, min(len(self.labels) - 1, self.index + delta))
        if index != self.index:
            self.index = index
            self.post_message(self.Changed(self, index))

    def on_click(self, event: events.Click) -> None:
        self.action_step(-1 if event.x < self.size.width // 2 else 1)


class ChoiceRow(Stepper, inherit_css=False):
    """A whole field of the setup on one line, drawn by one widget: its label, the value
    between arrows and a hint, `Board size  < 8 x 8 >  6 to 10`. Changed as a `Stepper`
    (left/right, or a click on either half of the value); a click elsewhere focuses it."""

    COMPONENT_CLASSES = {"choice-row--label", "choice-row--value", "choice-row--hint"}
    DEFAULT_CSS = """
    ChoiceRow {
        width: 1fr;
        height: 1;
        & > .choice-row--label {
            color: $text-muted;
        }
        & > .choice-row--hint {
            color: $text-muted;
        }
        &:focus {
            & > .choice-row--label {
                color: $text;
                text-style: bold reverse;
            }
            & > .choice-row--value {
                text-style: bold reverse;
            }
        }
    }
    """
    LABEL_WIDTH = 11

    def __init__(
        self, label: str, labels: list[str], index: int = 0, *, hint: str = "", id: str
    ) -> None:
        super().__init__(labels, index, id=id)
        self.label = label
        self.hint = hint

    def set_hint(self, hint: str) -> None:
        self.hint = hint
        self.refresh()

    def _value_span(self) -> tuple[int, int]:
        """The columns of `< value >`, whose halves step down and up."""
        start = self.LABEL_WIDTH + 1
        if not self.labels:
            return start, start
        return start, start + len(f"< {self.labels[self.index]} >")

    def render(self) -> Content:
        value = f"< {self.labels[self.index]} >" if self.labels else ""
        parts: list[str | tuple[str, Style]] = [
            (self.label, self._style("choice-row--label")),
            " " * (self.LABEL_WIDTH - len(self.label) + 1),
            (value, self._style("choice-row--value")),
        ]
        if self.hint:
            parts += ["  ", (self.hint, self._style("choice-row--hint"))]
        return Content.assemble(*parts)

    def _style(self, component: str) -> Style:
        # From the Rich style: Widget.get_visual_style leaves out `reverse`.
        return Style.from_rich_style(self.get_component_rich_style(component))

    def on_click(self, event: events.Click) -> None:
        event.prevent_default()  # not Stepper's: the value is not the whole widget
        start, end = self._value_span()
        if start <= event.x < end:
            self.action_step(-1 if event.x < (start + end) // 2 else 1)


class SizeRow(ChoiceRow):
    """The board size: stepped as any `ChoiceRow`, or typed (`1`, `3`: 13). Digits
    gather while they may still begin a size; a number that is no size is refused with
    `Note(error=True)`, and the size stays."""

    @dataclass
    class Note(Message):
        """What to say under the row ("" when nothing is)."""

        text: str
        error: bool = False

    def __init__(self, *, id: str) -> None:
        super().__init__("Board size", [], id=id)
        self.sizes: list[int] = []
        self.title = ""
        self.typed = ""
        """The digits typed so far of a size not complete yet."""

    def set_sizes(self, title: str, sizes: list[int], labels: list[str], size: int) -> None:
        """Offer `sizes` of the game `title`, `size` chosen."""
        self.title = title
        self.sizes = sizes
        self.typed = ""
        self.set_choices(labels, sizes.index(size))
        self.set_hint(f"{sizes[0]} to {sizes[-1]}")

    def on_key(self, event: events.Key) -> None:
        if event.character is None or not event.character.isdigit():
            return
        event.stop()
        event.prevent_default()
        self.type_digit(event.character)

    def type_digit(self, digit: str) -> None:
        text = self.typed + digit
        self.typed = ""
        if not self.begins_a_size(text):
            self.app.bell()
            last = self.sizes[-1]
            self.post_message(
                self.Note(
                    f"{self.title} is played on sizes {self.sizes[0]} to {last}, not {text}.",
                    error=True,
                )
            )
            return
        if int(text) in self.sizes:
            self.choose(self.sizes.index(int(text)))
        if any(str(size).startswith(text) and str(size) != text for size in self.sizes):
            self.typed = text  # 1 of 13: the next digit goes on from it
            self.post_message(self.Note(f"Typed {text}: one more digit."))
        else:
            self.post_message(self.Note(""))

    def begins_a_size(self, text: str) -> bool:
        return any(str(size).startswith(text) for size in self.sizes)

    def choose(self, index: int) -> None:
        if index != self.index:
            self.index = index
            self.post_message(self.Changed(self, index))

    def action_step(self, delta: int) -> None:
        self.typed = ""
        self.post_message(self.Note(""))
        super().action_step(delta)

    def on_blur(self) -> None:
        if self.typed:
            self.typed = ""
            self.post_message(self.Note(""))


class SeatStepper(Stepper):
    """Who plays a seat: a person (the first value), or the computer at one of the levels
    after it. The first step away from the person lands on `computer`, the level the
    settings give the computer, rather than on the weakest; from there the steps go on
    through the levels as in any `Stepper`."""

    def __init__(
        self, labels: list[str], index: int = 0, *, computer: int = 1, id: str | None = None
    ) -> None:
        super().__init__(labels, index, id=id)
        self.computer = computer
        """The index of the computer's level the first step from a person goes to."""

    def action_step(self, delta: int) -> None:
        if not step_to_computer(self, delta, self.computer):
            super().action_step(delta)


def step_to_computer(stepper: Stepper, delta: int, computer: int) -> bool:
    """A seat's first step up from a person (index 0) lands on `computer`, the settings'
    level; whether it did (else the stepper steps as usual)."""
    if stepper.index == 0 and delta > 0 and 0 < computer < len(stepper.labels):
        stepper.index = computer
        stepper.post_message(stepper.Changed(stepper, computer))
        return True
    return False
