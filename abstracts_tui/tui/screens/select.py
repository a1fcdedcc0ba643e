"""The game-selection screen: pick a game, its options and the two players' names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Label, OptionList, Static

from ...clock import ClockSpecError, TimeControl
from ...engine.levels import DEFAULT_LEVEL, LEVELS
from ...game_setup import COMPUTER_NAME, DEFAULT_NAMES, Setup, seat_names
from ...rules.catalogue import CATALOGUE, GameInfo, format_number
from ..dialogs.komi import KomiValidator, komi_error, komi_rule
from ..messages import RecentRequested, ResumeRequested
from ..textual_internals import SteadyScreen
from ..widgets.key_bar import KeyBar
from ..widgets.key_names import KeyNames
from ..widgets.setup_form import Field, GameList, StartButton
from ..widgets.steppers import ChoiceRow, SeatStepper, SizeRow, Stepper

PLAYERS = ["person", *LEVELS]
"""Who plays a seat: a person, or the computer at one of its levels."""
CLOCK_HINT = "as 5m+3s, 10m+3x30s, 3d"
STAND_IN_NAMES = ("", *DEFAULT_NAMES, COMPUTER_NAME, f"{COMPUTER_NAME} 2")
"""The names a seat gets when nobody typed one: replaced as the seat's player changes."""

_GAME = Binding.Group("Game")


def clock_error(text: str) -> str | None:
    """Why `text` is not a time control; None if it is one (or blank: no clock)."""
    try:
        TimeControl.parse(text)
    except ClockSpecError as error:
        return f"Clock: {error}"
    return None


class ClockValidator(Validator):
    """Accepts a time control's spec, or nothing (no clock)."""

    def validate(self, value: str) -> ValidationResult:
        error = clock_error(value)
        return self.failure(error) if error else self.success()


@dataclass
class GameChoice:
    """What has been chosen for one game so far (kept while other games are looked at)."""

    size: int
    variant: str
    komi: str


def size_label(info: GameInfo, size: int) -> str:
    """`8 x 8` for a square board or grid of points, `side 6` for a hexagonal board."""
    return f"side {size}" if info.geometry == "hex" else f"{size} x {size}"


def variant_rule(info: GameInfo, variant: str) -> str:
    """`pie rule`, `komi` or nothing: how a variant makes up for moving first."""
    return "komi" if info.takes_komi(variant) else "pie rule" if info.has_pie_rule(variant) else ""


class SelectScreen(SteadyScreen[Setup | None]):
    """Choose a game, its board size, variant and komi, and the two players' names.

    As the app's home screen it posts `Chosen(setup)` when the game starts (Start button
    or Enter); pushed over another screen it is dismissed with the `Setup`. `default`
    preselects a game and its options. Escape or `q` quits the app.
    """

    CSS_PATH = "select.tcss"
    MORE_KEYS: ClassVar[dict[str, str]] = {
        "select.recent": "recent games",
        "select.settings": "settings",
        "select.puzzles": "puzzles",
    }
    """The bindings the line under the list of games names, by id, with what they open:
    the key bar has no room for them at 80 columns (none: no line)."""
    HOME_ACTIONS: ClassVar[frozenset[str]] = frozenset({"recent", "settings", "puzzles"})
    """The actions of this machine's own games, which a screen for another place (the
    rooms' create screen) leaves out."""
    OWN_GAMES: ClassVar[bool] = True
    """Whether this screen starts games kept here (recent games, settings, puzzles)."""
    AUTO_FOCUS = "#games"  # focused once, on mount: each change of focus recomposes the footer
    BINDINGS = [
        # Up and down pick the game from any field (priority: the list, the inputs and
        # the scrolling pane would take them otherwise); j and k only where no text is typed.
        Binding(
            "up",
            "game(-1)",
            "Previous game",
            key_display="↑/k",
            priority=True,
            group=_GAME,
            id="select.previous_game",
        ),
        Binding(
            "down",
            "game(1)",
            "Next game",
            key_display="↓/j",
            priority=True,
            group=_GAME,
            id="select.next_game",
        ),
        Binding("k", "game(-1)", "Previous game", show=False, id="select.previous_game_k"),
        Binding("j", "game(1)", "Next game", show=False, id="select.next_game_j"),
        # Priority: focus moves before the app hands on the next key, so that keys typed
        # in one burst after Tab (fast typing, over SSH) reach the new field.
        Binding("tab", "app.focus_next", "Next field", priority=True, id="select.next_field"),
        Binding("shift+tab", "app.focus_previous", "Previous field", priority=True, show=False),
        Binding("enter", "start", "Start", priority=True, id="select.start"),
        Binding("ctrl+r", "resume", "Resume", key_display="^r", id="select.resume"),
        Binding("ctrl+g", "recent", "Recent games", key_display="^g", id="select.recent"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?", id="select.help"),
        Binding("f2", "settings", "Settings", key_display="F2", id="select.settings"),
        Binding("f3", "puzzles", "Puzzles", key_display="F3", id="select.puzzles", show=False),
        Binding("escape", "leave", "Back", key_display="esc", id="select.leave"),
        Binding("q", "quit", "Quit", id="select.quit"),
    ]

    class Chosen(Message):
        """A game was chosen on the app's home screen (a pushed screen is dismissed instead)."""

        def __init__(self, setup: Setup) -> None:
            super().__init__()
            self.setup = setup

    def __init__(self, default: Setup | None = None) -> None:
        super().__init__()
        self.infos = list(CATALOGUE.values())
        self.choices = {
            info.name: GameChoice(info.default_size, info.variants[0] if info.variants else "", "")
            for info in self.infos
        }
        self.names = DEFAULT_NAMES
        self.levels = (0, 0)
        """Index in `PLAYERS` of who plays each seat."""
        self.index = 0
        self.clock = ""
        """The time control typed (blank: no clock)."""
        self.default = default
        """The game to preselect; for the app's home screen, the app's own setup."""

    def _take_default(self, default: Setup) -> None:
        info = CATALOGUE[default.game]
        self.index = list(CATALOGUE).index(info.name)
        choice = self.choices[info.name]
        if default.size is not None and default.size in info.sizes:
            choice.size = default.size
        if default.variant in info.variants:
            choice.variant = default.variant
        if default.komi is not None:
            choice.komi = format_number(default.komi)
        self.names = (default.first, default.second)
        self.clock = default.clock or ""
        self.levels = (
            PLAYERS.index(default.first_level) if default.first_level in PLAYERS else 0,
            PLAYERS.index(default.second_level) if default.second_level in PLAYERS else 0,
        )

    def computer_level(self) -> int:
        """The index in `PLAYERS` of the level the settings give the computer: where a
        seat handed to the computer starts."""
        level = getattr(getattr(self.app, "settings", None), "level", DEFAULT_LEVEL)
        return PLAYERS.index(level) if level in PLAYERS else PLAYERS.index(DEFAULT_LEVEL)

    @property
    def info(self) -> GameInfo:
        """The highlighted game."""
        return self.infos[self.index]

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        settings = getattr(self.app, "settings", None)
        for name, size in getattr(settings, "sizes", {}).items():
            self.choices[name].size = size
        default = self.default or getattr(self.app, "setup", None)
        if isinstance(default, Setup) and default.game in CATALOGUE:
            self._take_default(default)
        yield Static(
            "abstracts-tui: choose a game and its options, then press Enter to start",
            id="select-title",
        )
        computer = self.computer_level()
        with Horizontal(id="select-body"):
            with Vertical(id="games-column"):
                games = GameList(self.infos, self.index, id="games")
                games.border_title = "Games"
                yield games
                yield KeyNames(self.MORE_KEYS, id="more-keys")
            with VerticalScroll(id="setup", can_focus=False):
                yield SizeRow(id="size")
                yield Static("", id="size-note", markup=False)
                yield ChoiceRow("Variant", [], id="variant")
                with Horizontal(classes="field", id="komi-row"):
                    yield Label("Komi", classes="field-label")
                    yield Field(
                        placeholder="blank: set at start",  # 80 columns leave it 23
                        validators=[KomiValidator(0.5)],
                        valid_empty=True,
                        max_length=12,
                        id="komi",
                    )
                yield Static("", id="komi-note", markup=False)
                with Horizontal(classes="field", id="first-row"):
                    yield Label("", classes="field-label", id="first-label")
                    yield Field(self.names[0], max_length=24, id="first")
                    yield SeatStepper(PLAYERS, self.levels[0], computer=computer, id="first-player")
                with Horizontal(classes="field", id="second-row"):
                    yield Label("", classes="field-label", id="second-label")
                    yield Field(self.names[1], max_length=24, id="second")
                    yield SeatStepper(
                        PLAYERS, self.levels[1], computer=computer, id="second-player"
                    )
                with Horizontal(classes="field", id="clock-row"):
                    yield Label("Clock", classes="field-label")
                    yield Field(
                        self.clock,
                        placeholder="none",
                        validators=[ClockValidator()],
                        valid_empty=True,
                        max_length=24,
                        id="clock",
                    )
                yield Static(CLOCK_HINT, id="clock-note", markup=False)
                yield Static("", id="explanation", markup=False)
                yield StartButton("Start (Enter)", variant="primary", id="start")
        yield KeyBar()

    def on_mount(self) -> None:
        # An app told to quit as it starts (a browser's page closed at once) prunes this
        # screen's widgets before its Mount comes: there is nothing left to show.
        if not self.app.is_running:
            return
        games = self.query_one("#games", OptionList)
        games.highlighted = self.index
        # At once, not after the first frame (AUTO_FOCUS, at the screen's resume): keys
        # typed as the screen shows (Tab to the next field) find their field.
        self.set_focus(games)
        self._show_game()

    def on_screen_resume(self) -> None:
        # Back from the settings (F2): the computer's level may have changed.
        computer = self.computer_level()
        for stepper in self.query(SeatStepper):
            stepper.computer = computer

    # -- showing the highlighted game ---------------------------------------------------

    def _show_game(self) -> None:
        info = self.info
        choice = self.choices[info.name]
        self.query_one("#setup", VerticalScroll).border_title = info.title
        sizes = list(info.sizes)
        self.query_one("#size", SizeRow).set_sizes(
            info.title, sizes, [size_label(info, size) for size in sizes], choice.size
        )
        self._size_note(SizeRow.Note(""))
        self.query_one("#variant").display = bool(info.variants)
        if info.variants:
            self.query_one("#variant", Stepper).set_choices(
                [v.capitalize() for v in info.variants], info.variants.index(choice.variant)
            )
        komi = self.query_one("#komi", Input)
        komi.validators = [KomiValidator(info.komi_step or 0.5)]
        with self.prevent(Input.Changed):
            komi.value = choice.komi
        self._show_komi()

    def _show_komi(self) -> None:
        """Show or hide the komi field for the chosen variant, then the texts."""
        info = self.info
        variant = self.choices[info.name].variant
        takes_komi = info.takes_komi(variant)
        self.query_one("#variant", ChoiceRow).set_hint(variant_rule(info, variant))
        self.query_one("#komi-row").display = takes_komi
        self.query_one("#komi-note").display = takes_komi
        focused = self.focused
        if focused is not None and not all(node.display for node in focused.ancestors_with_self):
            self.query_one("#games", OptionList).focus()
        self._show_texts()

    def _show_texts(self) -> None:
        """The labels, the komi note and the explanation, which name the players."""
        info = self.info
        first, second = self.described_names()
        one, two = (colour.capitalize() for colour in info.colours)
        choice = self.choices[info.name]
        if info.takes_komi(choice.variant):
            labels = ("Sets komi", "Picks side")
            error = self.komi_error()
            note = self.query_one("#komi-note", Static)
            note.set_class(error is not None, "-error")
            if error is not None:
                note.update(error)
            else:
                note.update(f"Komi is {komi_rule(info)}.")
            # Left blank, the explanation says who sets it: the rule shows once it is typed
            # (80x24 keeps the Start button in sight for Linage).
            note.display = bool(choice.komi.strip())
            if choice.komi.strip() and error is None:
                what = f"Komi {format_number(float(choice.komi))} is agreed."
            else:
                what = f"{first} sets komi at the start (the points {two} adds to its score)."
            explanation = (
                f"{what} Then {second} chooses a side: {one} moves first, {two} gets komi."
            )
        else:
            labels = (one, two)
            explanation = f"{first} plays {one} and moves first; {second} plays {two}."
            if info.has_pie_rule(choice.variant):
                explanation += (
                    f" On {two}'s first turn {second} may swap instead of moving "
                    f"(the pie rule) and take over {one}'s position."
                )
        self.query_one("#first-label", Label).update(labels[0])
        self.query_one("#second-label", Label).update(labels[1])
        self.query_one("#explanation", Static).update(explanation)

    # -- reading the fields ---------------------------------------------------------------

    def player_names(self) -> tuple[str, str]:
        """The names typed, or the defaults for blank ones ("Computer" for a computer)."""
        typed = (self.query_one("#first", Input).value, self.query_one("#second", Input).value)
        return seat_names(typed, self.player_levels())

    def described_names(self) -> tuple[str, str]:
        """The players as the explanation names them."""
        return self.player_names()

    def player_levels(self) -> tuple[str | None, str | None]:
        """The computer's level for each seat, None where a person plays."""
        first, second = (
            PLAYERS[i] if i else None
            for i in (
                self.query_one(f"#{seat}-player", Stepper).index for seat in ("first", "second")
            )
        )
        return first, second

    def komi_error(self) -> str | None:
        """Why the komi typed is not allowed; None if it is, or if it is blank or unused."""
        info = self.info
        choice = self.choices[info.name]
        if not info.takes_komi(choice.variant) or not choice.komi.strip():
            return None
        return komi_error(choice.komi, info.komi_step)

    def setup(self) -> Setup:
        """The game as chosen (the komi must be valid: see `komi_error`)."""
        info = self.info
        choice = self.choices[info.name]
        komi = choice.komi.strip() if info.takes_komi(choice.variant) else ""
        first, second = self.player_names()
        first_level, second_level = self.player_levels()
        control = TimeControl.parse(self.clock)
        return Setup(
            game=info.name,
            size=choice.size,
            variant=choice.variant or None,
            komi=float(komi) + 0.0 if komi else None,
            first=first,
            second=second,
            first_level=first_level,
            second_level=second_level,
            clock=control.spec if control is not None else None,
        )

    # -- events and actions ---------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#games")
    def _game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index != self.index:
            self.index = event.option_index
            self._show_game()

    @on(Stepper.Changed, "#size")
    def _size_changed(self, event: Stepper.Changed) -> None:
        self.choices[self.info.name].size = list(self.info.sizes)[event.index]

    @on(SizeRow.Note)
    def _size_note(self, event: SizeRow.Note) -> None:
        note = self.query_one("#size-note", Static)
        note.update(event.text)
        note.set_class(event.error, "-error")
        note.display = bool(event.text)

    @on(Stepper.Changed, "#variant")
    def _variant_changed(self, event: Stepper.Changed) -> None:
        self.choices[self.info.name].variant = self.info.variants[event.index]
        self._show_komi()

    @on(Input.Changed, "#komi")
    def _komi_changed(self, event: Input.Changed) -> None:
        self.choices[self.info.name].komi = event.value
        self._show_texts()

    @on(Input.Changed, "#clock")
    def _clock_changed(self, event: Input.Changed) -> None:
        self.clock = event.value
        error = clock_error(self.clock)
        note = self.query_one("#clock-note", Static)
        note.set_class(error is not None, "-error")
        note.update(error or CLOCK_HINT)

    @on(Input.Changed, "#first, #second")
    def _name_changed(self) -> None:
        self._show_texts()

    @on(Stepper.Changed, "#first-player, #second-player")
    def _player_changed(self) -> None:
        """A seat given to the computer (or back to a person) shows the name it will
        have, unless a name of the person's own was typed there."""
        fields = [self.query_one(f"#{seat}", Input) for seat in ("first", "second")]
        typed = tuple("" if f.value.strip() in STAND_IN_NAMES else f.value for f in fields)
        names = seat_names((typed[0], typed[1]), self.player_levels())
        for field, mine, name in zip(fields, typed, names, strict=True):
            if not mine and field.value != name:
                with self.prevent(Input.Changed):
                    field.value = name
                field.cursor_position = 0  # the name's start in view: the field is short
        self._show_texts()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self._start()

    def action_game(self, delta: int) -> None:
        # From the list's own highlight, which moves at once: `index` follows it by a
        # message, so keys in one burst would each start from the same game.
        games = self.query_one("#games", OptionList)
        here = games.highlighted if games.highlighted is not None else self.index
        games.highlighted = (here + delta) % len(self.infos)

    def action_start(self) -> None:
        # Enter is a priority key, seen before the keys typed just ahead of it have
        # reached their field: start once that field has taken them.
        (self.focused or self).call_later(self._start)

    def _start(self) -> None:
        error = self.komi_error()
        if error is not None:
            self.app.bell()
            self.notify(error, title="Komi", severity="error", markup=False)
            self.query_one("#komi", Input).focus()
            return
        error = clock_error(self.clock)
        if error is not None:
            self.app.bell()
            self.notify(error, title="Clock", severity="error", markup=False)
            self.query_one("#clock", Input).focus()
            return
        setup = self.setup()
        if self.app.screen_stack[0] is self:  # the app's home screen: it stays underneath
            self.post_message(self.Chosen(setup))
        else:
            self.dismiss(setup)

    def action_resume(self) -> None:
        self.post_message(ResumeRequested())

    def action_recent(self) -> None:
        self.post_message(RecentRequested())

    async def action_settings(self) -> None:
        await self.app.run_action("app.settings")

    def action_puzzles(self) -> None:
        """The puzzles the solver proves, over this screen (Esc comes back)."""
        from ..palette import open_puzzles

        open_puzzles(self.app)  # type: ignore[arg-type]  # the app is the palette's host

    @property
    def is_home(self) -> bool:
        return self.app.screen_stack[0] is self

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc goes back to the game left with `n`; on the home screen there is none. A
        screen for another place's games has no recent games, settings or puzzles."""
        if action in self.HOME_ACTIONS and not self.OWN_GAMES:
            return False
        return not (action == "leave" and self.is_home)

    def action_leave(self) -> None:
        if not self.is_home:
            self.dismiss(None)  # pushed over the game left with n: back to it

    def action_quit(self) -> None:
        if self.is_home:
            self.app.exit()
        else:
            self.dismiss(None)  # pushed (a new game over one in progress): back to it
