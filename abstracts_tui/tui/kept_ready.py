"""Replies kept ready, typed on a room's full screen: the move line (`:`) takes
`if MOVE then REPLY`, `ifs` and `if clear` as line mode's room does
(`rooms.conditional`), and the status line says the answer."""

from __future__ import annotations

from ..play.offers import sentence
from ..rooms.conditional import is_reply_line
from ..rules import RulesError
from .online import Host, OnlinePlay


def typed(host: Host, online: OnlinePlay | None, text: str) -> bool:
    """Send `text` to the room if it is about replies kept ready (the answer is said on
    `host`'s status line, a refusal as one); False if it is a move."""
    if not is_reply_line(text):
        return False
    ask = online.room.replies if online is not None else None
    if ask is None:
        host.refuse("Replies are kept ready only in a game of days per move on a server.")
        return True

    async def sent() -> None:
        try:
            lines = await ask(tuple(text.split()))
        except RulesError as error:
            host.refuse(f"Not kept: {sentence(error)}")
            return
        host.say(" ".join(line.strip() for line in lines))

    host.app.run_worker(sent(), group="online")
    return True
