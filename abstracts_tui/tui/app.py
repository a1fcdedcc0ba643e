"""The Textual app: game selection, play, dialogs, help and autosave."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import on
from textual.app import App
from textual.binding import Binding

from .dialogs.confirm import ResumeDialog
from .messages import HelpRequested, LoadRequested, NewGameRequested
from .screens.select import SelectScreen

if TYPE_CHECKING:
    from ..game_setup import Setup
    from ..session import Session

# The play screen, records and sessions are imported when a game starts, so that the
# selection screen comes up as fast as a bare Textual app would (see tui/bench.py).

AUTOSAVE_NAME = "autosave.sgf"
ASCII_KEYS = {"←": "<", "→": ">", "↑": "^", "↓": "v", "⏎": "enter", "⇥": "tab", "⌫": "bksp"}


def data_dir() -> Path:
    """Where the game in progress is kept: the user's data directory."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("abstracts-tui", appauthor=False))


class AbstractsApp(App[None]):
    """Hot-seat play of Petrify, Pilo, Egotzi, Linage and Partitions."""

    TITLE = "abstracts-tui"
    ENABLE_COMMAND_PALETTE = False  # every action has its key; the footer needs the room
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True)]

    def __init__(
        self,
        setup: Setup | None = None,
        *,
        load: str | None = None,
        ascii: bool = False,
        data: Path | None = None,
    ) -> None:
        super().__init__()
        self.setup = setup
        self.load_path = load
        self.ascii = ascii
        self.data_folder = data
        if ascii:
            self.add_class("-ascii")

    def get_key_display(self, binding: Binding) -> str:
        """Keys as the footer and help show them; plain ASCII with --ascii."""
        display = super().get_key_display(binding)
        if self.ascii and not display.isascii():
            display = "".join(ASCII_KEYS.get(char, char) for char in display)
        return display

    def get_default_screen(self) -> SelectScreen:
        """The selection screen is home: games are played over it and end back on it."""
        return SelectScreen(self.setup)

    def on_mount(self) -> None:
        if self.load_path is not None:
            self.load_game(self.load_path)
        elif self.setup is not None:
            self.start_game(self.setup)
        else:
            # An unfinished game is offered over the selection screen right after it shows.
            self.call_after_refresh(self.offer_resume)

    @property
    def autosave(self) -> Path:
        """The file the game in progress is written to after every move."""
        return (self.data_folder or data_dir()) / AUTOSAVE_NAME

    # -- starting games --------------------------------------------------------------------

    def offer_resume(self) -> None:
        """Offer the autosaved game, if one is in progress, over the selection screen."""
        if not self.autosave.exists():
            return
        from ..records import RecordError
        from ..rules import RulesError
        from ..session import Session

        try:
            session = Session.load(self.autosave, self.autosave)
        except (OSError, RecordError, RulesError):
            session = None  # an unreadable autosave is no game to resume
        if session is None or session.game.is_over():
            return
        game = session.game
        question = (
            f"Resume the {game.info.title} game in progress?\n"
            f"{session.people[0]} and {session.people[1]}, "
            f"{len(game.moves)} moves played, {session.turn_text()}."
        )

        def chosen(resume: bool | None) -> None:
            if resume:
                self.show_play(session)

        self.push_screen(ResumeDialog(question), chosen)

    @on(SelectScreen.Chosen)
    def game_chosen(self, message: SelectScreen.Chosen) -> None:
        self.start_game(message.setup)

    def start_game(self, setup: Setup) -> None:
        from ..session import Session

        self.setup = setup
        self.show_play(Session.start(setup, self.autosave))

    def show_play(self, session: Session) -> None:
        from .screens.play import PlayScreen

        screen = PlayScreen(session, ascii=self.ascii)
        if isinstance(self.screen, PlayScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def load_game(self, path: str) -> None:
        """Open a record file; a bad file is reported and nothing else changes."""
        from ..records import RecordError
        from ..rules import RulesError
        from ..session import Session

        try:
            session = Session.load(path, self.autosave)
        except (OSError, RecordError, RulesError) as error:
            message = f"Could not load {path}: {getattr(error, 'strerror', None) or error}"
            self.notify(message, severity="error", timeout=10)
            return
        self.show_play(session)
        self.notify(f"Loaded {path}")

    # -- requests from the play screen ---------------------------------------------------------

    @on(NewGameRequested)
    def new_game(self) -> None:
        """Back to the selection screen; the game stays in the autosave until the next starts."""
        from .screens.play import PlayScreen

        while isinstance(self.screen, PlayScreen):
            self.pop_screen()

    @on(LoadRequested)
    def load_requested(self, message: LoadRequested) -> None:
        self.load_game(message.path)

    @on(HelpRequested)
    def action_help(self) -> None:
        from .screens.help import HelpScreen
        from .screens.play import PlayScreen

        screen = self.screen
        game = screen.session.game.info.name if isinstance(screen, PlayScreen) else None
        grouped: dict[str, list[str]] = {}
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.description:
                shown = grouped.setdefault(binding.description, [])
                key = self.get_key_display(binding)
                if key not in shown:
                    shown.append(key)
        keys = [(" ".join(shown), description) for description, shown in grouped.items()]
        if isinstance(screen, PlayScreen):
            keys += self.mode_keys(grouped)
        self.push_screen(HelpScreen(game, keys))

    def mode_keys(self, listed: dict[str, list[str]]) -> list[tuple[str, str]]:
        """The keys of analysis and setup mode that are not active now, named by mode."""
        from .screens.study import SETUP_ACTIONS, STUDY_BINDINGS

        found: dict[str, list[str]] = {}
        for binding in STUDY_BINDINGS:
            assert isinstance(binding, Binding)
            if binding.description in listed:
                continue
            action = binding.action.partition("(")[0]
            mode = "setup mode" if action in SETUP_ACTIONS else "analysis"
            found.setdefault(f"{binding.description} ({mode})", []).append(
                self.get_key_display(binding)
            )
        return [(" ".join(shown), description) for description, shown in found.items()]
