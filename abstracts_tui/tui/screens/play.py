"""The play screen: the board, the side panel, the status line and the move line."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import Screen
from textual.validation import ValidationResult, Validator
from textual.widgets import Footer, Input, Static

from ...rules import PASS, SWAP, Game, Move, RulesError, format_number
from ...session import Phase, Session
from ..dialogs.confirm import ConfirmDialog
from ..dialogs.komi import KomiDialog
from ..dialogs.path import PathDialog
from ..dialogs.pie import PieDialog
from ..dialogs.side import SideDialog
from ..messages import HelpRequested, LoadRequested, NewGameRequested
from ..overlay import overlay_for
from ..widgets.board import BoardView, board_for

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


class PlayScreen(Screen[None]):
    """A game in progress, played from the keyboard or the mouse."""

    CSS_PATH = "play.tcss"

    BINDINGS = [
        Binding("colon", "move_line", "Type", id="play.move_line", key_display=":"),
        Binding("p", "pass_turn", "Pass", id="play.pass"),
        Binding("u,ctrl+z", "undo", "Undo", id="play.undo"),
        Binding("r,ctrl+y", "redo", "Redo", id="play.redo", show=False),
        Binding("t", "toggle_score", "Score", id="play.score"),
        Binding("escape", "cancel", "Cancel", id="play.cancel", show=False),
        Binding("n", "new_game", "New", id="play.new"),
        Binding("ctrl+s", "save", "Save", id="play.save"),
        Binding("ctrl+o", "load", "Load", id="play.load"),
        Binding("question_mark,f1", "help", "Help", id="play.help", key_display="?"),
    ]

    def __init__(self, session: Session, *, ascii: bool = False) -> None:
        super().__init__()
        self.session = session
        self.ascii = ascii
        self.selected: int | None = None
        self.show_score = session.game.is_over()
        self.board: BoardView = board_for(session.game, ascii=ascii, id="board")

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="panel"):
                yield Static(id="title")
                yield Static(id="turn")
                yield Static(id="cursor")
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
        self.redraw()
        self.call_after_refresh(self.next_step)

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

    @property
    def game(self) -> Game:
        return self.session.game

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
        game = self.game
        session = self.session
        last = game.last_move
        last_cells = frozenset(
            c for c in (game.move_cells(last) if last is not None else ()) if c is not None
        )
        overlay = overlay_for(game) if self.show_score else None
        self.board.show(
            game,
            selected=self.selected,
            targets=self.targets(),
            last=last_cells,
            overlay=overlay,
        )
        info = game.info
        title = info.title
        if info.variants:
            title += f" {game.options.variant}"
        title += f"  {game.size}x{game.size}" if info.geometry != "hex" else f"  side {game.size}"
        if info.takes_komi(game.options.variant):
            title += f"  komi {format_number(game.options.komi)}"
        self.query_one("#title", Static).update(title)
        turn = session.turn_text() if session.phase is Phase.PLAY else "Choosing komi and sides"
        self.query_one("#turn", Static).update(turn)
        self.query_one("#score", Static).update(self.score_text())
        self.query_one("#moves", Static).update(self.moves_text())
        self.query_one("#moves-box", VerticalScroll).scroll_end(animate=False)
        self.cursor_moved(self.board.cursor)

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
        self.query_one("#cursor", Static).update(f"Cursor {name}: {what}")

    def score_text(self) -> str:
        game = self.game
        score = game.score()
        colours = game.info.colours
        outcome = game.outcome()
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
        game = self.game
        replay = type(game).from_position(game.start_position)
        lines = []
        for number, move in enumerate(game.moves, start=1):
            colour = replay.side_to_move().capitalize()
            lines.append(f"{number:>3}. {colour:<11}{game.move_name(move)}")
            replay.push(move)
        return "\n".join(lines) or "No moves yet."

    def say(self, message: str) -> None:
        self.query_one("#status", Static).update(message)

    # -- the steps around moves ------------------------------------------------------------

    def next_step(self) -> None:
        """Ask for what the session waits for: komi, a side, or the pie decision."""
        session = self.session
        info = self.game.info
        if session.phase is Phase.KOMI:
            self.app.push_screen(KomiDialog(info, session.chooser), self.komi_chosen)
        elif session.phase is Phase.SIDE:
            self.app.push_screen(
                SideDialog(info, session.chooser, self.game.options.komi), self.side_chosen
            )

    def komi_chosen(self, komi: str | None) -> None:
        if komi is not None:
            self.session.set_komi(komi)
        self.redraw()
        self.next_step()

    def side_chosen(self, colour: int | None) -> None:
        if colour is not None:
            self.session.choose_side(colour)
            self.say(f"{self.session.turn_text()}.")
        self.redraw()
        self.next_step()

    def offer_swap(self) -> None:
        game = self.game
        if len(game.moves) == 1 and game.illegal_reason(SWAP) is None:
            colours = tuple(c.capitalize() for c in game.info.colours)
            dialog = PieDialog(
                (colours[0], colours[1]), self.session.person(0), self.session.person(1)
            )
            self.app.push_screen(dialog, self.swap_chosen)

    def swap_chosen(self, swap: bool | None) -> None:
        if swap:
            self.play(SWAP)
            self.say(
                f"Swapped: {self.session.person(1)} now plays "
                f"{self.game.colour_name(1).capitalize()} and moves."
            )

    def play(self, move: Move | str) -> bool:
        """Play a move for the side to move; a refused move is explained and changes nothing."""
        try:
            code = self.session.play(move)
        except RulesError as error:
            self.say(f"Not played: {error}")
            self.app.bell()
            return False
        self.selected = None
        game = self.game
        if game.is_over():
            self.show_score = True
            outcome = game.outcome()
            assert outcome is not None
            self.say(f"Game over. {self.session.turn_text()}: {outcome.reason}")
        else:
            self.say(f"{game.move_name(code)} played. {self.session.turn_text()}.")
        self.redraw()
        if code != SWAP:
            self.offer_swap()
        return True

    # -- input ---------------------------------------------------------------------------

    @on(BoardView.Activated)
    def cell_activated(self, event: BoardView.Activated) -> None:
        cell = event.cell
        game = self.game
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
        if self.has_class("-typing"):
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

    def action_undo(self) -> None:
        self.selected = None
        if self.session.undo():
            self.say(f"Move taken back. {self.session.turn_text()}.")
        else:
            self.say("Nothing to take back.")
        self.show_score = self.show_score and self.game.is_over()
        self.redraw()

    def action_redo(self) -> None:
        self.selected = None
        if self.session.redo():
            self.say(f"Move replayed. {self.session.turn_text()}.")
        else:
            self.say("Nothing to replay.")
        self.redraw()

    def action_toggle_score(self) -> None:
        self.show_score = not self.show_score
        self.redraw()

    def action_new_game(self) -> None:
        def chosen(yes: bool | None) -> None:
            if yes:
                self.post_message(NewGameRequested())

        if self.game.moves and not self.game.is_over():
            self.app.push_screen(
                ConfirmDialog("Start a new game? This one stays in the autosave until then."),
                chosen,
            )
        else:
            chosen(True)

    def action_save(self) -> None:
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
        def chosen(path: str | None) -> None:
            if path is not None:
                self.post_message(LoadRequested(path))

        self.app.push_screen(PathDialog("Load a game record", "", must_exist=True), chosen)

    def action_help(self) -> None:
        self.post_message(HelpRequested())
