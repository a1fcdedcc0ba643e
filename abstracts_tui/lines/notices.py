"""Line mode's `notify`: how the person is told of their games while away (the same
command as `ssh -T host notify`), said in one sentence."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rooms.client import RoomClient
from ..rooms.live import Refused
from ..store import StoreError

UNREAD = "The notice settings cannot be read now; try again later."


async def say_notify(client: RoomClient, words: Sequence[str], say: Callable[[str], None]) -> None:
    """Show or change the setting (`notify` and its words) and say the answer."""
    try:
        text, _ = await client.notify(tuple(words))
    except (StoreError, Refused):
        text = UNREAD
    say(text)
