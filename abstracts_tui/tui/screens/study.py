"""Analysis mode of the play screen: stepping, variations, comments, setting up positions,
position strings, hints, continuous analysis, the evaluation bar and the win-rate graph.

A mixin of `PlayScreen`, kept apart so that each file holds one concern; its bindings
are part of the play screen's (Textual only merges the bindings of widget classes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from ...engine.search import Candidate
from ...rules import Piece, RulesError
from ..analysis_view import candidates_text, eval_bar, graph_text, line_text, percent
from ..computer import GRAPH_BUDGET, HINT_BUDGET, analysis_budget, first_winrate
from ..dialogs.confirm import ConfirmDialog
from ..dialogs.text import TextDialog

if TYPE_CHECKING:
    from ...rules import Game
    from ...session import Session
    from ..computer import Searches
    from ..widgets.board import BoardView

EVALUATED_AFTER = 300
"""Playouts after which a live search's win rate is kept as the position's evaluation."""

STUDY_BINDINGS: list[BindingType] = [
    # t is the score overlay in play and analysis, the side to move in setup mode: both
    # bindings must live in one class (a subclass's binding of a key hides its base's).
    Binding("t", "toggle_score", "Score", id="play.score"),
    Binding("left_square_bracket", "back", "Back", id="study.back", key_display="["),
    Binding("right_square_bracket", "forward", "Forward", id="study.forward", key_display="]"),
    Binding("home", "to_start", "Start", id="study.start", show=False),
    Binding("end", "to_end", "End", id="study.end", show=False),
    Binding("g", "jump", "Go to", id="study.jump"),
    Binding("v", "variation(1)", "Variation", id="study.next_variation"),
    Binding("V", "variation(-1)", "Previous variation", id="study.previous_variation", show=False),
    Binding("m", "promote", "Main line", id="study.promote", show=False),
    Binding("delete", "delete_variation", "Delete", id="study.delete", show=False),
    Binding("semicolon", "comment", "Comment", id="study.comment", key_display=";"),
    Binding("y", "position", "Position", id="study.position", show=False),
    Binding("percent_sign", "graph", "Graph", id="study.graph", key_display="%", show=False),
    Binding("ctrl+e", "setup", "Set up", id="study.setup", show=False),
    # setup mode
    Binding("1", "put(0)", "Piece 1", id="setup.put1", show=False),
    Binding("2", "put(1)", "Piece 2", id="setup.put2", show=False),
    Binding("3", "put(2)", "Piece 3", id="setup.put3", show=False),
    Binding("0,backspace", "clear_cell", "Clear", id="setup.clear", key_display="0"),
    Binding(
        "plus,equals_sign", "height(1)", "Higher", id="setup.higher", key_display="+", show=False
    ),
    Binding("minus", "height(-1)", "Lower", id="setup.lower", show=False),
    Binding("t", "setup_side", "Side to move", id="setup.side"),
    Binding("ctrl+e", "setup_done", "Done", id="setup.done"),
]

SETUP_ACTIONS = {"put", "clear_cell", "height", "setup_side", "setup_done"}
"""Actions of setup mode only."""
ANALYSIS_ACTIONS = {
    "back",
    "forward",
    "to_start",
    "to_end",
    "jump",
    "variation",
    "promote",
    "delete_variation",
    "comment",
    "graph",
}
"""Actions of analysis mode (outside setup mode)."""
NOT_IN_SETUP = {
    "move_line",
    "pass_turn",
    "undo",
    "redo",
    "hint",
    "toggle_analysis",
    "toggle_score",
    "new_game",
    "setup",
    "position",
}


NOT_SHARED = {
    "undo",
    "redo",
    "hint",
    "toggle_analysis",
    "setup",
    "save",
    "load",
}
"""Actions a shared game has not: the position is everyone's, the server's disk nobody's."""


class StudyScreen(Screen[None]):
    """Analysis mode; `PlayScreen` builds on it and sets the attributes declared here."""

    BINDINGS = STUDY_BINDINGS

    session: Session
    searches: Searches
    board: BoardView
    analysing: bool
    setting_up: list[Piece | None] | None
    setup_turn: int
    hint: Candidate | None
    marks: frozenset[int]
    selected: int | None
    shared: bool
    ascii: bool

    @property
    def game(self) -> Game:
        return self.session.game

    def say(self, message: str) -> None:
        raise NotImplementedError

    def redraw(self) -> None:
        raise NotImplementedError

    def draw_board(self) -> None:
        raise NotImplementedError

    def next_step(self) -> None:
        raise NotImplementedError

    def refused_when_shared(self, what: str) -> bool:
        raise NotImplementedError

    def piece_name(self, piece: Piece) -> str:
        raise NotImplementedError

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys of analysis mode work in analysis mode, keys of setup mode in setup mode;
        a shared game (over SSH) has none of them, nor taking back, saving or loading."""
        if self.shared and action in NOT_SHARED:
            return False
        if self.setting_up is not None:
            return action in SETUP_ACTIONS or action not in (ANALYSIS_ACTIONS | NOT_IN_SETUP)
        if action in SETUP_ACTIONS:
            return False
        if action in ANALYSIS_ACTIONS:
            return self.analysing
        return True

    # -- analysis mode ------------------------------------------------------------------

    def action_toggle_analysis(self) -> None:
        if self.refused_when_shared("Analysis"):
            return
        self.analysing = not self.analysing
        self.set_class(self.analysing, "-analysing")
        self.selected = None
        if self.analysing:
            self.searches.cancel("turn")
            self.say(
                "Analysis: [ ] step, g go to, v variations, ; comment, y position, "
                "ctrl+e set up; moves start variations; x leaves."
            )
            self.start_analysis()
        else:
            self.searches.cancel("analysis")
            self.searches.cancel("graph")
            self.say(f"Back to play. {self.session.turn_text()}.")
        self.refresh_bindings()
        self.redraw()
        self.next_step()

    def start_analysis(self) -> None:
        if self.game.is_over():
            self.searches.cancel("analysis")
            return
        node = self.session.node

        def done(found: list[Candidate]) -> None:
            search = self.searches.search("analysis")
            if search is not None:
                node.evaluate(first_winrate(self.game, search), search.playouts)
            self.update_analysis()

        self.searches.analyse(analysis_budget(), "analysis", done)

    def live_search(self) -> Any:
        """The search whose figures the panel shows now, if any."""
        for kind in ("analysis", "hint", "turn"):
            search = self.searches.search(kind)
            if search is not None:
                return search
        return None

    def tick(self) -> None:
        """Twice a second: keep the evaluation of a search under way and show its figures."""
        search = self.live_search()
        if search is None:
            return
        if search.playouts >= EVALUATED_AFTER and search.root.moves:
            self.session.node.evaluate(first_winrate(self.game, search), search.playouts)
        if self.marked_cells() != self.marks:  # the top candidates changed
            self.draw_board()
        self.update_analysis()

    def update_analysis(self) -> None:
        """The analysis part of the panel: bar, candidates, comment and graph."""
        box = self.query_one("#analysis", Static)
        graph = self.query_one("#graph", Static)
        game = self.game
        if not self.analysing:
            thinking = self.searches.search("turn")
            if self.hint is not None:
                text = self.hint_text(self.hint)
            elif thinking is not None and self.searches.busy("turn"):
                text = f"Thinking: {thinking.playouts:,} playouts"
            else:
                text = ""
            box.update(text)
            box.display = bool(text)
            graph.display = False
            return
        box.display = graph.display = True
        if self.setting_up is not None:
            kinds = self.game.placeable_pieces()
            lines = [f"{n} {self.piece_name(p)}" for n, p in enumerate(kinds, start=1)]
            box.update("Keys: " + ", ".join(lines) + ", 0 empty, t side to move, ctrl+e done")
            graph.display = False
            return
        node = self.session.node
        lines = []
        if node.evaluation is not None:
            lines.append(eval_bar(node.evaluation, game, ascii=self.ascii))
        search = self.searches.search("analysis")
        if search is not None and self.setting_up is None:
            lines.append(candidates_text(game, search.candidates(3), search.playouts))
        elif game.is_over():
            lines.append("The game is over here.")
        if node.comment:
            lines.append(f"Comment: {node.comment}")
        box.update("\n".join(lines))
        values = [self.session.record.root.evaluation]
        values += [n.evaluation for n in self.session.line_nodes()]
        bars, column = graph_text(values, self.session.move_number(), 26, ascii=self.ascii)
        drawn = Text(f"Win rate of {game.info.colours[0].capitalize()}:\n")
        drawn.append(bars)
        if column >= 0:  # the position shown, in reverse video
            start = len(drawn) - len(bars) + column
            drawn.stylize("reverse", start, start + 1)
        graph.update(drawn)

    def hint_text(self, hint: Candidate) -> str:
        game = self.game
        return (
            f"Hint: {game.move_name(hint.move)}, win rate {percent(hint.winrate)} "
            f"for {game.side_to_move().capitalize()}\nLine: {line_text(game, hint.pv)}"
        )

    def marked_cells(self) -> frozenset[int]:
        """Cells of the hint, or in analysis of the top candidates (where they play)."""
        moves = []
        if self.hint is not None:
            moves = [self.hint.move]
        elif self.analysing and self.setting_up is None:
            search = self.searches.search("analysis")
            if search is not None:
                moves = [c.move for c in search.candidates(3)]
        cells = set()
        for move in moves:
            frm, to = self.game.move_cells(move)
            cell = to if to is not None else frm
            if cell is not None:
                cells.add(cell)
        return frozenset(cells)

    def action_hint(self) -> None:
        if self.refused_when_shared("A hint"):
            return
        game = self.game
        if game.is_over():
            self.say("The game is over: there is no move to suggest.")
            return
        search = self.searches.search("analysis")
        if self.analysing and search is not None and search.playouts:
            self.show_hint(search.candidates(1))
            return
        self.say("Looking for a good move...")
        self.searches.analyse(HINT_BUDGET, "hint", self.show_hint)

    def show_hint(self, found: list[Candidate]) -> None:
        if not found:
            return
        self.hint = found[0]
        frm, to = self.game.move_cells(self.hint.move)
        cell = to if to is not None else frm
        if cell is not None:
            self.board.cursor = cell
        self.say(self.hint_text(self.hint).replace("\n", "; "))
        self.redraw()

    # -- stepping and variations --------------------------------------------------------

    def step(self, moved: bool, nothing: str) -> None:
        if not moved:
            self.say(nothing)
            return
        session = self.session
        comment = f" Comment: {session.node.comment}" if session.node.comment else ""
        self.say(f"Move {session.move_number()}. {session.turn_text()}.{comment}")

    def action_back(self) -> None:
        self.step(self.session.back(), "This is the start.")

    def action_forward(self) -> None:
        self.step(self.session.redo(), "This is the end of the line.")

    def action_to_start(self) -> None:
        self.step(self.session.jump(0), "This is the start.")

    def action_to_end(self) -> None:
        self.step(self.session.jump(len(self.session.line_nodes())), "")

    def action_jump(self) -> None:
        last = len(self.session.line_nodes())

        def check(text: str) -> str | None:
            if not text.strip().isdigit() or int(text) > last:
                return f"a number from 0 (the start) to {last}"
            return None

        def chosen(text: str | None) -> None:
            if text is not None:
                self.step(self.session.jump(int(text)), "")

        dialog = TextDialog("Go to a move", f"Move number (0 to {last}):", "", check)
        self.app.push_screen(dialog, chosen)

    def action_variation(self, step: int) -> None:
        count = len(self.session.variations())
        moved = self.session.switch_variation(step)
        if moved:
            index = self.session.variations().index(self.session.node) + 1
            self.say(f"Variation {index} of {count}: {self.session.turn_text()}.")
        else:
            self.say("No other move was tried here.")

    def action_promote(self) -> None:
        if self.session.promote():
            self.say("This line is now the main line.")
        else:
            self.say("This is the main line already.")

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
            ConfirmDialog(f"Delete this variation ({positions} positions from here on)?"), chosen
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

    def action_graph(self) -> None:
        """Evaluate every position of the current line for the win-rate graph."""
        session = self.session
        nodes = [session.record.root, *session.line_nodes()]

        def done(values: list[float | None]) -> None:
            for node, value in zip(nodes, values, strict=False):
                node.evaluate(value, GRAPH_BUDGET.playouts or 0)
            self.say(f"Win rates of {len(values)} positions found.")
            self.update_analysis()

        self.say(f"Evaluating {len(nodes)} positions for the graph...")
        self.searches.evaluate_line(nodes, done)

    # -- position strings -----------------------------------------------------------------

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
            if value is None or value.strip() == text:
                return
            if self.refused_when_shared("Setting up a position"):
                return
            try:
                self.session.set_up(value.strip())
            except RulesError as error:
                self.say(f"Not set up: {error}")
                return
            self.say("Position set up from the string: play goes on from it.")

        dialog = TextDialog(
            "Position string",
            "Copied to the clipboard (where the terminal allows): select it to copy by "
            "hand, or paste another position here and press Enter to set it up.",
            text,
            check,
        )
        self.app.push_screen(dialog, chosen)
