"""The play screen's searches as it shows them: the computer's turns, hints and the
continuous analysis, their figures redrawn as they go, their results taken when they end
(the searches themselves are the play model's, `play/searching.py`, run as `computer.py`
says)."""

from __future__ import annotations

from typing import Any

from textual.timer import Timer

from ..chances import Hint
from ..engine.calibration import shown_winrate
from ..play.searching import Job, Kind, analysis_budget
from ..play.sentences import LOOKING, NO_HINT, hint_sentence
from ..rules import PASS, SWAP
from ..session import Phase
from .analysis_view import shown_candidates
from .play_host import PlayHost

EVALUATED_AFTER = 300
"""Playouts after which a live search's win rate is kept as the position's evaluation."""
LIVE_KINDS = (Kind.ANALYSIS, Kind.HINT, Kind.TURN)
"""The searches whose figures the panel shows, the first found first."""


class Thinking:
    """The searches of one play screen (`host`)."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host
        self.marks: frozenset[int] = frozenset()
        """The cells of the hint or of the top candidates as the board shows them."""
        self.ticker: Timer | None = None
        """The timer of `tick`, running only while a search runs (the screen starts it)."""

    def marked_cells(self) -> frozenset[int]:
        """Cells of the hint (in play), or of the candidates the panel lists (analysis)."""
        host = self.host
        moves = []
        if host.analysing:
            search = host.searches.search(Kind.ANALYSIS)
            if search is not None:
                moves = [c.move for c in shown_candidates(search.candidates())]
        elif host.hint is not None:
            moves = [host.hint.move]
        return frozenset(c for move in moves if (c := self.cell_of(move)) is not None)

    def cell_of(self, move: int) -> int | None:
        """The cell a move is shown on (its target, else its only cell; a pass: none)."""
        frm, to = self.host.game.move_cells(move)
        return to if to is not None else frm

    def tick(self) -> None:
        """Four times a second while a search runs: keep the evaluation of a search under
        way and show its figures (the timer stops when no search runs)."""
        host = self.host
        searches = host.searches
        if not searches.jobs and self.ticker is not None:
            self.ticker.pause()
        if searches.busy(Kind.REVIEW):
            host.draw_analysis()
        search = next(filter(None, map(searches.search, LIVE_KINDS)), None)
        if search is None:
            return
        # A finished search gave its figure when it ended (a review may have replaced it).
        running = any(job.thinker.search is search for job in searches.jobs.values())
        if running and search.playouts >= EVALUATED_AFTER and search.root.moves:
            self.keep_evaluation(search)
        if self.marked_cells() != self.marks:  # the top candidates changed
            host.draw_board()
        host.draw_analysis()

    def keep_evaluation(self, search: Any) -> None:
        """The search's win rate, as shown, as the first colour's chance in the position
        shown."""
        winrate = search.winrate() if search is not None else None
        if winrate is not None:
            game = self.host.game
            shown = shown_winrate(game, winrate, search.proven)
            first = shown if game.turn == 0 else 1 - shown
            score = search.score()  # the side to move's, None before enough playouts
            first_score = None if score is None else (score if game.turn == 0 else -score)
            self.host.session.node.evaluate(first, search.playouts, first_score)

    def done(self, job: Job, result: Any) -> None:
        """A turn's, a hint's or the analysis's search ended with `result`, still wanted."""
        host = self.host
        if job.kind is Kind.TURN:
            if host.session.phase is Phase.PLAY:
                host.thought = job.thought  # said with the move
            host.turns.decided(result)
        elif job.kind is Kind.HINT:
            self.show_hint(result)
        elif job.kind is Kind.ANALYSIS:
            self.keep_evaluation(job.thinker.search)
            host.draw_board()
            host.draw_analysis()

    def analyse(self) -> None:
        """Search the position shown for as long as analysis allows (none at the end)."""
        searches = self.host.searches
        if self.host.game.is_over():
            searches.cancel(Kind.ANALYSIS)
        else:
            searches.analyse(Kind.ANALYSIS, analysis_budget())

    def mode_changed(self, analysing: bool) -> None:
        """Analysis started (`analysing`) or ended: the searches of the other mode stop,
        analysis searches the position shown."""
        searches = self.host.searches
        searches.cancel(Kind.HINT)
        if analysing:
            searches.cancel(Kind.TURN)
            self.analyse()
        else:
            searches.cancel(Kind.ANALYSIS)
            searches.cancel(Kind.REVIEW)

    def ask_hint(self) -> None:
        host = self.host
        if host.session.over:
            host.say(NO_HINT)
            return
        host.say(LOOKING)
        host.searches.analyse(Kind.HINT)

    def show_hint(self, found: list[Hint]) -> None:
        if not found:
            return
        host = self.host
        host.hint = hint = found[0]
        # A move from a cell to a cell (a capture): its piece chosen, the cursor on its
        # target, so that Enter plays the hint as it plays any chosen piece's move.
        frm, to = host.game.move_cells(hint.move)
        host.selected = frm if frm is not None and to is not None else None
        cell = self.cell_of(hint.move)
        host.board.cursor = host.board.cursor if cell is None else cell
        # A pass or a swap has no cell for Enter to act on: its own key plays it.
        play = host.key({PASS: "play.pass", SWAP: "play.pie_swap"}.get(hint.move, "board.activate"))
        host.say(f"{hint_sentence(host.game, hint)} {play} plays it.")
        host.draw_board()
        host.draw_analysis()
