"""A room's chat in one process with no store between, for the screens' tests: a line
checked and counted as the room's gateway does (`Rooms.say`), then added."""

from __future__ import annotations

from abstracts_tui.rooms.chat import Chat, ChatLine, Rates, check_line


def say(chat: Chat, rates: Rates, name: str, text: str, *, watcher: bool) -> ChatLine:
    """`name` says `text`; raises ChatRefused, adding nothing."""
    line = ChatLine(name, check_line(text), watcher)
    rates.take(name)
    chat.add(line)
    return line
