"""Open challenges: rooms anyone may join from the lobby, without passing a code around.

A person making a room may leave it open to anyone: it is listed in every lobby (its
game, board, clock, whether it is rated, and who waits, with their rating) until
somebody accepts it with Enter, which joins the room as its code would. Each says the
creator's colour when it is not first, and the ratings that may accept it, if only some
may (another is told why not on Enter). A person's own challenge is not in their list:
it is one of their games, waiting for a player.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...rated import Ratings
from ...rooms.client import RoomView
from ...rooms.pairing import colour_note, parse_range


@dataclass(frozen=True)
class Challenge:
    """An open challenge as the lobby lists it."""

    code: str
    creator: str
    """Who waits, with their rating in the game if they have one: `ann 1662?`."""
    game: str
    """`Pilo 8x8`."""
    clock: str | None
    """The time control's spec (`5m+3s`); None: no clock."""
    rated: bool
    colour: str = ""
    """The creator's colour when not first (`plays second`, `colour at random`)."""
    ratings: str = ""
    """Who may accept it (`ratings 1300-1700`); "": anyone."""

    def line(self) -> str:
        """`k7m2  Pilo 8x8  clock 5m+3s  rated  ann 1662? (plays second)  ratings
        1462-1862`."""
        clock = f"clock {self.clock}" if self.clock else "no clock"
        rated = "rated" if self.rated else "casual"
        creator = f"{self.creator} ({self.colour})" if self.colour else self.creator
        ratings = f"  {self.ratings}" if self.ratings else ""
        return f"{self.code}  {self.game}  {clock}  {rated}  {creator}{ratings}"


NONE_OPEN = "No open challenges now: c makes a room, open to anyone if you choose."


class ChallengeList(OptionList):
    """The open challenges of others; Enter accepts the one highlighted."""

    class Accept(Message):
        """The person accepts the challenge of room `code` (joins it)."""

        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

    def show(self, challenges: Iterable[Challenge]) -> None:
        """List `challenges`, oldest first (the one waiting longest is met first), the
        highlight kept on the room it was on while that is still open."""
        highlighted = self.highlighted_option
        kept = highlighted.id if highlighted is not None else None
        found = list(challenges)
        self.clear_options()
        # A list with nothing to accept is passed over by the keys that go from part to part.
        self.can_focus = bool(found)
        if not found:
            self.add_option(Option(NONE_OPEN, disabled=True))
            if self.has_focus:
                self.screen.focus_next()
            return
        self.add_options(Option(Content(c.line()), id=c.code) for c in found)
        codes = [c.code for c in found]
        self.highlighted = codes.index(kept) if kept in codes else 0

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Accept(event.option.id))


def pairing_words(room: RoomView, ratings: Ratings) -> tuple[str, str]:
    """A room's creator's colour (`plays second`; "" for first) and who may accept it
    (`ratings 1462-1862`, around the creator's rating now; "": anyone), as listed."""
    found = parse_range(room.rating_range) if room.rating_range else None
    allowed = found.shown(ratings.get((room.creator, room.game))) if found else ""
    return colour_note(room.colour), allowed
