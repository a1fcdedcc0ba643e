"""The play screen: a board, the game panel, the analysis panel, the move list, the status
line and the move line, composed; keys and messages routed.

One direction: actions change the session (through `Turns`, and the analysis, review and
set-up controllers of `abstracts_tui.play`); the session says what changed; the screen
hands each widget what it draws. Its helpers: `asking.py` (komi, sides, the pie rule,
the computer's turn), `thinking.py` (searches), `selection.py` (the board's choices),
`study_keys.py` (analysis mode's keys), `room_keys.py` (a room's), `play_files.py`
(records). `mode` is a `Mode`; the layout is CSS classes (`play_layout.py`,
`play.tcss`); the keys are `play_keys.py`'s. Setting up a position is a screen of its own
(`setup.py`); the searches are thread workers that post `SearchDone` (`computer.py`).
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize, ScreenResume
from textual.reactive import reactive
from textual.widgets import Static

from ...chances import Hint
from ...play.turns import Turns
from ...rooms.events import Stamped
from ...rules import PASS, Game
from ...session import Change, Changed, Phase, Session
from ...subscribers import Ties
from .. import kept_ready, play_files
from ..asking import Asking
from ..computer import Kind, SearchDone, Searches, SearchStarted
from ..keymaps import key_of
from ..messages import HelpRequested, NewGameRequested
from ..online import OnlinePlay
from ..overlay import overlay_for
from ..play_keys import (
    ANALYSIS_ONLY,
    BINDINGS,
    FILE_ACTIONS,
    MOVE_ACTIONS,
    OWN_GAME_ONLY,
    PLAY_ONLY,
    ROOM_ACTIONS,
    ROOM_WHEN,
    Mode,
    analysis_tip,
    first_tip,
)
from ..play_layout import Layout
from ..play_messages import RoomHeard, SavingChanged, SessionChanged
from ..play_news import News, saving_news
from ..play_seat import MoveText, Presence, Seat
from ..premove import Premove
from ..room_keys import RoomKeys
from ..selection import Selection
from ..study_keys import StudyKeys
from ..textual_internals import SteadyScreen, SteadyStatic
from ..thinking import Thinking
from ..widgets.analysis_panel import AnalysisPanel
from ..widgets.board import BoardView, board_for
from ..widgets.chat_panel import ChatPanel
from ..widgets.clock_faces import ClockFaces
from ..widgets.game_panel import GamePanel
from ..widgets.key_bar import KeyBar
from ..widgets.move_line import MoveLine, MoveTyping
from ..widgets.move_list import MoveList
from ..widgets.pie_question import PieQuestion
from ..widgets.steady_text import show_text
from ..widgets.summary_line import SummaryLine
from ..widgets.win_rate_graph import WinRateGraph

__all__ = [
    "ANALYSIS_ONLY",
    "ROOM_ACTIONS",
    "ROOM_WHEN",
    "Mode",
    "MoveText",
    "PlayScreen",
    "Presence",
    "Seat",
]

TICK = 0.25
"""Seconds between two redraws of a search's figures (four a second)."""


class PlayScreen(MoveTyping, SteadyScreen[None]):
    """A game in progress, played from the keyboard or the mouse, or studied."""

    CSS_PATH = "play.tcss"
    BINDINGS = BINDINGS

    mode: reactive[Mode] = reactive(Mode.PLAY, init=False)
    """Play, or analysis: moves start variations, the computer players wait, and the
    position shown is searched continuously."""

    def __init__(self, session: Session, *, ascii: bool = False, seat: Seat | None = None) -> None:
        super().__init__()
        self.session = session
        self.ascii = ascii
        self.seat = seat = seat or Seat()
        room, send = seat.room, seat.send
        self.online = OnlinePlay(self, session, room, send) if room and send else None
        """A room's online play, held here (None elsewhere)."""
        self.room_keys = RoomKeys(self)
        people = seat.local_people
        told = self.room_keys.told
        self.turns = Turns(session, local_people=people, shared=seat.shared, send=send, told=told)
        self.premove = Premove(self)
        self.turns.hold = self.premove.hold if self.online is not None else None
        online = self.online
        self.chat = (
            ChatPanel(online.chat, online.chat_send, hideable=online.player, mutes=online.mutes)
            if online
            else None
        )
        self.status = SteadyStatic(id="status", markup=False)
        self.searches = Searches(self, session)
        self.thinking = Thinking(self)
        self.questions = Asking(self)
        self.selection = Selection(self)
        self.study_keys = StudyKeys(self, session)
        self.news = News(self)
        self.thought: float | None = None
        """How long the computer thought over the move it plays next (None: not yet)."""
        self.asking = False
        """Whether a komi or side dialog of this screen is open."""
        self.hint: Hint | None = None
        self.selected: int | None = None
        self.show_score = session.game.is_over()
        self.save_problem_shown: str | None = None
        self.board: BoardView = board_for(session.game, ascii=ascii, id="board")
        self.board.choosing = not self.turns.watching
        self.pie = PieQuestion(id="pie")
        self.summary = SummaryLine(id="summary")
        self.too_small = Static(id="too-small", markup=False)
        self.fitting = Layout(self)
        self.analysis_panel = AnalysisPanel(ascii=ascii, id="analysis-panel")
        self.move_line = MoveLine(session, MoveText(session), id="move-row")

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def analysing(self) -> bool:
        return self.mode is Mode.ANALYSIS

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="panel"):
                yield self.pie
                yield GamePanel(id="game-panel")
                yield self.analysis_panel
                yield MoveList(id="moves-box")
                if self.chat is not None:
                    yield self.chat
        yield self.too_small
        yield self.summary
        yield self.status
        yield self.move_line
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
        self.thinking.ticker = self.set_interval(TICK, self.thinking.tick, pause=True)
        if not self.seat.shared:  # a room's clock is the server's to run
            self.session.resume_clock()
        if self.seat.presence is not None:
            self.seat.presence.follow(True, self.presence_changed)
            self.show_away()
        if self.turns.watching:
            self.say(self.turns.refusal() or "")
        elif not self.game.moves:
            self.say(first_tip(self.app, self.key, self.offers("hint")))
        self.draw()
        self.show_saving()
        self.call_after_refresh(self.next_step)

    def key(self, binding_id: str) -> str:
        """The key bound now to `binding_id` (the keymap's, if it gives one), as tips name it."""
        return key_of(self.app, binding_id, type(self), BoardView)

    def offers(self, action: str) -> bool:
        """Whether the key of `action` works on this screen now (tips name only those)."""
        return bool(self.check_action(action, ()))

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
        self.fitting.lay_out()
        if self.typing:  # the summary line as the new layout has room for it
            self.show_move_line(True)

    def action_toggle_panel(self) -> None:
        self.fitting.toggle_panel()

    # -- what the session says --------------------------------------------------------------

    def session_changed(self, changed: Changed) -> None:
        self.post_message(SessionChanged(changed))

    def saving_changed(self) -> None:
        self.post_message(SavingChanged())  # thread-safe: from the writer thread

    def room_heard(self, events: list[Stamped]) -> None:
        self.post_message(RoomHeard(events))

    @on(SessionChanged)
    def redraw_changed(self, message: SessionChanged) -> None:
        changed = message.changed
        if changed.change in (Change.MOVE, Change.STEP, Change.SETUP):
            self.selected = None
            self.hint = None
            self.searches.cancel(Kind.HINT)
        if changed.change is Change.MOVE:
            self.show_score = self.show_score or self.game.is_over()
        elif changed.change is Change.STEP:
            self.show_score = self.show_score and self.game.is_over()
        elif changed.change is Change.FLAG:
            self.searches.cancel(Kind.TURN)
        elif changed.change is Change.SEATS:
            self.questions.seats_changed()
        news = self.news.of(changed)
        if news is not None:
            self.say(news)
        self.draw(changed)
        if self.analysing:
            self.thinking.analyse()
        self.next_step()
        self.premove.turn_came()

    @on(RoomHeard)
    def say_room_events(self, message: RoomHeard) -> None:
        if self.is_attached:
            self.news.room_events(message.events)

    @on(SavingChanged)
    def show_saving(self) -> None:
        """Say in the panel, and once in the status line, when the game is not being
        saved and why, and when it is saved again."""
        problem, where = self.news.saving()
        if problem != self.save_problem_shown:
            held = self.online is not None and self.online.clocks_held()
            self.query_one(GamePanel).show_saving(problem, where, held)
            self.say(saving_news(problem, held, self.key("play.save") if self.seat.files else None))
            self.save_problem_shown = problem

    # -- drawing -------------------------------------------------------------------------

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
        game, last = self.game, self.game.last_move
        cells = game.move_cells(last) if last is not None else ()
        marks = self.thinking.marks = self.thinking.marked_cells()
        overlay = overlay_for(game) if self.show_score else None
        last_cells = frozenset(c for c in cells if c is not None)
        targets = self.selection.targets() | marks
        self.board.show(
            game, selected=self.selected, targets=targets, last=last_cells, overlay=overlay
        )

    def draw_panel(self) -> None:
        monochrome = self.app.no_color or getattr(self.app, "monochrome", None) is not None
        self.query_one(GamePanel).show_session(
            self.session,
            analysing=self.analysing,
            score=self.show_score,
            glyphs=self.board.glyphs,
            monochrome=monochrome,
        )
        self.query_one(ClockFaces).show(self.session)
        self.cursor_moved(self.board.cursor)
        self.fitting.show_summary()

    def cursor_moved(self, cell: int) -> None:
        self.query_one(GamePanel).show_cell(self.game, cell)
        if self.fitting.compact:
            self.summary.show_cursor(cell)

    def draw_analysis(self) -> None:
        """The analysis panel: in play the computer's thinking or a hint; in analysis
        the bar, the candidates, the comment, the graph and the review."""
        self.analysis_panel.draw(
            self.session,
            self.searches,
            analysing=self.analysing,
            hint=self.hint,
            review=self.study_keys.shown,
        )

    def say(self, message: str) -> None:
        """`message` in the status line, followed while the autosave fails by why."""
        problem = self.news.saving()[0]
        if problem is not None and not message.startswith("Not being saved"):
            message = f"{message} (Not being saved: {problem}.)".lstrip()
        show_text(self.status, message)

    def refuse(self, reason: str | None) -> None:
        """Say why something was not done, with the bell; nothing if it was."""
        if reason is not None:
            self.say(reason)
            self.app.bell()

    @on(SearchStarted)
    def search_started(self) -> None:
        if self.thinking.ticker is not None:
            self.thinking.ticker.resume()

    @on(SearchDone)
    def search_done(self, message: SearchDone) -> None:
        job = message.job
        if not self.searches.take(job):
            return
        if job.kind is Kind.REVIEW:
            self.study_keys.review_done(job.nodes, message.result)
        else:
            self.thinking.done(job, message.result)

    @on(ClockFaces.TimeUp)
    def time_up(self) -> None:
        """The running face shows no time left: the game ends on time (in a room, the
        server's own timer records it)."""
        self.turns.time_up()

    def presence_changed(self) -> None:
        """Someone of the game connected or dropped (called by the server, from the
        screen of whoever's connection it was)."""
        self.call_later(self.show_away)

    def show_away(self) -> None:
        if (presence := self.seat.presence) is not None:
            players = self.online.room.players() if self.online is not None else None
            here = presence.people()
            self.query_one(GamePanel).show_presence(self.session.people, here, players)
            self.refresh_bindings()  # a claim's key, once the other player has left

    # -- which keys work -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Analysis keys in analysis mode; passing where it is legal; no moves for a
        watcher; no taking back, analysis or files in a shared game."""
        seat, turns = self.seat, self.turns
        if action == "move_line" and (self.typing or self.chatting):
            return False  # a ':' typed into the move line itself, or into the chat
        if action == "room":
            return self.room_keys.works(str(parameters[0]))
        if action in ANALYSIS_ONLY:  # the biggest mistake's key once there is a review
            biggest = parameters[:1] == ("biggest_mistake",)
            return self.analysing and (self.study_keys.reviews.review is not None or not biggest)
        if (action in PLAY_ONLY and self.analysing) or (seat.shared and action in OWN_GAME_ONLY):
            return False
        if not seat.files and action in FILE_ACTIONS:
            return seat.download and action == "save"
        if turns.watching and action in MOVE_ACTIONS:
            return False
        if action == "pass_turn":
            return turns.can_pass()
        if action == "refuse_pass":  # the same key, unlisted, where passing is not allowed
            return self.session.phase is Phase.PLAY and not turns.watching and not turns.can_pass()
        if action in ("new_game", "lobby"):
            return seat.shared == (action == "lobby")
        if action == "toggle_panel":
            return self.fitting.compact  # the full layout always has the panel
        if action == "pie":
            # `s` swaps while the question is asked, as it says, whatever has the keys (the
            # board's `s` is Down); `p` and Enter answer here only when it is out of sight.
            swap = bool(parameters and parameters[0])
            asked = self.pie.asked if swap else self.pie_out_of_sight
            return asked and not self.typing
        return True

    @property
    def chatting(self) -> bool:
        """Whether the room's chat line has the keys."""
        focused = self.focused
        return focused is not None and focused.id == "chat-input"

    def action_room(self, what: str) -> None:
        self.room_keys.press(what)

    @on(ChatPanel.Left)
    def chat_left(self) -> None:
        self.board.focus()

    @on(ChatPanel.Heard)
    def chat_heard(self, event: ChatPanel.Heard) -> None:
        self.room_keys.heard(event.line)

    # -- turns ----------------------------------------------------------------------------

    def say_pie(self) -> None:
        self.questions.say_pie()

    @property
    def pie_out_of_sight(self) -> bool:
        """Whether the pie rule is asked while the panel that holds its question is hidden."""
        return self.pie.asked and not self.fitting.panel_shown

    def action_pie(self, swap: bool) -> None:
        self.pie.action_answer(swap)

    @on(PieQuestion.Answered)
    def swap_chosen(self, message: PieQuestion.Answered) -> None:
        self.questions.pie_answered(message.swap)

    def next_step(self) -> None:
        """Ask whoever the session waits for here (`asking.py`)."""
        self.questions.next_step()

    # -- input ---------------------------------------------------------------------------

    @on(BoardView.Activated)
    def cell_activated(self, event: BoardView.Activated) -> None:
        self.selection.activated(event.cell)

    def action_move_line(self) -> None:
        self.show_move_line(True)
        self.move_line.start()

    @on(MoveLine.Typed)
    def move_typed(self, event: MoveLine.Typed) -> None:
        self.close_move_line()
        if kept_ready.typed(self, self.online, event.text):  # `if d4 then e5`, `ifs`
            return
        self.refuse(self.turns.play(event.text))

    def show_move_line(self, shown: bool) -> None:
        """Open the move line in place of the status line (of the summary line where the
        compact view has no status line), or close it. Inline styles, not classes: a
        class makes Textual style the widget again, which over SSH costs the loop dearly;
        closed, the layout's classes (`play.tcss`) apply again."""
        self.move_line.display = shown
        self.refresh_bindings()  # the footer without the keys the line takes
        summary_too = "message" not in self.fitting.kept and self.fitting.compact
        for widget, hidden in ((self.status, True), (self.summary, summary_too)):
            if shown and hidden:
                widget.styles.display = "none"
            elif widget.styles.inline.clear_rule("display"):
                widget.refresh(layout=True)

    def close_move_line(self) -> None:
        self.show_move_line(False)
        self.set_focus(self.board)

    def action_cancel(self) -> None:
        if self.searches.hurry(Kind.TURN):
            self.say("Deciding now...")
        elif self.searches.hurry(Kind.REVIEW):
            self.say("Stopping the review...")
        elif self.typing:
            self.close_move_line()  # the status line as it was before the line opened
        elif not self.premove.clear():
            self.selection.cancel()

    def action_refuse_pass(self) -> None:
        self.action_pass_turn()  # which says why passing is not allowed

    def action_pass_turn(self) -> None:
        reason = self.game.illegal_reason(PASS)
        self.refuse(f"Not passed: {reason}" if reason is not None else self.turns.play(PASS))

    def action_seats(self) -> None:
        self.questions.seats()

    def action_undo(self) -> None:
        self.step_back(True)

    def action_redo(self) -> None:
        self.step_back(False)

    def step_back(self, back: bool) -> None:
        """Undo (`back`) or redo a move; in analysis, a step along the line."""
        if self.analysing:
            self.study_keys.run("back" if back else "forward")
            return
        self.searches.cancel(Kind.TURN)
        self.say(self.turns.undo() if back else self.turns.redo())

    def action_toggle_score(self) -> None:
        self.show_score = not self.show_score
        self.draw_board()
        self.draw_panel()

    def action_count(self) -> None:
        play_files.count(self)

    def action_new_game(self) -> None:
        play_files.new_game(self)

    def action_lobby(self) -> None:
        """Leave a shared game for the lobby; the game goes on without this screen."""
        self.post_message(NewGameRequested())

    def action_save(self) -> None:
        play_files.save(self)

    def action_load(self) -> None:
        play_files.load(self)

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
        self.mode = Mode.PLAY if self.analysing else Mode.ANALYSIS

    def watch_mode(self, mode: Mode) -> None:
        analysing = mode is Mode.ANALYSIS
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
        self.selected = self.hint = None
        if analysing:
            self.say(analysis_tip(self.key, self.offers("setup"), self.offers("toggle_analysis")))
        else:
            self.say(f"Back to play. {self.session.turn_text()}.")
        self.thinking.mode_changed(analysing)
        self.draw()
        self.next_step()

    def action_hint(self) -> None:
        self.thinking.ask_hint()

    @on(WinRateGraph.Chosen)
    def graph_chosen(self, message: WinRateGraph.Chosen) -> None:
        """A click on the win-rate graph: the position after that move of the line."""
        if self.analysing:
            self.study_keys.jump(message.number)

    def action_study(self, command: str, *arguments: Any) -> None:
        """One of analysis mode's keys (`study_keys.py`)."""
        self.study_keys.run(command, *arguments)

    def action_setup(self) -> None:
        """Set up a position on a screen of its own; analysis goes on from it."""
        if self.study_keys.may_set_up():
            self.mode = Mode.ANALYSIS
            self.study_keys.set_up(self.board.cursor, self.ascii, self.thinking.analyse)

    def action_position(self) -> None:
        self.study_keys.position(self.seat.shared)
