"""The play screen: the board, the side panel, the status line and the move line."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.message import Message
from textual.validation import ValidationResult, Validator
from textual.widgets import Footer, Input, Static

from ...engine.search import Candidate
from ...rules import PASS, Piece, RulesError, format_number
from ...session import Phase, Session
from ..computer import Searches
from ..dialogs.path import PathDialog
from ..messages import HelpRequested, LoadRequested, NewGameRequested
from ..overlay import overlay_for
from ..widgets.board import BoardView, board_for
from .turns import TurnsScreen

PANEL_WIDTH = 30
"""Columns of the side panel (its border included)."""
CHROME_LINES = 2
"""Lines below the board: the status (or move) line and the footer."""


class MoveText(Validator):
    """Accepts text that is a legal move now; the failure says why not."""

    def __init__(self, screen: PlayScreen) -> None:
        super().__init__()
        self.play_screen = screen

    def validate(self, value: str) -> ValidationResult:
        game = self.play_screen.session.game
        if not value.strip():
            return self.failure("type a move, e.g. c3")
        try:
            move = game.parse_move(value)
        except RulesError as error:
            return self.failure(str(error))
        reason = game.illegal_reason(move)
        return self.failure(reason) if reason else self.success()


class PlayScreen(TurnsScreen):
    """A game in progress, played from the keyboard or the mouse."""

    CSS_PATH = "play.tcss"

    BINDINGS = [
        Binding("colon", "move_line", "Type", id="play.move_line", key_display=":"),
        Binding("p", "pass_turn", "Pass", id="play.pass"),
        Binding("u,ctrl+z", "undo", "Undo", id="play.undo"),
        Binding("r,ctrl+y", "redo", "Redo", id="play.redo", show=False),
        Binding("b", "hint", "Hint", id="play.hint"),
        Binding("x", "toggle_analysis", "Analysis", id="play.analysis"),
        Binding("escape", "cancel", "Cancel", id="play.cancel", show=False),
        Binding("n", "new_game", "New", id="play.new"),
        Binding("ctrl+s", "save", "Save", id="play.save"),
        Binding("ctrl+o", "load", "Load", id="play.load"),
        Binding("question_mark,f1", "help", "Help", id="play.help", key_display="?"),
    ]

    class SessionChanged(Message):
        """The session changed (here, on another screen showing it, or by the computer)."""

    class SavingChanged(Message):
        """The autosave started or stopped failing (posted from its writer thread)."""

    def __init__(
        self,
        session: Session,
        *,
        ascii: bool = False,
        local_people: frozenset[str] | None = None,
        shared: bool = False,
    ) -> None:
        super().__init__()
        self.session = session
        self.ascii = ascii
        self.local_people = local_people
        """The people who play at this screen; None: everyone (hot-seat). Over SSH each
        screen shows the shared session but moves only for its own people."""
        self.shared = shared
        """A game shared with other screens (over SSH): moves cannot be taken back, and
        analysis, setup and loading are for games of one's own."""
        self.asking = False
        """Whether a komi, side or pie dialog of this screen is open."""
        self.searches = Searches(self)
        self.analysing = False
        """Analysis mode: moves start variations, the computer players wait, and the
        position is searched continuously."""
        self.setting_up: list[Piece | None] | None = None
        """The pieces of the position being set up (setup mode), by cell."""
        self.setup_turn = 0
        self.hint: Candidate | None = None
        self.marks: frozenset[int] = frozenset()
        """The cells of the hint or of the top candidates as the board shows them."""
        self.selected: int | None = None
        self.show_score = session.game.is_over()
        self.save_problem_shown: str | None = None
        self.board: BoardView = board_for(session.game, ascii=ascii, id="board")

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="panel"):
                yield Static(id="title")
                yield Static(id="saving", markup=False, classes="-hidden")
                yield Static(id="turn")
                yield Static(id="cursor")
                yield Static(id="analysis")
                yield Static(id="graph")
                with VerticalScroll(id="score-box"):
                    yield Static(id="score")
                with VerticalScroll(id="moves-box"):
                    yield Static(id="moves")
        yield Static(id="too-small")
        yield Static(id="status")
        yield Input(id="move-line", placeholder="move, e.g. c3 (Enter plays, Esc closes)")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#move-line", Input).validators = [MoveText(self)]
        self.board.focus()
        self.watch(self.board, "cursor", self.cursor_moved)
        self.session.listeners.append(self.session_changed)
        self.session.saving_listeners.append(self.saving_changed)
        self.ticker = self.set_interval(0.5, self.tick)
        self.redraw()
        self.show_saving()
        self.call_after_refresh(self.next_step)

    def on_unmount(self) -> None:
        self.searches.cancel_all()
        self.session.flush(timeout=5)  # leaving the game (or the app): it is on the disk
        if self.session_changed in self.session.listeners:
            self.session.listeners.remove(self.session_changed)
        if self.saving_changed in self.session.saving_listeners:
            self.session.saving_listeners.remove(self.saving_changed)

    def session_changed(self) -> None:
        self.post_message(self.SessionChanged())

    @on(SessionChanged)
    def redraw_changed(self) -> None:
        if self.selected is not None and self.selected not in self.own_pieces():
            self.selected = None
        self.hint = None
        self.searches.cancel("hint")
        self.redraw()
        if self.analysing:
            self.start_analysis()
        self.next_step()

    def saving_changed(self) -> None:
        self.post_message(self.SavingChanged())  # thread-safe: from the writer thread

    @on(SavingChanged)
    def show_saving(self) -> None:
        """Say in the panel, and once in the status line, when the game is not being
        saved and why, and when it is saved again."""
        problem = self.session.save_problem
        if problem == self.save_problem_shown:
            return
        saving = self.query_one("#saving", Static)
        saving.set_class(problem is None, "-hidden")
        if problem is not None:
            saving.update(f"Not being saved: {problem}\n({self.session.autosave_path})")
            self.say(f"Not being saved: {problem}. Play goes on; ctrl+s saves a copy elsewhere.")
        else:
            self.say("The game is being saved again.")
        self.save_problem_shown = problem

    def own_pieces(self) -> set[int]:
        game = self.game
        cells = range(game.geometry.cell_count)
        return {c for c in cells if (p := game.piece_at(c)) and p.colour == game.turn}

    def on_resize(self, event: Resize) -> None:
        self.check_size()

    def needed_size(self) -> tuple[int, int]:
        width, height = self.board.size_needed()
        return width + PANEL_WIDTH, max(height, 12) + CHROME_LINES

    def check_size(self) -> None:
        width, height = self.needed_size()
        small = self.size.width < width or self.size.height < height
        self.set_class(small, "-too-small")
        if small:
            self.query_one("#too-small", Static).update(
                f"The terminal is too small for this board.\n\n"
                f"It needs {width} x {height} characters; this one is "
                f"{self.size.width} x {self.size.height}.\n\n"
                f"Enlarge the window (or choose a smaller board with n).\n"
                f"The game is kept: nothing is lost."
            )

    # -- drawing -------------------------------------------------------------------------

    def targets(self) -> frozenset[int]:
        if self.selected is None:
            return frozenset()
        found = set()
        for move in self.game.legal_moves():
            frm, to = self.game.move_cells(move)
            if frm == self.selected and to is not None:
                found.add(to)
        return frozenset(found)

    def redraw(self) -> None:
        self.draw_board()
        self.draw_panel()

    def draw_board(self) -> None:
        """The board: pieces (or the position being set up), the chosen piece and its
        targets, the hint or the top candidates, the last move, the score overlay."""
        game = self.game
        last = game.last_move
        last_cells = frozenset(
            c for c in (game.move_cells(last) if last is not None else ()) if c is not None
        )
        setting_up = self.setting_up is not None
        overlay = overlay_for(game) if self.show_score and not setting_up else None
        self.marks = self.marked_cells()
        self.board.show(
            game,
            selected=self.selected,
            targets=self.targets() | self.marks,
            last=frozenset() if setting_up else last_cells,
            overlay=overlay,
            pieces=self.setting_up,
        )

    def draw_panel(self) -> None:
        game = self.game
        session = self.session
        setting_up = self.setting_up is not None
        info = game.info
        title = info.title
        if info.variants:
            title += f" {game.options.variant}"
        title += f"  {game.size}x{game.size}" if info.geometry != "hex" else f"  side {game.size}"
        if info.takes_komi(game.options.variant):
            title += f"  komi {format_number(game.options.komi)}"
        self.query_one("#title", Static).update(title)
        turn = session.turn_text() if session.phase is Phase.PLAY else "Choosing komi and sides"
        if setting_up:
            turn = f"Setting up: {game.info.colours[self.setup_turn].capitalize()} to move"
        elif self.analysing:
            turn = f"Analysis, move {session.move_number()}: {turn}"
        self.query_one("#turn", Static).update(turn)
        self.update_analysis()
        self.query_one("#score", Static).update(self.score_text())
        self.query_one("#moves", Static).update(self.moves_text())
        box = self.query_one("#moves-box", VerticalScroll)
        if self.analysing:
            box.scroll_to(y=max(0, self.session.move_number() - 4), animate=False)
        else:
            box.scroll_end(animate=False)
        self.cursor_moved(self.board.cursor)

    def cursor_moved(self, cell: int) -> None:
        game = self.game
        name = game.geometry.name(cell)
        piece = game.piece_at(cell) if self.setting_up is None else self.setting_up[cell]
        if piece is None:
            what = "empty"
        elif piece.colour is None:
            what = piece.kind
        else:
            what = f"{game.colour_name(piece.colour)} {piece.kind}"
            if piece.kind == "stack":
                what += f" of {piece.height}"
        self.query_one("#cursor", Static).update(f"Cursor {name}: {what}")

    def score_text(self) -> str:
        game = self.game
        score = game.score()
        colours = game.info.colours
        outcome = game.outcome()
        if self.analysing and not self.show_score and outcome is None:
            # One line: analysis mode needs the panel's room for its figures.
            one, two = (
                f"{c.capitalize()} {format_number(p)}"
                for c, p in zip(colours, score.points, strict=True)
            )
            return f"Score now: {one}, {two}"
        lines = ["Final score:" if outcome else "Score now:"]
        lines += [
            f"  {colours[i].capitalize():<11}{format_number(score.points[i]):>5}" for i in (0, 1)
        ]
        if outcome is not None:
            lines.append(outcome.reason)
        if self.show_score:
            lines.extend(score.lines)
        else:
            lines.append("t: show it on the board")
        return "\n".join(lines)

    def moves_text(self) -> str:
        """The current line: moves played, and in analysis the moves after this one too,
        with `>` at the position shown, (i/n) where the move has alternatives and `*`
        where it has a comment."""
        session = self.session
        nodes = session.line_nodes() if self.analysing else session.node.line()
        replay = session.record.new_game()
        lines = []
        for number, node in enumerate(nodes, start=1):
            if node.setup is not None:
                replay = type(replay).from_position(node.setup)
                text = "(position set up)"
            else:
                text = ""
            if node.move is not None:
                colour = replay.side_to_move().capitalize()
                replay.play(node.move)
                text = f"{colour:<11}{node.move}"
            marks = ""
            siblings = node.parent.children if node.parent is not None else [node]
            if len(siblings) > 1:
                marks += f" ({siblings.index(node) + 1}/{len(siblings)})"
            if node.comment:
                marks += " *"
            here = ">" if self.analysing and node is session.node else " "
            lines.append(f"{here}{number:>3}. {text}{marks}")
        return "\n".join(lines) or "No moves yet."

    def say(self, message: str) -> None:
        """`message` in the status line, followed while the autosave fails by why."""
        problem = self.session.save_problem
        if problem is not None and not message.startswith("Not being saved"):
            message = f"{message} (Not being saved: {problem}.)".lstrip()
        self.query_one("#status", Static).update(message)

    # -- input ---------------------------------------------------------------------------

    @on(BoardView.Activated)
    def cell_activated(self, event: BoardView.Activated) -> None:
        cell = event.cell
        game = self.game
        if self.setting_up is not None:
            self.cycle_cell(cell)
            return
        if self.session.phase is not Phase.PLAY:
            self.next_step()
            return
        name = game.geometry.name(cell)
        if self.selected is not None:
            if cell in self.targets():
                self.play(f"{game.geometry.name(self.selected)}-{name}")
                return
            if cell == self.selected:
                self.selected = None
                self.say("Selection cancelled.")
                self.redraw()
                return
        if game.illegal_reason(cell) is None:
            self.play(cell)
            return
        piece = game.piece_at(cell)
        if game.info.captures and piece is not None and piece.colour == game.turn:
            self.selected = cell
            if self.targets():
                self.say(f"{name} selected: choose a marked target (Esc cancels).")
            else:
                self.selected = None
                self.say(f"The {piece.kind} on {name} has no capture now.")
            self.redraw()
            return
        self.say(f"Not played: {game.illegal_reason(cell)}")
        self.app.bell()

    def action_move_line(self) -> None:
        line = self.query_one("#move-line", Input)
        self.add_class("-typing")
        line.value = ""
        self.set_focus(line)  # at once: keys typed right after ':' belong to the line

    @on(Input.Submitted, "#move-line")
    def move_typed(self, event: Input.Submitted) -> None:
        if event.validation_result is not None and not event.validation_result.is_valid:
            self.say("Not played: " + "; ".join(event.validation_result.failure_descriptions))
            self.app.bell()
            return
        self.close_move_line()
        self.play(event.value)

    @on(Input.Changed, "#move-line")
    def move_changed(self, event: Input.Changed) -> None:
        result = event.validation_result
        if not event.value.strip():
            self.say(
                "Type a move in notation, e.g. c3" + (", c3-f6" if self.game.info.captures else "")
            )
        elif result is not None and not result.is_valid:
            self.say("; ".join(result.failure_descriptions))
        else:
            self.say(f"{event.value.strip().lower()}: legal. Enter plays it.")

    def close_move_line(self) -> None:
        self.remove_class("-typing")
        self.set_focus(self.board)

    def action_cancel(self) -> None:
        if self.searches.hurry("turn"):
            self.say("Deciding now...")
        elif self.setting_up is not None:
            self.leave_setup(keep=False)
        elif self.has_class("-typing"):
            self.close_move_line()
            self.say("")
        elif self.selected is not None:
            self.selected = None
            self.say("Selection cancelled.")
            self.redraw()

    def action_pass_turn(self) -> None:
        reason = self.game.illegal_reason(PASS)
        if reason is not None:
            self.say(f"Not passed: {reason}")
            self.app.bell()
            return
        self.play(PASS)

    def refused_when_shared(self, what: str) -> bool:
        """In a shared game, say that `what` is not possible there; True if refused."""
        if self.shared:
            self.say(f"{what} is not possible in a shared game.")
            self.app.bell()
        return self.shared

    def action_undo(self) -> None:
        if self.refused_when_shared("Taking back a move"):
            return
        self.selected = None
        if self.analysing:
            self.action_back()
            return
        self.searches.cancel("turn")
        session = self.session
        if not session.undo():
            self.say("Nothing to take back.")
            return
        while self.computer_waits() and session.undo():
            pass  # against the computer, its reply goes too: back to a person's turn
        self.say(f"Move taken back. {session.turn_text()}.")
        self.show_score = self.show_score and self.game.is_over()
        self.redraw()

    def action_redo(self) -> None:
        if self.refused_when_shared("Replaying a move"):
            return
        self.selected = None
        if self.analysing:
            self.action_forward()
            return
        self.searches.cancel("turn")
        session = self.session
        if not session.redo():
            self.say("Nothing to replay.")
            return
        while self.computer_waits() and session.redo():
            pass
        self.say(f"Move replayed. {session.turn_text()}.")
        self.redraw()

    def action_toggle_score(self) -> None:
        self.show_score = not self.show_score
        self.redraw()

    def action_new_game(self) -> None:
        """Back to the selection screen; an unfinished game stays in progress (ctrl+r
        there lists the games in progress to resume)."""
        if not self.shared and self.game.moves and not self.game.is_over():
            self.app.notify("This game is kept: ctrl+r resumes it.", markup=False)
        self.post_message(NewGameRequested())

    def action_save(self) -> None:
        if self.refused_when_shared("Saving a record"):
            return
        default = f"{self.game.info.name}-{self.session.record.date or 'game'}.sgf"

        def chosen(path: str | None) -> None:
            if path is None:
                return
            try:
                self.session.save(path)
            except OSError as error:
                self.say(f"Not saved: {error.strerror or error} ({path})")
                return
            self.say(f"Saved to {Path(path).resolve()}")

        self.app.push_screen(PathDialog("Save the game as", default, must_exist=False), chosen)

    def action_load(self) -> None:
        if self.refused_when_shared("Loading a record"):
            return

        def chosen(path: str | None) -> None:
            if path is not None:
                self.post_message(LoadRequested(path))

        self.app.push_screen(PathDialog("Load a game record", "", must_exist=True), chosen)

    def action_help(self) -> None:
        self.post_message(HelpRequested())
