"""The Textual app: game selection, play, dialogs, help and autosave."""

from __future__ import annotations

import asyncio
import sys
from collections import deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen

from .ascii_only import ASCII_ONLY
from .keymaps import checked_keymap, in_force
from .messages import (
    HelpRequested,
    LoadRequested,
    NewGameRequested,
    RecentRequested,
    ResumeRequested,
)
from .policy import Policy
from .screens.select import SelectScreen
from .settings import Settings, problems_report
from .textual_internals import keep_tasks_lazy, lazy_strip_caches
from .themes import BOARD_COLOURS, THEMES
from .type_ahead import TypeAhead

if TYPE_CHECKING:
    from textual.app import AutopilotCallbackType

    from ..game_setup import Setup
    from ..saved_games import SavedGame, SavedGames
    from ..session import Session
    from .hangup import Hangup

# The play screen, records and sessions are imported when a game starts, so that the
# selection screen comes up as fast as a bare Textual app would (see tui/bench.py).

NOTICES = 50
"""How many notifications' messages an app keeps."""

TEXTUAL_COPY = {"screen.copy_text", "copy_text", "copy"}
"""Textual's copy of a selection, left on super+c once ctrl+c quits: most terminals keep
that key for themselves, so the help names the terminal's own copy instead."""
COPYING = ("mouse", "Copy: select with Shift held, then the terminal's copy key")
"""How text is copied from the screen: Shift held, the terminal selects rather than
the app (Option on a Mac's Terminal and iTerm2)."""

ASCII_KEYS = {"←": "<", "→": ">", "↑": "^", "↓": "v", "⏎": "enter", "⇥": "tab", "⌫": "bksp"}


class AbstractsApp(App[None]):
    """Hot-seat play of Petrify, Pilo, Egotzi, Linage and Partitions."""

    TITLE = "abstracts-tui"
    # ctrl+p: themes, the colour-blind palette, ASCII and the keymap (`palette.py`); the
    # help names it, the footer leaves it out for the game's keys.
    ENABLE_COMMAND_PALETTE = True
    # The home screen's styles are read with the app's, in one parse: a screen's own
    # CSS_PATH read later makes Textual parse every style sheet again.
    CSS_PATH = ["app.tcss", "screens/select.tcss"]
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        # A game program leaves on ctrl+c, as line mode does (the games are on the disk):
        # ahead of Textual's own ctrl+c, which copies a selection in a text field or
        # else only tells how to quit, once a press. Copying is the terminal's
        # (a selection made with Shift held).
        Binding("ctrl+c", "quit", "Quit", id="app.interrupt", show=False, priority=True),
    ]

    def __init__(
        self,
        setup: Setup | None = None,
        *,
        load: str | None = None,
        ascii: bool = False,
        data: Path | None = None,
        policy: Policy | None = None,
        settings: Settings | None = None,
        hangup: Hangup | None = None,
    ) -> None:
        lazy_strip_caches()  # once a process, before its first line is drawn
        super().__init__()
        self.hangup = hangup
        """How a closed terminal (SIGHUP) or a `kill` (SIGTERM) quits the app as ctrl+q
        does, the game in progress saved first: the terminal app's (`abstracts-tui`), drawn
        by a driver that ends with its terminal. The apps of the SSH server and the browser
        have none: they share their server's process and its signals."""
        if hangup is not None:
            hangup.exit = self.exit
            hangup.flush = self.flush_games
            if sys.platform != "win32":
                from .terminal import TerminalDriver

                if self.driver_class is TerminalDriver.__base__:  # not TEXTUAL_DRIVER's
                    self.driver_class = TerminalDriver
        self.settings = settings or Settings()
        self.setup = setup
        self.load_path = load
        self.ascii = ascii or self.settings.ascii
        self.data_folder = data
        self.policy = policy or Policy()
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = self.settings.theme
        if self.settings.keymap:  # its ids and keys checked against this app's bindings
            self.settings = checked_keymap(self.settings, type(self))
            self.set_keymap(in_force(type(self), self.settings.keymap))
        if self.ascii:
            self.add_class("-ascii")
        self.type_ahead = TypeAhead(self, super().on_event)
        self.notices: deque[str] = deque(maxlen=NOTICES)
        self.offer: Screen[object] | None = None
        """The offer of games in progress made at the start, if one was."""
        """The messages of the notifications shown so far, oldest first (the last few)."""

    async def on_event(self, event: events.Event) -> None:
        # Keys typed before the screen on top is built wait for it (see type_ahead.py).
        if isinstance(event, events.Key) and not event.is_forwarded:
            await self.type_ahead.key(event)  # a key handed back up by a widget goes on
        else:
            await super().on_event(event)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification, and keep its message in `notices`."""
        self.notices.append(message)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    async def run_async(
        self,
        *,
        headless: bool = False,
        inline: bool = False,
        inline_no_clear: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        auto_pilot: AutopilotCallbackType | None = None,
    ) -> None:
        """Run the app, its loop's tasks kept lazy on every Python (`keep_tasks_lazy`:
        Textual makes them eager from Python 3.12, which the app is not drawn right with)."""
        keep_tasks_lazy(asyncio.get_running_loop())
        return await super().run_async(
            headless=headless,
            inline=inline,
            inline_no_clear=inline_no_clear,
            mouse=mouse,
            size=size,
            auto_pilot=auto_pilot,
        )

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The command palette's commands (Textual's own theme picker would not keep a
        choice in the settings file)."""
        from .palette import commands

        return commands(self, screen)

    def get_default_screen(self) -> SelectScreen:
        # The app's default screen, whose own CSS_PATH Textual does not read (its styles
        # are in the app's): a mode's screen would have every style sheet parsed again.
        return SelectScreen()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The board's colours, for themes that do not set them (see `themes.py`)."""
        return dict(BOARD_COLOURS)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, and with ASCII drawing one that leaves only ASCII characters
        in what is sent (see `ascii_only.py`)."""
        filters = list(super().get_line_filters())
        if self.ascii:
            filters.append(ASCII_ONLY)
        return filters

    def get_key_display(self, binding: Binding) -> str:
        """Keys as the footer and help show them; plain ASCII with --ascii."""
        display = super().get_key_display(binding)
        if self.ascii and not display.isascii():
            display = "".join(ASCII_KEYS.get(char, char) for char in display)
        return display

    def on_mount(self) -> None:
        if self.load_path is not None:
            self.load_game(self.load_path)
        elif self.setup is not None:
            self.start_game(self.setup)
        else:
            # An unfinished game is offered over the selection screen right after it shows.
            self.call_after_refresh(self.offer_resume)
        if self.settings.problems:  # over the first screen and its offer, once they are up
            self.call_after_refresh(self.report_settings)

    def report_settings(self) -> None:
        """What was wrong in the settings file, every setting in one box that stays until
        it is closed (Esc or Enter), rather than notices that come and go; over the home
        screen and its offer only: a game started before it came (keys typed before the
        first frame) is told in a notice instead, which takes none of the game's keys."""
        from .dialogs.reading import ReadingDialog

        text = problems_report(self.settings)
        if self.screen_stack[1:] not in ([], [self.offer]):
            self.notify(
                text, title="Settings not used", severity="warning", timeout=30, markup=False
            )
            return
        self.push_screen(ReadingDialog("Settings not used", text))

    @property
    def data(self) -> Path:
        """The folder of the games in progress (the user's data directory by default)."""
        from ..saved_games import data_dir

        return self.data_folder or data_dir()

    def flush_games(self, timeout: float) -> None:
        """Wait, at most `timeout` seconds for each, until the games shown are in their
        files; from any thread (the hangup's watchdog, while the app's loop may be blocked)."""
        # Imported already if a game is shown: an import here could wait on the main thread.
        play = sys.modules.get(f"{__package__}.screens.play")
        if play is None:
            return
        for screen in self.screen_stack:
            if isinstance(screen, play.PlayScreen):
                screen.session.flush(timeout)

    @property
    def saved_games(self) -> SavedGames:
        """The games in progress, one autosave file each."""
        from ..saved_games import SavedGames

        return SavedGames(self.data)

    # -- starting games --------------------------------------------------------------------

    def offer_resume(self) -> None:
        """Offer the unfinished games, if there are any, over the selection screen; not
        once another screen came first (keys typed before the first frame was drawn, on
        a loaded machine: the offer would cover the game just started, and list it)."""
        if len(self.screen_stack) == 1:
            self.resume(quiet=True)
            if len(self.screen_stack) == 2:
                self.offer = self.screen

    @on(ResumeRequested)
    def resume_requested(self) -> None:
        self.resume(quiet=False)

    def resume(self, *, quiet: bool) -> None:
        """The games in progress to resume, newest first; files that cannot be read are
        named in a notice and left as they are. Unless `quiet`, say when there are none."""
        from .dialogs.resume import ResumeDialog

        saved = self.saved_games
        games, problems = saved.read()
        for problem in problems:
            self.notify(problem, severity="warning", timeout=15, markup=False)
        if not games:
            if not quiet:
                self.notify("No game is in progress.", markup=False)
            return

        def chosen(game: SavedGame | None) -> None:
            if game is not None:
                self.resume_game(game)

        self.push_screen(ResumeDialog(games, delete_saved_game), chosen)

    @on(RecentRequested)
    def recent_games(self) -> None:
        """The finished games, newest first, to open one (see `recent_games.py`)."""
        from ..recent_games import RecentGames
        from .dialogs.recent_games import RecentGamesDialog

        games, problems = RecentGames(self.data).read()
        for problem in problems:
            self.notify(problem, severity="warning", timeout=15, markup=False)
        if not games:
            self.notify("No game has finished here yet.", markup=False)
            return

        def chosen(game: SavedGame | None) -> None:
            if game is not None:
                self.resume_game(game)  # its own file goes on being its autosave

        self.push_screen(RecentGamesDialog(games), chosen)

    def resume_game(self, game: SavedGame) -> None:
        from ..session import Session

        session = Session(game.record, game.path)
        self.show_play(session)

    @on(SelectScreen.Chosen)
    def game_chosen(self, message: SelectScreen.Chosen) -> None:
        self.start_game(message.setup)

    def start_game(self, setup: Setup) -> None:
        """A new game in a file of its own: no game in progress is replaced."""
        from ..recent_games import RecentGames
        from ..session import Session

        self.setup = setup
        saved = self.saved_games
        RecentGames(saved.data).take_finished(saved)
        self.show_play(Session.start(setup, saved.new_path(setup.game)))

    def show_play(self, session: Session) -> None:
        from .screens.play import PlayScreen, Seat

        seat = Seat(files=self.policy.files, download=self.policy.download)
        screen = PlayScreen(session, ascii=self.ascii, seat=seat)
        if isinstance(self.screen, PlayScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def load_game(self, path: str) -> None:
        """Open a record file as a new game in progress (the record itself is not written
        to); a bad file is reported in one sentence and nothing else changes."""
        from ..files import describe
        from ..recent import RecentRecords
        from ..records import Record, RecordError
        from ..session import Session

        if not self.policy.files:
            self.notify(self.policy.files_refusal, severity="warning", markup=False)
            return
        try:
            record = Record.load(path)
        except (OSError, RecordError) as error:
            # In a box that stays until it is closed: a notice would go before it is read.
            from .dialogs.reading import ReadingDialog

            why = f"{describe(error)}." if isinstance(error, OSError) else str(error)
            self.push_screen(ReadingDialog("Not loaded", f"Could not load {path}: {why}"))
            return
        session = Session(record, self.saved_games.new_path(record.game))
        session.save_autosave()
        RecentRecords(self.data).add(path)  # offered first by the next ctrl+o
        self.show_play(session)
        self.notify(f"Loaded {path}", markup=False)

    # -- requests from the play screen ---------------------------------------------------------

    @on(NewGameRequested)
    def new_game(self) -> None:
        """The selection screen over the game, which Esc there comes back to; the game
        stays in its autosave file in any case."""

        def chosen(setup: Setup | None) -> None:
            if setup is not None:
                self.start_game(setup)

        self.push_screen(SelectScreen(self.setup), chosen)

    @on(LoadRequested)
    def load_requested(self, message: LoadRequested) -> None:
        self.load_game(message.path)

    def action_settings(self) -> None:
        """The settings (F2 on the home and play screens, or ctrl+p's Settings)."""
        from .dialogs.settings import SettingsDialog

        self.push_screen(SettingsDialog())

    @on(HelpRequested)
    def action_help(self) -> None:
        from .screens.help import HelpScreen, screen_keys
        from .screens.play import PlayScreen
        from .screens.setup import SetupScreen

        screen = self.screen
        game = screen.session.game.info.name if isinstance(screen, PlayScreen) else None
        if isinstance(screen, SelectScreen):
            game = screen.info.name  # the rules of the game highlighted
        if isinstance(screen, SetupScreen):
            game = screen.game.info.name
        grouped = screen_keys(self, screen, TEXTUAL_COPY)
        keys = [(" ".join(shown), description) for description, shown in grouped.items()]
        keys.append(COPYING)
        if isinstance(screen, PlayScreen) and screen.offers("toggle_analysis"):
            keys += self.mode_keys(grouped)  # not in a shared game, which has no analysis
        if isinstance(screen, PlayScreen) and screen.online is not None:
            keys += self.room_keys(grouped)
        self.push_screen(HelpScreen(game, keys))

    def room_keys(self, listed: dict[str, list[str]]) -> list[tuple[str, str]]:
        """A room's keys that do not work now (resign before each side has moved, a
        rematch before the end...), with when they do."""
        from .screens.play import ROOM_ACTIONS, ROOM_WHEN, PlayScreen

        found = []
        for binding in PlayScreen.BINDINGS:
            assert isinstance(binding, Binding)
            if binding.action in ROOM_ACTIONS and binding.description not in listed:
                when = ROOM_WHEN.get(binding.action, "")
                found.append((self.get_key_display(binding), f"{binding.description} ({when})"))
        return found

    def mode_keys(self, listed: dict[str, list[str]]) -> list[tuple[str, str]]:
        """The keys of analysis mode that are not active now, named by mode."""
        from .screens.play import ANALYSIS_ONLY, PlayScreen

        found: dict[str, list[str]] = {}
        # Set-up's keys are listed by its own help (? there), where they work.
        for mode, bindings in (("analysis", PlayScreen.BINDINGS),):
            for binding in bindings:
                assert isinstance(binding, Binding)
                action = binding.action.partition("(")[0]
                if binding.description in listed or (
                    mode == "analysis" and action not in ANALYSIS_ONLY
                ):
                    continue
                found.setdefault(f"{binding.description} ({mode})", []).append(
                    self.get_key_display(binding)
                )
        return [(" ".join(shown), description) for description, shown in found.items()]


def delete_saved_game(game: SavedGame) -> str | None:
    """Remove a game in progress's file; None, or why it could not be removed."""
    from ..files import describe

    try:
        game.path.unlink(missing_ok=True)
    except OSError as error:
        return f"Could not delete {game.path}: {describe(error)}."
    return None
