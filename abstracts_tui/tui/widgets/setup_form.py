"""The home screen's own widgets of Textual's kinds: its text fields (`Field`), its Start
button (`StartButton`) and the list of games (`GameList`), each with only the styles the
screen uses. Textual's style sheets for these widgets, written for every form of each,
were a good part of the home screen's start-up."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Button, Input, OptionList
from textual.widgets.option_list import Option

from ...rules.catalogue import GameInfo

SUMMARY_WIDTH = 35  # the list is 40 wide: border, scrollbar gutter and padding take 5
"""Width the game summaries are wrapped to (the game list is 40 columns wide)."""


class Field(Input, inherit_css=False):
    """A text field of the setup: Textual's `Input` in its compact form, with only the
    styles the setup uses (Input's own style sheet, written for every form of input, was
    a good part of the home screen's start-up)."""

    COMPONENT_CLASSES = Input.COMPONENT_CLASSES
    DEFAULT_CSS = """
    Field {
        width: 1fr;
        height: 1;
        padding: 0 1;
        color: $foreground;
        background: $boost;
        /* Underlined so that a field still looks like one where the theme gives no
           background (16-colour and ANSI terminals). */
        text-style: underline;
        scrollbar-size-horizontal: 0;
        pointer: text;
        &:focus {
            text-style: bold;
            background-tint: $foreground 5%;
        }
        &.-invalid {
            background-tint: $error 20%;
        }
        & > .input--cursor {
            background: $input-cursor-background;
            color: $input-cursor-foreground;
            text-style: $input-cursor-text-style;
        }
        & > .input--selection {
            background: $input-selection-background;
            color: $input-selection-foreground;
        }
        & > .input--placeholder, & > .input--suggestion {
            color: $text-disabled;
        }
        &:ansi {
            color: ansi_default;
            & > .input--cursor {
                background: ansi_white;
                color: ansi_black;
            }
            & > .input--placeholder, & > .input--suggestion {
                text-style: dim;
                color: ansi_default;
            }
        }
    }
    """


class StartButton(Button, inherit_css=False):
    """The Start button: Textual's primary `Button` with only the styles of that one kind
    (Button's style sheet, for every kind, took longer to parse than any other)."""

    DEFAULT_CSS = """
    StartButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;
        text-style: bold;
        color: $button-color-foreground;
        background: $primary;
        border: none;
        border-top: tall $primary-lighten-3;
        border-bottom: tall $primary-darken-3;
        &:focus {
            text-style: $button-focus-text-style;
            background-tint: $foreground 5%;
        }
        &:hover {
            background: $primary-darken-2;
            border-top: tall $primary;
        }
        &.-active {
            background: $primary;
            border-bottom: tall $primary-lighten-3;
            border-top: tall $primary-darken-3;
            tint: $background 30%;
        }
        &:ansi {
            color: $primary;
            border: tall $primary;
            background: ansi_default;
            &:hover {
                background: $ansi-background;
                border: tall $border;
            }
            &.-active {
                background: $ansi-background !important;
                border: blank $background !important;
                tint: transparent;
            }
        }
    }
    """


def game_prompt(info: GameInfo, highlighted: bool) -> Content:
    """A game's entry in the list: a marker, the title in bold, the summary below it."""
    indent = "  "
    summary = textwrap.fill(
        info.summary, SUMMARY_WIDTH, initial_indent=indent, subsequent_indent=indent
    )
    return Content.assemble(
        "> " if highlighted else indent, (info.title, "bold"), "\n", (summary, "dim")
    )


class GameList(OptionList, inherit_css=False):
    """The list of games: Textual's `OptionList` with only the styles it uses here. It
    marks the highlighted game itself; the screen hears of it from `OptionHighlighted`."""

    COMPONENT_CLASSES = OptionList.COMPONENT_CLASSES
    DEFAULT_CSS = """
    GameList {
        height: auto;
        max-height: 100%;
        color: $foreground;
        overflow-x: hidden;
        background: $surface;
        & > .option-list--option-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .option-list--option-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        & > .option-list--option-hover {
            background: $block-hover-background;
        }
    }
    """

    def __init__(self, infos: Sequence[GameInfo], marked: int = 0, *, id: str) -> None:
        super().__init__(
            *(Option(game_prompt(info, i == marked), id=info.name) for i, info in enumerate(infos)),
            id=id,
        )
        self.infos = list(infos)
        self.marked = marked
        """The game whose entry has the marker."""

    def _on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # The marker follows the highlight; the message goes on to the screen.
        if event.option_list is not self or event.option_index == self.marked:
            return
        self.mark(self.marked, False)
        self.marked = event.option_index
        self.mark(self.marked, True)

    def mark(self, index: int, marked: bool) -> None:
        """Draw the entry of the game at `index` with the marker, or without it."""
        self.replace_option_prompt_at_index(index, game_prompt(self.infos[index], marked))
