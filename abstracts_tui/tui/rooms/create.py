"""The room creation screen: the selection screen, with whether the room is rated,
whether anyone may join it from the lobby (an open challenge) or only who has its code
(a room listed to nobody else: the others do not see it, in their lobby or as a game
to watch), the creator's colour (first, second, or drawn when somebody joins) and, for
an open challenge, the ratings that may accept it. It starts from the person's last
choices (`choices.RoomChoices`)."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.widgets import Static

from ...game_setup import Setup
from ...rooms.pairing import COLOURS, FIRST, RANDOM, SECOND
from ..screens import select
from ..screens.select import SelectScreen
from ..widgets.steppers import ChoiceRow, Stepper
from .choices import RoomChoices

RATED_HINT = "changes ratings"
JOINER = "(joins by code)"
"""The second seat as the screen shows it: the room is created with it open."""
JOINER_DESCRIBED = "the player who joins by code"
"""The second seat as the explanation names it."""
OPENS = ["by its code", "anyone"]
"""Who may join, as the row names it."""
OPENS_HINTS = ["private", "listed"]
"""What each choice of `OPENS` does to the lobbies, beside it: a room by its code is in
nobody else's lobby, one for anyone in every lobby."""
ACCEPTER = "(anyone)"
"""The second seat as the screen shows it for an open challenge."""
ACCEPTER_DESCRIBED = "whoever accepts it in the lobby"
COLOUR_HINTS = {
    FIRST: "you move first",
    SECOND: "the other moves first",
    RANDOM: "drawn on joining",
}
"""What each colour does, beside it."""
RANGES = ["any", "±100", "±200", "±300", "±500"]
"""The rating ranges offered, around the creator's rating (`pairing.parse_range`)."""
RANGE_HINT = "who may accept"
DRAWN = "(drawn at random)"
"""A seat as the screen shows it while the colours are left to chance."""
DRAWN_DESCRIBED = ("one of you, drawn at random when somebody joins,", "the other")


class RoomScreen(SelectScreen):
    """Choose the room's game and options as on the selection screen, and whether it is
    rated (`rated` once it is dismissed)."""

    CSS_PATH = str(Path(select.__file__).parent / "select.tcss")  # relative paths are per module
    MORE_KEYS = {}  # the rooms have no recent games, settings or puzzles
    OWN_GAMES = False
    DEFAULT_CSS = """
    RoomScreen .seat-name {
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(
        self,
        default: Setup,
        *,
        rated: bool,
        open: bool = False,
        colour: str = FIRST,
        rating_range: str = "",
    ) -> None:
        super().__init__(default)
        self.rated = rated
        self.open = open
        """Whether the room is an open challenge (`open` once it is dismissed)."""
        self.colour = colour if colour in COLOURS else FIRST
        """The creator's colour as chosen (in a game whose sides are chosen in it, see
        `room_colour`)."""
        self.ranges = RANGES if rating_range in ("", *RANGES) else [*RANGES, rating_range]
        self.rating_range = rating_range
        """The ratings that may accept an open challenge ("": any; see `room_range`)."""

    def on_mount(self) -> None:
        # Textual runs SelectScreen's on_mount too: this adds a row to what it composed.
        row = ChoiceRow("Rated", ["no", "yes"], int(self.rated), hint=RATED_HINT, id="rated")
        self.query_one("#setup").mount(row, before="#explanation")
        opens = ChoiceRow(
            "Who joins", OPENS, int(self.open), hint=OPENS_HINTS[self.open], id="open"
        )
        self.query_one("#setup").mount(opens, before="#explanation")
        colours = ChoiceRow(
            "Colour", list(COLOURS), COLOURS.index(self.colour), hint="", id="colour"
        )
        self.query_one("#setup").mount(colours, before="#explanation")
        index = self.ranges.index(self.rating_range or "any")
        ranges = ChoiceRow("Ratings", self.ranges, index, hint=RANGE_HINT, id="range")
        self.query_one("#setup").mount(ranges, before="#explanation")
        # A room is for two people: the creator, by the name they connected with, and
        # whoever joins by the code. Neither name is typed here, so neither is a field.
        for seat, name in (("first", self.creator), ("second", JOINER)):
            for hidden in (f"#{seat}", f"#{seat}-player"):
                self.query_one(hidden).display = False
            self.query_one(f"#{seat}-row").mount(
                Static(name, classes="seat-name", markup=False, id=f"{seat}-name"),
                after=f"#{seat}-label",
            )
        self._show_joiner()

    @property
    def creator(self) -> str:
        return self.player_names()[0]

    def room_colour(self) -> str:
        """The colour the room is made with: `first` in a game whose sides are chosen in
        it (one sets komi, the other takes a side)."""
        return FIRST if self._sides_in_game() else self.colour

    def room_range(self) -> str:
        """The range the room is made with: none unless it is an open challenge."""
        return self.rating_range if self.open else ""

    def described_names(self) -> tuple[str, str]:
        other = ACCEPTER_DESCRIBED if self.open else JOINER_DESCRIBED
        colour = self.room_colour()
        if colour == RANDOM:
            return DRAWN_DESCRIBED
        return (other, self.creator) if colour == SECOND else (self.creator, other)

    def _show_joiner(self) -> None:
        other = ACCEPTER if self.open else JOINER
        colour = self.room_colour()
        seats = (DRAWN, DRAWN) if colour == RANDOM else (self.creator, other)
        if colour == SECOND:
            seats = (other, self.creator)
        for seat, name in zip(("first", "second"), seats, strict=True):
            for shown in self.query(f"#{seat}-name").results(Static):
                shown.update(name)
        for row in self.query("#colour").results(ChoiceRow):
            row.display = not self._sides_in_game()
            row.set_hint(COLOUR_HINTS[colour])
        for row in self.query("#range").results(ChoiceRow):
            row.display = self.open
        focused = self.focused
        if focused is not None and not all(node.display for node in focused.ancestors_with_self):
            self.query_one("#games").focus()
        self._show_texts()

    def _sides_in_game(self) -> bool:
        """Whether the highlighted game has komi and sides chosen in it."""
        return self.info.takes_komi(self.choices[self.info.name].variant)

    def _show_komi(self) -> None:
        super()._show_komi()
        self._show_joiner()  # a game with komi has its sides chosen in it

    @on(Stepper.Changed, "#rated")
    def _rated_changed(self, event: Stepper.Changed) -> None:
        self.rated = event.index == 1

    @on(Stepper.Changed, "#open")
    def _open_changed(self, event: Stepper.Changed) -> None:
        self.open = event.index == 1
        self.query_one("#open", ChoiceRow).set_hint(OPENS_HINTS[self.open])
        self._show_joiner()

    @on(Stepper.Changed, "#colour")
    def _colour_changed(self, event: Stepper.Changed) -> None:
        self.colour = COLOURS[event.index]
        self._show_joiner()

    @on(Stepper.Changed, "#range")
    def _range_changed(self, event: Stepper.Changed) -> None:
        chosen = self.ranges[event.index]
        self.rating_range = "" if chosen == "any" else chosen

    def chosen(self, setup: Setup) -> RoomChoices:
        """What the person chose, to start the next creation screen from."""
        return RoomChoices(
            game=setup.game,
            size=setup.size,
            variant=setup.variant,
            komi=setup.komi,
            clock=setup.clock,
            rated=self.rated,
            open=self.open,
            colour=self.colour,
            rating_range=self.rating_range,
        )


def remembered_screen(choices: RoomChoices, user: str, *, rated: bool) -> RoomScreen:
    """The creation screen for `user`, starting from their last `choices` (rated as the
    server's rooms are, `rated`, until they chose once)."""
    default = Setup(
        choices.game,
        choices.size,
        choices.variant,
        choices.komi,
        first=user,
        second=JOINER,
        clock=choices.clock,
    )
    return RoomScreen(
        default,
        rated=rated if choices.rated is None else choices.rated,
        open=choices.open,
        colour=choices.colour,
        rating_range=choices.rating_range,
    )
