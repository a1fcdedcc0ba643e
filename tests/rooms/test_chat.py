"""A room's chat line: cleaned of anything a terminal or rich would act on, bounded, and
rate-limited per person."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from abstracts_tui.commands import CHAT_LIMIT
from abstracts_tui.rooms import chat
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
        ("a\u2800\u2800\u2800b\u3164\u3164c\u00a0\u3000d", "a b c d"),  # blanks: one space
        ("vs\ufe0f16 cgj\u034f", "vs16 cgj"),  # default-ignorable, not format characters
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


@pytest.mark.parametrize(
    "blank",
    [
        "\u3164" * 20,  # Hangul filler
        "\u115f\u1160\uffa0",  # the other Hangul fillers
        "\u2800" * 50,  # braille pattern blank
        "\u3164 \u2800\u200b\u2060\ufeff\u00ad\u034f\ufe0f\u3000",  # blanks and invisibles
    ],
)
def test_a_line_that_shows_nothing_is_refused(blank: str) -> None:
    with pytest.raises(ChatRefused, match=r"^There is nothing to say in that line\.$"):
        check_line(blank)


def test_every_row_of_a_wrapped_line_starts_with_its_speaker() -> None:
    forged = "\u2800" * 70 + "Blue to move (ann). " + "x" * 100 + " bob: I resign"
    for width in (30, 40, 79, 80, 81, 200):
        wrapped = chat.rows(clean(forged), width, "carl says: ", "carl goes on: ")
        assert wrapped[0][0] == "carl says: "
        assert all(prefix == "carl goes on: " for prefix, _ in wrapped[1:])
        assert all(len(prefix + words) <= width for prefix, words in wrapped)
        kept = "".join(words for _, words in wrapped).replace(" ", "")
        assert kept == clean(forged).replace(" ", "")  # nothing lost


def test_rows_count_wide_characters_as_two_cells_and_cut_a_long_prefix() -> None:
    wrapped = chat.rows("日本語" * 20, 30, "ann: ", "ann: ")
    assert [words for _, words in wrapped][:2] == [
        "日本語日本語日本語日本語",
        "日本語日本語日本語日本語",
    ]
    long_name = "a" * 24
    prefix, words = chat.rows("hi", 20, f"{long_name}, watching, says: ", "")[0]
    assert prefix == "a" * 8 + "… " and words == "hi"


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
    chat.listeners.subscribe(heard.append)
    chat.add(ChatLine("carol", "hi\x1b[31m all", watcher=True))
    assert heard == [ChatLine("carol", "hi all", watcher=True)]
    for number in range(300):
        chat.add(ChatLine("ann", str(number)))
    assert len(chat.lines) == 200 and chat.lines[-1].text == "299"
