"""Snapshots of the board widgets: how each geometry looks with the score overlay,
a selection and the last move, in colour and in ASCII."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from abstracts_tui.rules import load_position
from abstracts_tui.tui.overlay import overlay_for

from .test_board import LINAGE, PARTITIONS, PETRIFY, PILO, BoardApp

SnapCompare = Callable[..., bool]


def board_app(
    position: str, ascii: bool = False, overlay: bool = True, **marks: object
) -> BoardApp:
    """A board showing `position`, its score overlay and the given marks once mounted."""
    game = load_position(position)
    app = BoardApp(game, ascii)

    def mounted() -> None:
        app.board.show(
            game,
            overlay=overlay_for(game) if overlay else None,
            **marks,  # type: ignore[arg-type]
        )
        app.board.focus()

    app.call_after_refresh(mounted)
    return app


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()


def test_petrify_selection_targets_and_last_move(snap_compare: SnapCompare) -> None:
    app = board_app(
        PETRIFY, overlay=False, selected=19, targets=frozenset({28, 22}), last=frozenset({5})
    )
    assert snap_compare(app, terminal_size=(40, 12), run_before=settle)


def test_pilo_score_overlay(snap_compare: SnapCompare) -> None:
    assert snap_compare(board_app(PILO), terminal_size=(40, 12), run_before=settle)


def test_linage_score_overlay(snap_compare: SnapCompare) -> None:
    assert snap_compare(board_app(LINAGE), terminal_size=(40, 12), run_before=settle)


def test_partitions_fragments(snap_compare: SnapCompare) -> None:
    assert snap_compare(board_app(PARTITIONS), terminal_size=(40, 12), run_before=settle)


def test_partitions_fragments_ascii(snap_compare: SnapCompare) -> None:
    app = board_app(PARTITIONS, ascii=True)
    assert snap_compare(app, terminal_size=(40, 12), run_before=settle)
