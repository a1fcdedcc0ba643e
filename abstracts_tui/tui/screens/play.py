"""The play screen: a board, the game panel, the analysis panel, the move list, the status
line and the move line, composed.

One direction: actions change the session (through `Turns`); the session says what
changed; the screen redraws from that only. `mode` is play or analysis. Setting up a
position is a screen of its own (`setup.py`); the searches are thread workers that post
`SearchDone` (`computer.py`).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize, ScreenResume
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.validation import ValidationResult, Validator
from textual.widgets import Input, Static

from ...chances import Hint
from ...engine.review import Review, person_names
from ...records import RecordNode
from ...rooms.events import KomiSet, MovePlayed, SideChosen, Stamped, Swapped
from ...rooms.play import (
    HELD,
    both_moved,
    kept_again_text,
    not_kept_text,
    watchers,
    watchers_text,
)
from ...rules import PASS, SWAP, Game, RulesError, format_number
from ...rules.catalogue import read_int
from ...session import Change, Changed, Phase, Session
from ...subscribers import Ties
from ..analysis_view import (
    candidates_text,
    eval_bar,
    first_colour,
    hint_text,
    live_rate,
    proven_text,
    shown_candidates,
)
from ..computer import HINT_BUDGET, SearchDone, Searches, SearchStarted, analysis_budget
from ..dialogs.confirm import ConfirmDialog
from ..dialogs.komi import KomiDialog
from ..dialogs.position import PositionDialog
from ..dialogs.reading import ReadingDialog
from ..dialogs.side import SideDialog
from ..dialogs.text import TextDialog
from ..keymaps import bound, key_of
from ..legend import panel_legend
from ..messages import HelpRequested, LoadRequested, NewGameRequested
from ..online import OnlinePlay, RoomSeat
from ..overlay import overlay_for
from ..review_view import (
    mistake_line,
    next_biggest,
    next_mistake,
    progress_text,
    review_text,
)
from ..textual_internals import SteadyInput, SteadyScreen
from ..turns import Ask, Send, Turns
from ..typed_move import typed_check
from ..widgets.analysis_panel import AnalysisPanel
from ..widgets.board import BoardView, board_for
from ..widgets.board_view import EDGES
from ..widgets.chat_panel import ChatPanel, status_text
from ..widgets.clock_faces import ClockFaces
from ..widgets.game_panel import COUNT_KEY, GamePanel, count_text, score_text
from ..widgets.key_bar import KeyBar
from ..widgets.move_list import MoveList
from ..widgets.pie_question import PieQuestion
from ..widgets.steady_text import show_text
from ..widgets.summary_line import SummaryLine
from ..widgets.win_rate_graph import WinRateGraph
from .setup import SetupScreen

PANEL_WIDTH = 30
"""Columns the side panel needs at least (its border included)."""
CHROME_LINES = 2
"""Lines below the board: the status (or move) line and the footer."""
COMPACT_DROPS = ("top", "keys", "message", "bottom")
"""What the compact view leaves out, in this order, while the terminal is too short for
it: the coordinates above the board, the footer, the status line, the coordinates below
the board. The board's rows and the summary line stay."""
EVALUATED_AFTER = 300
"""Playouts after which a live search's win rate is kept as the position's evaluation."""
TICK = 0.25
"""Seconds between two redraws of a search's figures (four a second)."""

PLAY = "play"
ANALYSIS = "analysis"

ANALYSIS_ONLY = {
    "back",
    "forward",
    "to_start",
    "leap",
    "to_end",
    "jump",
    "variation",
    "main_line",
    "promote",
    "delete_variation",
    "comment",
    "review",
    "mistake",
    "biggest_mistake",
    "go_to_mistake",
}
"""Actions of analysis mode."""
PLAY_ONLY = {"hint", "new_game", "load"}
"""Actions left out of analysis mode, whose footer needs the room (x leaves it first)."""
OWN_GAME_ONLY = {"undo", "redo", "hint", "toggle_analysis", "setup", "save", "load"}
"""Actions a shared game has not: the position is everyone's, the server's disk nobody's."""
FILE_ACTIONS = {"save", "load"}
ROOM_ACTIONS = {"room_takeback", "room_abort", "room_resign", "room_rematch", "room_chat"}
"""Actions of a room's online play: on keys of actions a room has not (undo, analysis,
redo, a comment)."""
ROOM_WHEN = {
    "room_takeback": "a player, after a move of theirs, until the game is over",
    "room_abort": "a player, before each side has moved",
    "room_resign": "a player, once each side has moved",
    "room_rematch": "a player, once the game is over",
}
"""When a room's key works, as the help says it of a key that does not work now."""
MOVE_ACTIONS = {"move_line", "pass_turn"}
"""Actions of somebody who plays (a watcher has none)."""


class Presence(Protocol):
    """Who of a shared game's people are connected, as the server knows it."""

    def people(self) -> frozenset[str]:
        """The people connected now."""
        ...

    def follow(self, here: bool, changed: Callable[[], None]) -> None:
        """The screen starts (`here`) or stops showing the game; `changed` is called
        whenever who is connected changes while it shows it."""
        ...


@dataclass(frozen=True)
class Seat:
    """Who uses this play screen: `local_people` (None: everyone at one keyboard, an empty
    set: a watcher), whether the game is `shared` with other screens (over SSH), whether
    records may be saved and loaded, and who of the people is connected (None: not
    known, as in a game at one keyboard)."""

    local_people: frozenset[str] | None = None
    shared: bool = False
    files: bool = True
    presence: Presence | None = None
    download: bool = False
    """Whether saving downloads the record to the user's machine (in a browser), where
    `files` is False."""
    send: Send | None = None
    """How a room's moves, komi and side are sent to its gateway (None: played here)."""
    room: RoomSeat | None = None
    """A room's online play (resign, take-back, rematch, chat, watchers), with `send`."""


class MoveText(Validator):
    """Accepts text that is a legal move now; the failure says why not."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def validate(self, value: str) -> ValidationResult:
        game = self.session.game
        if not value.strip():
            return self.failure("type a move, e.g. c3")
        try:
            move = game.parse_move(value)
        except RulesError as error:
            return self.failure(str(error))
        reason = game.illegal_reason(move)
        return self.failure(reason) if reason else self.success()


class PlayScreen(SteadyScreen[None]):
    """A game in progress, played from the keyboard or the mouse, or studied."""

    CSS_PATH = "play.tcss"

    BINDINGS = [
        # Priority: the app runs it before it hands on the next key, so that keys typed
        # in one burst after ':' (pasted, or fast over SSH) reach the move line.
        Binding("colon", "move_line", "Type", id="play.move_line", key_display=":", priority=True),
        # The pie rule's answers where its question is not in sight (the compact view
        # without its panel, which the question lives in): ahead of the board's keys.
        Binding("s", "pie(True)", "Swap", id="play.pie_swap", show=False, priority=True),
        Binding(
            "p,enter", "pie(False)", "Play on", id="play.pie_play_on", show=False, priority=True
        ),
        Binding("p", "pass_turn", "Pass", id="play.pass"),
        # Where passing is not allowed the footer leaves `p` out; pressed, it says why.
        Binding("p", "refuse_pass", "Pass", id="play.no_pass", show=False),
        Binding("u,ctrl+z", "undo", "Undo", id="play.undo"),
        Binding("r,ctrl+y", "redo", "Redo", id="play.redo", show=False),
        Binding("b", "hint", "Hint", id="play.hint", show=False),
        Binding("t", "toggle_score", "Score", id="play.score", show=False),
        Binding(COUNT_KEY, "count", "The count in full", id="play.count", show=False),
        Binding("x", "toggle_analysis", "Analysis", id="play.analysis"),
        Binding("i", "toggle_panel", "Panel", id="play.panel"),
        Binding("escape", "cancel", "Cancel", id="play.cancel", show=False),
        Binding("n", "new_game", "New", id="play.new"),
        Binding("n", "lobby", "Lobby", id="play.lobby"),  # in a shared game, for `New`
        Binding("ctrl+s", "save", "Save", id="play.save", key_display="^s"),
        Binding("ctrl+o", "load", "Load", id="play.load", key_display="^o"),
        Binding("question_mark,f1", "help", "Help", id="play.help", key_display="?"),
        Binding("f2", "app.settings", "Settings", id="play.settings", key_display="F2"),
        Binding("ctrl+e", "setup", "Set up", id="study.setup", show=False),
        Binding("y", "position", "Position", id="study.position", show=False),
        Binding(
            "left_square_bracket", "back", "Back", id="study.back", key_display="[", show=False
        ),
        Binding(
            "right_square_bracket",
            "forward",
            "Forward",
            id="study.forward",
            key_display="]",
            show=False,
        ),
        Binding("home", "to_start", "Start", id="study.start", show=False),
        Binding("pageup", "leap(-10)", "Ten moves back", id="study.back_ten", show=False),
        Binding("pagedown", "leap(10)", "Ten moves on", id="study.forward_ten", show=False),
        Binding("end", "to_end", "End", id="study.end", show=False),
        Binding("g", "jump", "Go to", id="study.jump", show=False),
        Binding("v", "variation(1)", "Variation", id="study.next_variation", show=False),
        Binding(
            "V", "variation(-1)", "Previous variation", id="study.previous_variation", show=False
        ),
        Binding("m", "main_line", "Back to the main line", id="study.main_line", show=False),
        Binding("M", "promote", "Make this line the main line", id="study.promote", show=False),
        Binding("delete", "delete_variation", "Delete", id="study.delete", show=False),
        Binding("semicolon", "comment", "Comment", id="study.comment", key_display=";"),
        Binding(
            "percent_sign",
            "review",
            "Review the line (again: stop)",
            id="study.review",
            key_display="%",
            show=False,
        ),
        Binding(
            "full_stop",
            "mistake(1)",
            "The review's next mistake",
            id="study.next_mistake",
            show=False,
        ),
        Binding(
            "comma",
            "mistake(-1)",
            "The review's previous mistake",
            id="study.previous_mistake",
            show=False,
        ),
        # In the footer once there is a review (`check_action`).
        Binding(
            "exclamation_mark",
            "biggest_mistake",
            "Worst move",
            id="study.biggest_mistake",
            key_display="!",
            tooltip="The review's biggest mistake; again: the next biggest",
        ),
        # A room's: each on a key whose own action a shared game has not (see
        # ROOM_ACTIONS), and last, so that the footer keeps its order elsewhere.
        Binding("u,ctrl+z", "room_takeback", "Take back", id="room.takeback"),
        Binding("x", "room_abort", "Abort", id="room.abort"),
        Binding("x", "room_resign", "Resign", id="room.resign"),
        Binding("r", "room_rematch", "Rematch", id="room.rematch"),
        Binding("semicolon", "room_chat", "Chat", id="room.chat", key_display=";"),
    ]

    mode: reactive[str] = reactive(PLAY, init=False)
    """`play`, or `analysis`: moves start variations, the computer players wait, and
    the position shown is searched continuously."""

    class SessionChanged(Message):
        """The session changed (here, on another screen showing it, or by the computer)."""

        def __init__(self, changed: Changed) -> None:
            super().__init__()
            self.changed = changed

    class SavingChanged(Message):
        """The autosave started or stopped failing (posted from its writer thread)."""

    class RoomHeard(Message):
        """The room's new events, in order (after the messages of their change)."""

        def __init__(self, events: list[Stamped]) -> None:
            super().__init__()
            self.events = events

    def __init__(self, session: Session, *, ascii: bool = False, seat: Seat | None = None) -> None:
        super().__init__()
        self.session = session
        self.ascii = ascii
        self.seat = seat or Seat()
        self.turns = Turns(
            session,
            local_people=self.seat.local_people,
            shared=self.seat.shared,
            send=self.seat.send,
            told=self.told,
        )
        room, send = self.seat.room, self.seat.send
        self.online = OnlinePlay(self, session, room, send) if room and send else None
        """A room's online play, held here (None elsewhere)."""
        self.searches = Searches(self, session)
        self.thought: float | None = None
        """How long the computer thought over the move it plays next (None: not yet)."""
        self.asking = False
        """Whether a komi or side dialog of this screen is open."""
        self.hint: Hint | None = None
        self.review: Review | None = None
        """The last game review, of `review_nodes` (positions of the line it reviewed)."""
        self.review_nodes: tuple[Any, ...] = ()
        self.marks: frozenset[int] = frozenset()
        """The cells of the hint or of the top candidates as the board shows them."""
        self.selected: int | None = None
        self.show_score = session.game.is_over()
        self.save_problem_shown: str | None = None
        self.away_shown = ""
        self.board: BoardView = board_for(session.game, ascii=ascii, id="board")
        self.board.choosing = not self.turns.watching
        self.move_text = MoveText(session)
        self.compact = False
        """Whether the terminal is too small for the side panel beside the board: the
        board alone, with a summary line (see `lay_out`)."""
        self.kept: frozenset[str] = frozenset(COMPACT_DROPS)
        """What the compact view has room for, of `COMPACT_DROPS`."""
        self.panel_wanted = False
        """Whether the side panel is asked for in the compact view (`i`)."""

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def analysing(self) -> bool:
        return self.mode == ANALYSIS

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="panel"):
                yield PieQuestion(id="pie")
                yield GamePanel(id="game-panel")
                yield AnalysisPanel(id="analysis-panel", classes="-empty")
                yield MoveList(id="moves-box")
                if self.online is not None:
                    online = self.online
                    yield ChatPanel(online.chat, online.chat_send, hideable=online.player)
        yield Static(id="too-small", markup=False)
        yield SummaryLine(id="summary")
        yield Static(id="status", markup=False)
        # Checked here at each character rather than by the input, whose classes for
        # valid and invalid text change nothing on this line but cost a restyling; what
        # the check says is beside the text, on the line the status line gives up.
        with Horizontal(id="move-row"):
            yield SteadyInput(
                id="move-line",
                placeholder="move",
                validators=[self.move_text],
                validate_on=["submitted"],
            )
            yield Static(id="move-check", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        # At once, not after the first frame: keys typed as soon as the game shows
        # belong to the board.
        self.set_focus(self.board)
        self.watch(self.board, "cursor", self.cursor_moved)
        self.following = Ties(
            self.session.listeners.subscribe(self.session_changed),
            self.session.saving_listeners.subscribe(self.saving_changed),
        )
        if self.online is not None:  # before the replica is followed: nothing missed
            self.stop_hearing = self.online.room.listen(self.room_heard)
        # Only while a search runs (`SearchStarted` starts it, `tick` stops it).
        self.ticker = self.set_interval(TICK, self.tick, pause=True)
        if not self.seat.shared:  # a room's clock is the server's to run
            self.session.resume_clock()
        if self.seat.presence is not None:
            self.seat.presence.follow(True, self.presence_changed)
            self.show_away()
        if self.turns.watching:
            self.say(self.turns.refusal() or "")
        elif not self.game.moves:
            self.say(self.first_tip())
        self.draw()
        self.show_saving()
        self.call_after_refresh(self.next_step)

    def key(self, binding_id: str) -> str:
        """The key bound now to `binding_id` (the keymap's, if it gives one), as tips name it."""
        return key_of(self.app, binding_id, type(self), BoardView)

    def offers(self, action: str) -> bool:
        """Whether the key of `action` works on this screen now (tips name only those)."""
        return bool(self.check_action(action, ()))

    def first_tip(self) -> str:
        """How to play, with the keys bound now and only the keys that work here."""
        ways = ("left", "right", "up", "down")
        firsts = [bound(self.app, f"board.{way}", BoardView)[0] for way in ways]
        arrows = " ".join(self.key(f"board.{way}") for way in ways)
        moving = "Arrow keys" if firsts == list(ways) else arrows
        hint = f"; {self.key('play.hint')} hints" if self.offers("hint") else ""
        return (
            f"{moving} move the cursor, {self.key('board.activate')} plays there{hint}; "
            f"{self.key('play.help')} lists every key."
        )

    def analysis_tip(self) -> str:
        """The keys of analysis mode, as bound now."""
        key = self.key
        setup = f", {key('study.setup')} set up" if self.offers("setup") else ""
        leave = f"; {key('play.analysis')} leaves" if self.offers("toggle_analysis") else ""
        return (
            f"Analysis: {key('study.back')} {key('study.forward')} step, "
            f"{key('study.jump')} go to, {key('study.next_variation')} variations, "
            f"{key('study.comment')} comment, {key('study.position')} position{setup}; "
            f"moves start variations{leave}."
        )

    def on_unmount(self) -> None:
        if self.seat.presence is not None:
            self.seat.presence.follow(False, self.presence_changed)
        self.searches.cancel_all()
        if not self.seat.shared:  # a game left stops its clock
            self.session.pause_clock()
        self.session.flush(timeout=5)  # leaving the game (or the app): it is on the disk
        self.following.close()
        if self.online is not None:
            self.stop_hearing()

    def on_resize(self, event: Resize) -> None:
        self.lay_out()

    def lay_out(self) -> None:
        """The full layout (the board and the side panel) where it fits; else the compact
        view, the board alone with what room is left (see `COMPACT_DROPS`), and the side
        panel beside it when asked for (`i`) and there is room; else a note."""
        width, height = self.size
        board = self.board
        board_width, board_height = board.size_needed(1, EDGES)
        full = width >= board_width + PANEL_WIDTH and height >= max(board_height, 12) + CHROME_LINES
        kept = set(COMPACT_DROPS)
        if not full:
            need = board_height + 3  # the summary, the status line and the footer
            for part in COMPACT_DROPS:
                if height >= need:
                    break
                kept.discard(part)
                need -= 1
        self.kept = frozenset(kept)
        compact = not full
        if compact != self.compact:
            self.compact = compact
            self.set_class(compact, "-compact")
            self.refresh_bindings()  # `i` is the compact view's
        self.check_size()
        edges = frozenset(kept & EDGES)
        panel = self.panel_shown
        self.query_one("#panel").display = panel
        question = self.query_one(PieQuestion)
        if question.asked:  # its keys go with it, or to the screen where it is hidden
            if panel:
                self.set_focus(question)
            else:
                self.set_focus(self.board)
                self.say_pie()
        chrome = 1 + ("message" in kept) + ("keys" in kept) if compact else CHROME_LINES + 1
        room = width - (PANEL_WIDTH if panel else 0) - 2
        # The board as large as fits; beside the panel, the panel takes the rest.
        board.fit(room, height - chrome, edges)
        self.show_lines()

    @property
    def panel_room(self) -> bool:
        """Whether the side panel fits beside the board (at its least size)."""
        return self.size.width >= self.board.size_needed(1, self.board.edges)[0] + PANEL_WIDTH

    @property
    def panel_shown(self) -> bool:
        return not self.compact or (self.panel_wanted and self.panel_room)

    def show_lines(self) -> None:
        """The summary, status and move lines and the footer the layout has room for."""
        compact = self.compact
        typing = self.typing
        message = not compact or "message" in self.kept
        summary = self.query_one(SummaryLine)
        # Typing takes the status line's place, or the summary's where it has none.
        summary.display = compact and (message or not typing)
        status = self.query_one("#status", Static)
        status.display = message and not typing
        status.styles.max_height = 1 if compact else 3
        self.query_one(KeyBar).display = not compact or "keys" in self.kept
        if compact:
            self.show_summary()

    def show_summary(self) -> None:
        if self.compact:
            summary = self.query_one(SummaryLine)
            # Without the column letters, the cursor's cell is how a cell is named.
            lettered = "bottom" in self.kept or "top" in self.kept
            summary.show(
                self.session,
                self.board.cursor,
                analysing=self.analysing,
                cursor_first=not lettered,
            )

    def action_toggle_panel(self) -> None:
        if not self.panel_room:
            width = self.board.size_needed(1, self.board.edges)[0] + PANEL_WIDTH
            self.refuse(f"No room for the panel: it needs {width} columns.")
            return
        self.panel_wanted = not self.panel_wanted
        self.lay_out()

    def needed_size(self) -> tuple[int, int]:
        """The least terminal the game can be played in: the compact view's, the board's
        rows (without the coordinates above and below) and the summary line."""
        width, height = self.board.size_needed(1, frozenset())
        return width + 2, height + 1

    def full_size(self) -> tuple[int, int]:
        """The least terminal for the full layout: the board and the side panel."""
        width, height = self.board.size_needed(1, EDGES)
        return width + PANEL_WIDTH, max(height, 12) + CHROME_LINES

    def check_size(self) -> None:
        width, height = self.needed_size()
        small = self.size.width < width or self.size.height < height
        self.set_class(small, "-too-small")
        if small:
            full_width, full_height = self.full_size()
            self.query_one("#too-small", Static).update(
                f"The terminal is too small for this board.\n\n"
                f"It needs {width} x {height} characters for the board alone "
                f"({full_width} x {full_height} with the side panel); this one is "
                f"{self.size.width} x {self.size.height}.\n\n"
                f"Enlarge the window (or choose a smaller board with n).\n"
                f"The game is kept: nothing is lost."
            )

    # -- what the session says --------------------------------------------------------------

    def session_changed(self, changed: Changed) -> None:
        self.post_message(self.SessionChanged(changed))

    @on(SessionChanged)
    def redraw_changed(self, message: SessionChanged) -> None:
        changed = message.changed
        if changed.change in (Change.MOVE, Change.STEP, Change.SETUP):
            self.selected = None
            self.hint = None
            self.searches.cancel("hint")
        # A room's news comes as its events (`room_heard`), its game's change before them.
        news = self.online is None
        if changed.change is Change.MOVE:
            self.show_score = self.show_score or self.game.is_over()
            if news:
                self.say(self.move_news(changed))
        elif changed.change is Change.STEP:
            self.show_score = self.show_score and self.game.is_over()
        elif changed.change is Change.PHASE and news:
            self.say(self.phase_news(changed))
        elif changed.change is Change.FLAG:
            self.searches.cancel("turn")
            if news:
                self.say(f"Time is up. {self.session.turn_text()}.{self.kept_words()}")
        self.draw(changed)
        if self.analysing:
            self.start_analysis()
        self.next_step()

    def move_news(self, changed: Changed) -> str:
        """`Ann played c3. Orange to move (Bob).`, for every screen showing the game."""
        session = self.session
        move = changed.move or session.node.move or ""
        who = changed.by or "The computer"
        if self.analysing and changed.mover is not None:
            # A variation: whoever sits here moves for either side, the computer's too.
            who = self.game.colour_name(changed.mover).capitalize()
            if move == "swap":
                return f"{who} swapped. {session.turn_text()}."
        if move == "swap":
            # The swapper takes over the first colour and its position.
            played = f"{who} swapped: {who} now plays {self.game.colour_name(0).capitalize()}"
        else:
            played = f"{who} played {move}"
        if self.thought is not None and changed.by and self.session.level(changed.by):
            took = f"{self.thought:.1f}" if self.thought >= 0.1 else "under 0.1"
            played += f" in {took} s"  # the computer's, as its search took
            self.thought = None
        if self.game.is_over():
            outcome = self.game.outcome()
            assert outcome is not None
            ended = f"{played}. Game over. {session.turn_text()}: {outcome.reason}"
            kept = self.kept_words()
            return f"{ended.rstrip('.')}.{kept}" if kept else ended
        return f"{played}. {session.turn_text()}."

    @property
    def monochrome(self) -> bool:
        """Whether colours are not shown (`NO_COLOR`, here or in an SSH client's terminal)."""
        return self.app.no_color or getattr(self.app, "monochrome", None) is not None

    def kept_words(self) -> str:
        """Where a game that ended here is kept (the recent games) and how to save it; the
        empty text in a room or a variation of analysis."""
        from .select import SelectScreen

        if self.online is not None or self.analysing or self.session.autosave_path is None:
            return ""
        recent = key_of(self.app, "select.recent", SelectScreen)
        save = f"; {self.key('play.save')} saves it as a record" if self.seat.files else ""
        return f" It is kept in the recent games ({recent} on the home screen){save}."

    def room_heard(self, events: list[Stamped]) -> None:
        self.post_message(self.RoomHeard(events))

    @on(RoomHeard)
    def say_room_events(self, message: RoomHeard) -> None:
        """Each of the room's events as the screen says it: the moves, komi and sides in
        the screen's words (`move_news`), the rest as online play says it."""
        if self.online is None or not self.is_attached:
            return
        for stamped in message.events:
            match stamped.event:
                case MovePlayed(by=by, colour=colour, move=move):
                    self.say(self.move_news(Changed(Change.MOVE, colour, by, move)))
                case Swapped(by=by):
                    self.say(self.move_news(Changed(Change.MOVE, None, by, "swap")))
                case KomiSet(by=by, komi=komi):
                    self.say(f"{by} set komi to {format_number(komi)}.")
                case SideChosen(by=by, colour_name=colour):
                    self.say(f"{by} takes {colour}. {self.session.turn_text()}.")
                case event:
                    self.online.heard(event)

    def phase_news(self, changed: Changed) -> str:
        session = self.session
        if session.phase is Phase.SIDE:
            komi = format_number(self.game.options.komi)
            return f"{changed.by or session.people[0]} set komi to {komi}."
        if session.phase is Phase.PLAY and changed.by is not None:
            colour = self.game.colour_name(0 if session.person(0) == changed.by else 1)
            return f"{changed.by} takes {colour.capitalize()}. {session.turn_text()}."
        return ""

    def saving_changed(self) -> None:
        self.post_message(self.SavingChanged())  # thread-safe: from the writer thread

    @on(SavingChanged)
    def show_saving(self) -> None:
        """Say in the panel, and once in the status line, when the game is not being
        saved and why, and when it is saved again."""
        problem, where = self.saving()
        if problem == self.save_problem_shown:
            return
        panel = self.query_one(GamePanel)
        held = self.online is not None and self.online.clocks_held()
        if problem is not None:
            held_line = f"\n{HELD}" if held else ""
            panel.show_saving(f"Not being saved: {problem}\n({where}){held_line}")
            # A room's problem says itself what becomes of moves; a player who may write
            # files is told how to keep a copy meanwhile.
            save = self.key("play.save")
            after = f" Play goes on; {save} saves a copy elsewhere." if self.seat.files else ""
            self.say(f"{not_kept_text(problem, held)}{after}")
        else:
            panel.show_saving("")
            self.say(kept_again_text(held))
        self.save_problem_shown = problem

    # -- drawing -------------------------------------------------------------------------

    def own_pieces(self) -> set[int]:
        game = self.game
        cells = range(game.geometry.cell_count)
        return {c for c in cells if (p := game.piece_at(c)) and p.colour == game.turn}

    def targets(self) -> frozenset[int]:
        if self.selected is None:
            return frozenset()
        found = set()
        for move in self.game.legal_moves():
            frm, to = self.game.move_cells(move)
            if frm == self.selected and to is not None:
                found.add(to)
        return frozenset(found)

    def draw(self, changed: Changed | None = None) -> None:
        """Everything the session shows: board, panel, analysis, moves."""
        self.draw_board()
        self.draw_panel()
        self.draw_analysis()
        self.query_one(MoveList).show(self.session, changed, analysing=self.analysing)
        self.refresh_bindings()  # whether passing is legal, for one

    def draw_board(self) -> None:
        """The board: pieces, the chosen piece and its targets, the hint or the top
        candidates, the last move, the score overlay."""
        game = self.game
        last = game.last_move
        last_cells = frozenset(
            c for c in (game.move_cells(last) if last is not None else ()) if c is not None
        )
        self.marks = self.marked_cells()
        self.board.show(
            game,
            selected=self.selected,
            targets=self.targets() | self.marks,
            last=last_cells,
            overlay=overlay_for(game) if self.show_score else None,
        )

    def draw_panel(self) -> None:
        session = self.session
        game = self.game
        turn = session.turn_text() if session.phase is Phase.PLAY else "Choosing komi and sides"
        if self.analysing:
            turn = f"Analysis, move {session.move_number()}: {turn}"
        score = score_text(game, shown=self.show_score, short=self.analysing)
        overlay = overlay_for(game) if self.show_score else None
        people = (session.person(0), session.person(1))
        legend = panel_legend(game, self.board.glyphs, overlay, people, monochrome=self.monochrome)
        self.query_one(GamePanel).show_game(game, turn, score, legend)
        self.query_one(ClockFaces).show(session)
        self.cursor_moved(self.board.cursor)
        self.show_summary()

    def cursor_moved(self, cell: int) -> None:
        game = self.game
        name = game.geometry.name(cell)
        piece = game.piece_at(cell)
        if piece is None:
            what = "empty"
        elif piece.colour is None:
            what = piece.kind
        else:
            what = f"{game.colour_name(piece.colour)} {piece.kind}"
            if piece.kind == "stack":
                what += f" of {piece.height}"
        self.query_one(GamePanel).show_cursor(f"Cursor {name}: {what}")
        if self.compact:
            self.query_one(SummaryLine).show_cursor(cell)

    def draw_analysis(self) -> None:
        """The analysis panel: in play the computer's thinking or a hint; in analysis
        the bar, the candidates, the comment and the graph."""
        panel = self.query_one(AnalysisPanel)
        game = self.game
        if not self.analysing:
            thinking = self.searches.search("turn")
            if self.hint is not None:
                text = hint_text(game, self.hint)
            elif thinking is not None and self.searches.busy("turn"):
                speed = live_rate(thinking)
                per_second = f" ({speed:,.0f}/s)" if speed else ""
                text = f"Thinking: {thinking.playouts:,} playouts{per_second}"
            else:
                text = ""
            panel.show(text)
            return
        node = self.session.node
        lines = []
        if node.evaluation is not None:
            lines.append(eval_bar(node.evaluation, game, ascii=self.ascii))
        search = self.searches.search("analysis")
        if search is not None:
            if search.proven is not None:
                lines.append(proven_text(game, search.proven))
            found = shown_candidates(search.candidates())
            # The speed while it searches (a finished search's would vary from run to run).
            rate = live_rate(search) if self.searches.busy("analysis") else None
            lines.append(candidates_text(game, found, search.playouts, rate))
        elif game.is_over():
            lines.append("The game is over here.")
        if node.comment:
            lines.append(f"Comment: {node.comment}")
        values = [self.session.record.root.evaluation]
        values += [n.evaluation for n in self.session.line_nodes()]
        title = f"{first_colour(game)}'s chance, by move:"
        current = self.session.move_number()
        self.query_one(WinRateGraph).show(title, values, current, ascii=self.ascii)
        panel.show("\n".join(lines), True, self.review_shown())

    def review_shown(self) -> Text | str | None:
        """The review's progress while it runs, then its mistakes; None before any."""
        job = self.searches.jobs.get("review")
        if job is not None:
            return progress_text(*job.progress)
        if self.review is None:
            return None
        colours = self.game.info.colours
        return review_text(self.review, self.review_names(), colours, self.shown_mistake())

    def shown_mistake(self) -> int | None:
        """The number of the review's move played in the position shown, if any."""
        node = self.session.node
        if self.review is None or node not in self.review_nodes:
            return None
        number = self.review_nodes.index(node) + 1
        return number if number <= len(self.review.moves) else None

    def scroll_to_review(self, number: int | None) -> None:
        """Bring the review's list into the panel's view, at mistake `number` if given
        (a small terminal shows only part of the panel)."""
        review = self.review
        if review is None:
            return
        line = mistake_line(review, number) if number is not None else None
        box = self.query_one("#review-box", VerticalScroll)

        def scroll() -> None:
            if line is not None:  # within the list, where it is cut short; three lines,
                # as a narrow panel wraps a line or two above it
                box.scroll_to_region(Region(0, line, 1, 3), animate=False, immediate=True)
            panel = self.query_one("#panel", Vertical)
            panel.scroll_to_widget(box, animate=False, immediate=True)

        self.call_after_refresh(scroll)

    def review_names(self) -> list[str]:
        return person_names(self.session.record.players, self.game.info.colours)

    def marked_cells(self) -> frozenset[int]:
        """Cells of the hint (in play), or of the candidates the panel lists (analysis)."""
        moves = []
        if self.analysing:
            search = self.searches.search("analysis")
            if search is not None:
                moves = [c.move for c in shown_candidates(search.candidates())]
        elif self.hint is not None:
            moves = [self.hint.move]
        cells = set()
        for move in moves:
            frm, to = self.game.move_cells(move)
            cell = to if to is not None else frm
            if cell is not None:
                cells.add(cell)
        return frozenset(cells)

    def saving(self) -> tuple[str | None, object]:
        """Why the game is not being saved (None while it is) and where it is: a room's
        as its keeper says, else the session's own autosave."""
        if self.online is not None:
            return self.online.saving()
        return self.session.save_problem, self.session.autosave_path

    def say(self, message: str) -> None:
        """`message` in the status line, followed while the autosave fails by why."""
        problem = self.saving()[0]
        if problem is not None and not message.startswith("Not being saved"):
            message = f"{message} (Not being saved: {problem}.)".lstrip()
        show_text(self.query_one("#status", Static), message)

    @on(SearchStarted)
    def search_started(self) -> None:
        self.ticker.resume()

    def tick(self) -> None:
        """Four times a second while a search runs: keep the evaluation of a search
        under way and show its figures (the timer stops when no search runs)."""
        if not self.searches.jobs:
            self.ticker.pause()
        if self.searches.busy("review"):
            self.draw_analysis()
        search = self.live_search()
        if search is None:
            return
        # A finished search gave its figure when it ended (a review may have replaced it).
        running = any(self.searches.jobs[k].thinker.search is search for k in self.searches.jobs)
        if running and search.playouts >= EVALUATED_AFTER and search.root.moves:
            winrate = search.winrate()
            if winrate is not None:
                first = winrate if self.game.turn == 0 else 1 - winrate
                self.session.node.evaluate(first, search.playouts)
        if self.marked_cells() != self.marks:  # the top candidates changed
            self.draw_board()
        self.draw_analysis()

    @on(ClockFaces.TimeUp)
    def time_up(self) -> None:
        """The running face shows no time left: the game ends on time (in a room, the
        server's own timer records it)."""
        self.turns.time_up()

    def told(self, text: str, refused: bool) -> None:
        """What became of a command sent to the room: sent, or refused (then whoever is
        asked is asked again)."""
        if not self.is_attached:
            return  # the player left the game meanwhile: the lobby shows the room as it is
        if refused:
            self.refuse(text)
            self.next_step()
        else:
            self.say(text)

    def presence_changed(self) -> None:
        """Someone of the game connected or dropped (called by the server, from the
        screen of whoever's connection it was)."""
        self.call_later(self.show_away)

    def show_away(self) -> None:
        presence = self.seat.presence
        if presence is None:
            return
        here = presence.people()
        away = [name for name in self.session.people if name not in here]
        text = "".join(f"{name}'s connection is lost (the seat is kept).\n" for name in away)
        if self.online is not None:
            self.query_one(GamePanel).show_watchers(
                watchers_text(watchers(here, self.online.room.players()))
            )
        if text != self.away_shown:
            self.query_one(GamePanel).show_away(text.rstrip("\n"))
            self.away_shown = text

    def live_search(self) -> Any:
        """The search whose figures the panel shows now, if any."""
        for kind in ("analysis", "hint", "turn"):
            search = self.searches.search(kind)
            if search is not None:
                return search
        return None

    # -- which keys work -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Analysis keys in analysis mode; passing where it is legal; no moves for a
        watcher; no taking back, analysis or files in a shared game."""
        seat = self.seat
        if action == "move_line" and (self.typing or self.chatting):
            return False  # a ':' typed into the move line itself, or into the chat
        if action in ROOM_ACTIONS:
            return self.room_action(action)
        if action == "biggest_mistake":
            return self.analysing and self.review is not None
        if action in ANALYSIS_ONLY:
            return self.analysing
        if action in PLAY_ONLY and self.analysing:
            return False
        if seat.shared and action in OWN_GAME_ONLY:
            return False
        if not seat.files and action in FILE_ACTIONS:
            return seat.download and action == "save"
        if self.turns.watching and action in MOVE_ACTIONS:
            return False
        if action == "pass_turn":
            return self.turns.can_pass()
        if action == "refuse_pass":  # the same key, unlisted, where passing is not allowed
            playing = self.session.phase is Phase.PLAY and not self.turns.watching
            return playing and not self.turns.can_pass()
        if action in ("new_game", "lobby"):
            return seat.shared == (action == "lobby")
        if action == "toggle_panel":
            return self.compact  # the full layout always has the panel
        if action == "pie":
            # `s` swaps while the question is asked, as it says, whatever has the keys (the
            # board's `s` is Down); `p` and Enter answer here only when it is out of sight.
            swap = bool(parameters and parameters[0])
            asked = self.query_one(PieQuestion).asked if swap else self.pie_out_of_sight
            return asked and not self.typing
        return True

    @property
    def chatting(self) -> bool:
        """Whether the room's chat line has the keys."""
        focused = self.focused
        return focused is not None and focused.id == "chat-input"

    def room_action(self, action: str) -> bool | None:
        """Which of a room's keys work now: resign or abort (whichever the game allows),
        a take-back until the game is over, a rematch once it is, the chat always; a
        watcher has the chat only."""
        online = self.online
        if online is None:
            return False
        if action == "room_chat":
            return True
        session = self.session
        if not online.player:
            return False
        if action == "room_rematch":
            return session.over
        if session.over:
            return False
        if action == "room_takeback":
            return True
        return both_moved(session) == (action == "room_resign")

    def action_room_takeback(self) -> None:
        if self.online is not None:
            self.online.takeback()

    def action_room_resign(self) -> None:
        if self.online is not None:
            self.online.resign()

    action_room_abort = action_room_resign

    def action_room_rematch(self) -> None:
        if self.online is not None:
            self.online.rematch()

    def action_room_chat(self) -> None:
        """The chat line beside the board, or the chat's own screen where the panel is
        hidden (a small terminal)."""
        if self.online is None:
            return
        panels = self.query(ChatPanel)
        if panels and self.panel_shown:
            panels.first().query_one("#chat-input").focus()
        else:
            self.online.open_chat()

    @on(ChatPanel.Left)
    def chat_left(self) -> None:
        self.board.focus()

    @on(ChatPanel.Heard)
    def chat_heard(self, event: ChatPanel.Heard) -> None:
        """Where the chat is out of sight (the compact view), a line said by somebody
        else is told in the status line, with the key that opens the chat."""
        line, online = event.line, self.online
        if self.panel_shown or online is None or line.by == online.user:
            return
        panel = self.query(ChatPanel)
        if line.watcher and panel and panel.first().watchers_hidden:
            return
        width = self.query_one("#status", Static).content_region.width
        self.say(status_text(line, width, f"{self.key('room.chat')} opens the chat"))

    @property
    def pie_out_of_sight(self) -> bool:
        """Whether the pie rule is asked while the panel that holds its question is hidden."""
        return self.query_one(PieQuestion).asked and not self.panel_shown

    def action_pie(self, swap: bool) -> None:
        self.query_one(PieQuestion).action_answer(swap)

    # -- turns ----------------------------------------------------------------------------

    def next_step(self) -> None:
        """Ask whoever the session waits for here: komi, a side, the pie rule, or let
        the computer decide."""
        if self.asking or not self.is_attached:
            return
        request = self.turns.request()
        if request is None or request.ask is not Ask.PIE:
            self.withdraw_pie()
        if request is None:
            return
        session = self.session
        info = self.game.info
        if request.ask is Ask.COMPUTER:
            if self.searches.busy("turn"):
                return
            assert request.level is not None
            what = {Phase.KOMI: "komi", Phase.SIDE: "a side"}.get(session.phase, "its move")
            now = f"({self.key('play.cancel')}: decide now)"
            self.say(f"{request.name} ({request.level}) is choosing {what}... {now}")
            self.searches.computer_turn(request.level)
        elif request.ask is Ask.KOMI:
            self.ask(KomiDialog(info, session.chooser), self.turns.set_komi)
        elif request.ask is Ask.SIDE:
            dialog = SideDialog(info, session.chooser, self.game.options.komi)
            self.ask(dialog, self.turns.choose_side)
        elif request.ask is Ask.PIE:
            one, two = (c.capitalize() for c in info.colours)
            self.query_one(PieQuestion).ask((one, two), session.person(0), session.person(1))
            self.say_pie()

    def say_pie(self) -> None:
        """The pie rule's question in the status line, where its box is out of sight."""
        if self.pie_out_of_sight:
            second = self.session.person(1)
            self.say(f"{second}: s swaps, p plays on (the pie rule).")

    def ask(self, dialog: Screen[Any], answer: Callable[[Any], Any]) -> None:
        def answered(value: Any) -> None:
            self.asking = False
            if value is not None:
                answer(value)

        self.asking = True
        self.app.push_screen(dialog, answered)

    def withdraw_pie(self) -> None:
        """Hide the pie rule's question (no longer open), the keys back to the board."""
        question = self.query_one(PieQuestion)
        if question.asked:
            question.withdraw()
            if self.focused is question:
                self.board.focus()

    @on(PieQuestion.Answered)
    def swap_chosen(self, message: PieQuestion.Answered) -> None:
        self.withdraw_pie()
        if message.swap:
            self.refuse(self.turns.swap())

    @on(SearchDone)
    def search_done(self, message: SearchDone) -> None:
        job = message.job
        if not self.searches.take(job):
            return
        if job.kind == "turn":
            if self.session.phase is Phase.PLAY:
                self.thought = time.monotonic() - job.started  # said with the move
            self.turns.decided(message.result)
        elif job.kind == "hint":
            self.show_hint(message.result)
        elif job.kind == "analysis":
            search = job.thinker.search
            winrate = search.winrate() if search is not None else None
            if search is not None and winrate is not None:
                first = winrate if self.game.turn == 0 else 1 - winrate
                self.session.node.evaluate(first, search.playouts)
            self.draw_board()
            self.draw_analysis()
        elif job.kind == "review":
            self.review_done(job.nodes, message.result)

    def refuse(self, reason: str | None) -> None:
        """Say why something was not done, with the bell; nothing if it was."""
        if reason is not None:
            self.say(reason)
            self.app.bell()

    # -- input ---------------------------------------------------------------------------

    @on(BoardView.Activated)
    def cell_activated(self, event: BoardView.Activated) -> None:
        cell = event.cell
        game = self.game
        if self.session.phase is not Phase.PLAY:
            self.next_step()
            return
        if self.turns.watching:
            self.refuse(self.turns.refusal())
            return
        name = game.geometry.name(cell)
        if self.selected is not None:
            if cell in self.targets():
                self.refuse(self.turns.play(f"{game.geometry.name(self.selected)}-{name}"))
                return
            if cell == self.selected:
                self.selected = None
                self.say("Selection cancelled.")
                self.draw_board()
                return
        piece = game.piece_at(cell)
        if game.info.captures and piece is not None and piece.colour == game.turn:
            self.selected = cell
            if self.targets():
                cancel = self.key("play.cancel")
                self.say(f"{name} selected: choose a marked target ({cancel} cancels).")
            else:
                self.selected = None
                self.say(f"The {piece.kind} on {name} has no capture now.")
            self.draw_board()
            return
        self.refuse(self.turns.play(cell))  # the rules check it once, and say why not

    def action_move_line(self) -> None:
        line = self.query_one("#move-line", Input)
        self.show_move_line(True)
        line.value = ""
        self.check_typed(typed_check(self.game, ""))
        self.set_focus(line)  # at once: keys typed right after ':' belong to the line

    @on(Input.Submitted, "#move-line")
    def move_typed(self, event: Input.Submitted) -> None:
        result = event.validation_result
        if result is not None and not result.is_valid:
            # Beside the text, which stays to be corrected: the status line is hidden.
            self.check_typed("Not played: " + "; ".join(result.failure_descriptions))
            self.app.bell()
            return
        self.close_move_line()
        self.refuse(self.turns.play(event.value))

    @on(Input.Changed, "#move-line")
    def move_changed(self, event: Input.Changed) -> None:
        self.check_typed(typed_check(self.game, event.value))

    def check_typed(self, sentence: str) -> None:
        """What the move line says of its text; the status line keeps what it said."""
        show_text(self.query_one("#move-check", Static), sentence)

    @property
    def typing(self) -> bool:
        """Whether the move line is open (in place of the status line)."""
        return self.query_one("#move-row").display

    def show_move_line(self, shown: bool) -> None:
        # The widgets' own display, not a class on the screen: a screen's class makes
        # Textual style every widget again, which over SSH costs the loop dearly.
        self.query_one("#move-row").display = shown
        self.show_lines()

    def close_move_line(self) -> None:
        self.show_move_line(False)
        self.set_focus(self.board)

    def action_cancel(self) -> None:
        if self.searches.hurry("turn"):
            self.say("Deciding now...")
        elif self.searches.hurry("review"):
            self.say("Stopping the review...")
        elif self.typing:
            self.close_move_line()  # the status line as it was before the line opened
        elif self.selected is not None:
            self.selected = None
            self.say("Selection cancelled.")
            self.draw_board()

    def action_refuse_pass(self) -> None:
        self.action_pass_turn()  # which says why passing is not allowed

    def action_pass_turn(self) -> None:
        reason = self.game.illegal_reason(PASS)
        if reason is not None:
            self.refuse(f"Not passed: {reason}")
            return
        self.refuse(self.turns.play(PASS))

    def action_undo(self) -> None:
        if self.analysing:
            self.action_back()
            return
        self.searches.cancel("turn")
        self.say(self.turns.undo())

    def action_redo(self) -> None:
        if self.analysing:
            self.action_forward()
            return
        self.searches.cancel("turn")
        self.say(self.turns.redo())

    def action_toggle_score(self) -> None:
        self.show_score = not self.show_score
        self.draw_board()
        self.draw_panel()

    def action_count(self) -> None:
        """The whole count in a box that scrolls: every patch, region or group, which
        the panel of a small terminal has not the room for."""
        title = "How the game was counted" if self.game.is_over() else "The count as it stands"
        self.app.push_screen(ReadingDialog(title, count_text(self.game)))

    def action_new_game(self) -> None:
        """Back to the selection screen; an unfinished game stays in progress (ctrl+r
        there lists the games in progress to resume)."""
        if not self.seat.shared:
            self.session.pause_clock()
        if not self.seat.shared and self.game.moves and not self.session.over:
            self.app.notify(
                "This game is kept: Esc comes back to it, ctrl+r resumes it later.", markup=False
            )
        self.post_message(NewGameRequested())

    def action_lobby(self) -> None:
        """Leave a shared game for the lobby; the game goes on without this screen."""
        self.post_message(NewGameRequested())

    def action_save(self) -> None:
        default = f"{self.game.info.name}-{self.session.record.date or 'game'}.sgf"
        if self.seat.download:  # the browser saves it on the visitor's machine
            record = io.StringIO(self.session.record.to_sgf())
            self.app.deliver_text(record, save_filename=default, mime_type="application/x-go-sgf")
            self.say(f"Saved: your browser downloads {default}")
            return

        def chosen(path: str | None) -> None:
            if path is None:
                return
            try:
                self.session.save(path)
            except OSError as error:
                self.say(f"Not saved: {error.strerror or error} ({path})")
                return
            self.say(f"Saved to {Path(path).resolve()}")

        from ..dialogs.save_record import SaveRecordDialog

        self.app.push_screen(SaveRecordDialog(Path.cwd(), default, ascii=self.ascii), chosen)

    def action_load(self) -> None:
        from ...recent import RecentRecords
        from ..dialogs.open_record import OpenRecordDialog

        def chosen(path: str | None) -> None:
            if path is not None:
                self.post_message(LoadRequested(path))

        data = getattr(self.app, "data", None)
        recent = RecentRecords(data).read() if isinstance(data, Path) else []
        dialog = OpenRecordDialog(recent, Path.cwd(), ascii=self.ascii)
        self.app.push_screen(dialog, chosen)

    def on_screen_resume(self, event: ScreenResume) -> None:
        """Back to the game (from the selection screen, or a dialog closed): its clock
        goes on, and the faces show it as it stands (a dialog held their redraws)."""
        if not self.seat.shared and not self.analysing and self.session.clock_paused:
            self.session.resume_clock()
        self.query_one(ClockFaces).show(self.session)

    def action_help(self) -> None:
        self.post_message(HelpRequested())

    # -- analysis mode ----------------------------------------------------------------------

    def action_toggle_analysis(self) -> None:
        self.mode = PLAY if self.analysing else ANALYSIS

    def watch_mode(self, mode: str) -> None:
        analysing = mode == ANALYSIS
        self.turns.analysing = analysing
        if not self.seat.shared:  # analysis holds the clock; play lets it run
            if analysing:
                self.session.pause_clock()
                self.session.hold_live()
            else:
                # Back to the game as it stands (as lichess and KaTrain do), not to the
                # position studied: the variations tried stay in the record.
                self.session.back_to_live()
                self.session.resume_clock()
        self.set_class(analysing, "-analysing")
        self.selected = None
        self.hint = None
        self.searches.cancel("hint")
        if analysing:
            self.searches.cancel("turn")
            self.say(self.analysis_tip())
            self.start_analysis()
        else:
            self.searches.cancel("analysis")
            self.searches.cancel("review")
            self.say(f"Back to play. {self.session.turn_text()}.")
        self.draw()
        self.next_step()

    def start_analysis(self) -> None:
        if self.game.is_over():
            self.searches.cancel("analysis")
            return
        self.searches.analyse(analysis_budget(), "analysis")

    def action_hint(self) -> None:
        if self.session.over:
            self.say("The game is over: there is no move to suggest.")
            return
        self.say("Looking for a good move...")
        self.searches.analyse(HINT_BUDGET, "hint")

    def cell_of(self, move: int) -> int:
        frm, to = self.game.move_cells(move)
        cell = to if to is not None else frm
        return self.board.cursor if cell is None else cell

    def show_hint(self, found: list[Hint]) -> None:
        if not found:
            return
        self.hint = found[0]
        # A move from a cell to a cell (a capture): its piece chosen, the cursor on its
        # target, so that Enter plays the hint as it plays any chosen piece's move.
        frm, to = self.game.move_cells(self.hint.move)
        self.selected = frm if frm is not None and to is not None else None
        self.board.cursor = self.cell_of(self.hint.move)
        # A pass or a swap has no cell for Enter to act on: its own key plays it.
        key = {PASS: "play.pass", SWAP: "play.pie_swap"}.get(self.hint.move, "board.activate")
        play = self.key(key)
        self.say(f"{hint_text(self.game, self.hint).replace(chr(10), '; ')}; {play} plays it.")
        self.draw_board()
        self.draw_analysis()

    def step(self, moved: bool, nothing: str) -> None:
        if not moved:
            self.say(nothing)
            return
        session = self.session
        comment = f" Comment: {session.node.comment}" if session.node.comment else ""
        self.say(f"Move {session.move_number()}. {session.turn_text()}.{comment}")

    @on(WinRateGraph.Chosen)
    def graph_chosen(self, message: WinRateGraph.Chosen) -> None:
        """A click on the win-rate graph: the position after that move of the line."""
        if self.analysing:
            self.step(self.session.jump(message.number), "")

    def action_back(self) -> None:
        self.step(self.session.back(), "This is the start.")

    def action_forward(self) -> None:
        self.step(self.session.forward(), "This is the end of the line.")

    def action_leap(self, moves: int) -> None:
        """Ten moves back or on along the line (the graph's points, ten at a time)."""
        last = len(self.session.line_nodes())
        here = self.session.move_number()
        target = max(0, min(last, here + moves))
        edge = "This is the start." if moves < 0 else "This is the end of the line."
        self.step(target != here and self.session.jump(target), edge)

    def action_to_start(self) -> None:
        self.step(self.session.jump(0), "This is the start.")

    def action_to_end(self) -> None:
        self.step(self.session.jump(len(self.session.line_nodes())), "")

    def action_jump(self) -> None:
        last = len(self.session.line_nodes())

        def number(text: str) -> int | None:
            # ASCII digits only: int() refuses `²`, which str.isdigit() takes.
            found = read_int(text.strip())
            return found if found is not None and 0 <= found <= last else None

        def check(text: str) -> str | None:
            return f"a number from 0 (the start) to {last}" if number(text) is None else None

        def chosen(text: str | None) -> None:
            move = number(text) if text is not None else None
            if move is not None:
                self.step(self.session.jump(move), "")

        dialog = TextDialog("Go to a move", f"Move number (0 to {last}):", "", check)
        self.app.push_screen(dialog, chosen)

    def action_variation(self, step: int) -> None:
        count = len(self.session.variations())
        if self.session.switch_variation(step):
            index = self.session.variations().index(self.session.node) + 1
            self.say(f"Variation {index} of {count}: {self.session.turn_text()}.")
        else:
            self.say("No other move was tried here.")

    def branch_point(self) -> RecordNode:
        """The last position the line shown shares with the main line."""
        node = self.session.node
        while not node.on_main_line():
            assert node.parent is not None  # the root is on the main line
            node = node.parent
        return node

    def action_main_line(self) -> None:
        """Go back to where the line shown left the main line (the record stays as it is)."""
        session = self.session
        if session.on_main_line():
            make = self.key("study.promote")
            self.say(f"This is the main line already ({make} makes the line shown the main line).")
            return
        session.go_to(self.branch_point())
        self.say(f"Back to the main line, move {session.move_number()}: {session.turn_text()}.")

    def action_promote(self) -> None:
        """Make the line shown the main line, the main line's own moves from where they
        part a variation; asks first, since a save then keeps this line as the game."""
        session = self.session
        if session.on_main_line():
            self.say("This is the main line already.")
            return

        def chosen(yes: bool | None) -> None:
            if yes and session.promote():
                self.say("This line is now the main line; the one it replaced is a variation.")

        parted = len(self.branch_point().line()) + 1
        back = self.key("study.main_line")
        question = (
            f"Make this line the main line? The main line's moves from move {parted} on "
            f"become a variation, and a save keeps this line as the game ({back} only goes "
            "back to the main line)."
        )
        self.app.push_screen(ConfirmDialog(question), chosen)

    def action_delete_variation(self) -> None:
        session = self.session
        if session.node.parent is None or session.on_main_line():
            self.say("Only a variation can be deleted (promote another line first).")
            return

        def chosen(yes: bool | None) -> None:
            if yes and session.delete_variation():
                self.say("Variation deleted.")

        positions = sum(1 for _ in session.node.walk())
        self.app.push_screen(
            ConfirmDialog(
                f"Delete this variation ({positions} "
                f"position{'s' * (positions != 1)} from here on)?"
            ),
            chosen,
        )

    def action_comment(self) -> None:
        def chosen(text: str | None) -> None:
            if text is not None:
                self.session.set_comment(text)
                self.say("Comment kept." if text.strip() else "Comment removed.")

        where = f"move {self.session.move_number()}" if self.session.move_number() else "the game"
        dialog = TextDialog(
            "Comment", f"A comment on {where} (saved with the record):", self.session.node.comment
        )
        self.app.push_screen(dialog, chosen)

    def action_review(self) -> None:
        """Review every move of the line shown in the background (again: stop it)."""
        if self.searches.hurry("review"):
            self.say("Stopping the review...")
            return
        session = self.session
        nodes = [session.record.root, *session.line_nodes()]
        job = self.searches.review(nodes)
        total = job.progress[1]
        stop = f"{self.key('study.review')} or {self.key('play.cancel')}"
        self.say(f"Reviewing the {total - 1} moves of this line... ({stop} stops)")
        self.draw_analysis()

    def review_done(self, nodes: tuple[Any, ...], review: Review) -> None:
        """Keep the review, and its win rates as the graph's (a longer search of a
        position since replaces its figure, as before)."""
        total = len(nodes) - 1
        if not review.moves:
            self.say(f"Review stopped before its first move; {total} moves to review.")
            self.draw_analysis()
            return
        self.review = review
        self.review_nodes = nodes
        playouts = review.playouts // max(1, len(review.evaluations))
        for node, value in zip(nodes, review.evaluations, strict=False):
            node.evaluation, node.evaluated_with = value, playouts
        names = self.review_names()
        accuracy = ", ".join(
            f"{name} {figure:.0f}"
            for person, name in enumerate(names)
            if (figure := review.accuracy(person)) is not None
        )
        done = f"Reviewed {total} moves" if len(review.moves) == total else "Review stopped"
        if len(review.moves) < total:
            done = f"Review stopped: {len(review.moves)} of {total} moves"
        self.say(f"{done}. Accuracy: {accuracy or '-'}.")
        self.draw_analysis()
        self.refresh_bindings()  # the biggest mistake's key
        self.scroll_to_review(None)

    def action_mistake(self, step: int) -> None:
        """The next (or previous) mistake of the review, in the order of the game."""
        if self.review is None:
            self.say(f"No review yet: {self.key('study.review')} reviews the line.")
            return
        node = self.session.node
        here = self.review_nodes.index(node) if node in self.review_nodes else -1
        number = next_mistake(self.review, here, step)
        if number is None:
            self.say("The review found no mistake.")
            return
        self.action_go_to_mistake(number)

    def action_biggest_mistake(self) -> None:
        """The review's biggest mistake; from one of its mistakes, the next biggest."""
        if self.review is None:
            return
        number = next_biggest(self.review, self.shown_mistake())
        if number is None:
            self.say("The review found no mistake.")
            return
        self.action_go_to_mistake(number)

    def action_go_to_mistake(self, number: int) -> None:
        """Show the position in which the review's move `number` was played."""
        review = self.review
        if review is None or not 1 <= number <= len(review.moves):
            return
        self.session.go_to(self.review_nodes[number - 1])
        m = review.moves[number - 1]
        name = self.review_names()[m.person]
        best = f"; the review's best: {m.best}" if m.best else ""
        self.say(f"Move {number}: {name} played {m.name} here and lost {m.loss:.1%}{best}.")
        self.draw_analysis()
        self.scroll_to_review(number)

    def action_setup(self) -> None:
        """Set up a position on a screen of its own; analysis goes on from it."""
        if self.session.phase is not Phase.PLAY:
            self.say("Set komi and sides first.")
            return
        self.mode = ANALYSIS
        self.searches.cancel("analysis")

        def done(position: str | None) -> None:
            if position is None:
                self.say("Setup cancelled: the position is as it was.")
            else:
                self.set_up(position, "Position set up: play or analyse from here.")
            self.start_analysis()

        screen = SetupScreen(self.game, ascii=self.ascii, cursor=self.board.cursor)
        self.app.push_screen(screen, done)

    def set_up(self, position: str, news: str) -> None:
        try:
            self.session.set_up(position)
        except RulesError as error:
            self.refuse(f"Not set up: {error}")
            return
        self.say(news)

    def action_position(self) -> None:
        """Show the position string (copied to the clipboard where the terminal allows) and
        take a pasted or typed one in its place."""
        game = self.game
        text = game.position()
        self.app.copy_to_clipboard(text)

        def check(value: str) -> str | None:
            try:
                type(game).from_position(value.strip())
            except RulesError as error:
                return str(error)
            return None

        def chosen(value: str | None) -> None:
            if value is None or value.strip() in ("", text):
                return
            if self.seat.shared:
                self.refuse("Setting up a position is not possible in a shared game.")
                return
            self.set_up(value.strip(), "Position set up from the string: play goes on from it.")

        self.app.push_screen(PositionDialog(text, check), chosen)
