"""A room's chat line: cleaned of anything a terminal or rich would act on, bounded, and
rate-limited per person."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from abstracts_tui.commands import CHAT_LIMIT
from abstracts_tui.rooms.chat import (
    BURST,
    Chat,
    ChatLine,
    ChatRefused,
    Rates,
    check_line,
    clean,
)


class Time:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("hello", "hello"),
        ("  two\nlines\r\n and\ta tab ", "two lines and a tab"),
        ("\x1b[2J\x1b[31mred\x1b[0m", "red"),  # clear screen, colours: gone
        ("\x1b]0;owned\x07title", "title"),  # a window title
        ("\x1b]52;c;c2VjcmV0\x1b\\clip", "clip"),  # the clipboard, ST-terminated
        ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),  # a hyperlink
        ("\x9b2Jeight-bit", "eight-bit"),
        ("bell\x07 and nul\x00", "bell and nul"),
        ("\u202eevil\u202c txt", "evil txt"),  # a right-to-left override
        ("zero\u200bwidth", "zerowidth"),
        ("[bold red]not markup[/]", "[bold red]not markup[/]"),
        ("日本語 é ♟", "日本語 é ♟"),
    ],
)
def test_a_line_is_cleaned_of_what_a_terminal_would_act_on(typed: str, shown: str) -> None:
    assert clean(typed) == shown


def test_a_cleaned_line_writes_no_escape_to_the_terminal() -> None:
    hostile = "\x1b[2J\x1b]0;x\x07[link=http://x]hi[/link]\x1b[?1049h\u202e"
    console = Console(force_terminal=True, color_system=None, width=80, record=False)
    with console.capture() as captured:
        console.print(Text(clean(hostile)))
    assert "\x1b" not in captured.get()
    assert captured.get().strip() == "[link=http://x]hi[/link]"


def test_a_line_too_long_or_empty_is_refused_with_a_sentence() -> None:
    assert check_line("x" * CHAT_LIMIT) == "x" * CHAT_LIMIT
    with pytest.raises(ChatRefused, match=f"at most {CHAT_LIMIT} characters, not 301"):
        check_line("x" * (CHAT_LIMIT + 1))
    for empty in ("", "   ", "\x1b[31m\x1b[0m", "\u200b"):
        with pytest.raises(ChatRefused, match="nothing to say"):
            check_line(empty)


def test_each_person_has_a_burst_then_a_steady_rate() -> None:
    time = Time()
    rates = Rates(time)
    for _ in range(BURST):
        rates.take("ann")
    with pytest.raises(ChatRefused, match=r"wait 2 s"):
        rates.take("ann")
    rates.take("bob")  # another person's allowance is their own
    time.now += 2.0
    rates.take("ann")
    with pytest.raises(ChatRefused):
        rates.take("ann")


def test_the_chat_keeps_the_newest_lines_and_tells_its_listeners() -> None:
    chat = Chat()
    heard: list[ChatLine] = []
    chat.listeners.append(heard.append)
    chat.add(ChatLine("carol", "hi\x1b[31m all", watcher=True))
    assert heard == [ChatLine("carol", "hi all", watcher=True)]
    for number in range(300):
        chat.add(ChatLine("ann", str(number)))
    assert len(chat.lines) == 200 and chat.lines[-1].text == "299"
