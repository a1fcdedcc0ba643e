"""Muting a person from a room's chat line: `/mute bob` typed where a line is said hides
bob's chat from you, as `ssh -T host mute bob` does (the same server call, kept in the
store, in every room and front end), and hides at once the lines of theirs this screen
shows already; `/unmute bob` shows them again.

The line is not said in the room: it is answered in the chat's status line. The server's
answer says whether it was done (`bob's chat is hidden from you.`) or not (`Not done:
...`, shown as a refusal, the line kept in the field).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

Moderate = Callable[[tuple[str, ...]], Awaitable[str]]
"""The server's answer to `mute NAME` or `unmute NAME` (`rooms.client.RoomClient.moderate`)."""

WORDS = ("/mute", "/unmute")
"""What starts a chat line that mutes or unmutes instead of being said."""
NOT_DONE = "Not done"
"""How the server's answer starts when it was not done."""
USAGE = "Type /mute NAME to hide NAME's chat from you, /unmute NAME to show it again."


class ChatMutes:
    """The names this person has muted from a room's screens since it opened (their
    lines hidden at once, in the chat panel and the chat screen alike), and the way to
    ask the server to mute or unmute one."""

    def __init__(self, moderate: Moderate) -> None:
        self.moderate = moderate
        self.names: set[str] = set()

    def hides(self, name: str) -> bool:
        """Whether the lines of `name` are hidden here."""
        return name in self.names

    @staticmethod
    def asked(text: str) -> bool:
        """Whether a chat line typed is a `/mute` or `/unmute` (not said in the room)."""
        word = text.strip().split(maxsplit=1)[:1]
        return bool(word) and word[0].lower() in WORDS

    async def answer(self, text: str) -> tuple[str, bool]:
        """Mute or unmute as `text` (`/mute bob`) asks: the sentence to show, and whether
        it was refused. Done, bob's lines are hidden (or shown again) here at once."""
        words = text.split()
        if len(words) != 2:
            return USAGE, True
        command, name = words[0].lower().removeprefix("/"), words[1]
        said = await self.moderate((command, name))
        if said.startswith(NOT_DONE):
            return said, True
        if command == "mute":
            self.names.add(name)
        else:
            self.names.discard(name)
        return said, False
