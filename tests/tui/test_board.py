"""The boards of the play screen: what they draw, how the cursor moves, and what choosing a
cell does.

Each test starts the app as `abstracts-tui` builds it (`build_app`) in an 80 x 24 terminal
unless it is about another size, puts the position on the board as the app does (the
session's `set_up`, moves played), presses keys and clicks as a player does, and reads the
lines the play screen's board draws: the expected diagrams below are what a player sees, at
the scale the play screen draws the board in that terminal.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest
from rich.style import Style
from textual.pilot import Pilot
from textual.widgets import Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.rules import Game
from abstracts_tui.rules.geometry import LETTERS, HexGrid
from abstracts_tui.tui.dialogs.side import SideDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen
from abstracts_tui.tui.widgets.board import BoardView
from abstracts_tui.tui.widgets.board_paint import MARKS
from abstracts_tui.tui.widgets.board_view import EDGES
from tests.tui.test_play import type_move
from tests.tui.waiting import pie_asked, until

EGOTZI = "egotzi size=5,variant=standard bb.ww/...../..b../w..../..... black swap=no"
PETRIFY = (
    "petrify size=6 ..x..o/b.x.oo/bbx..o/..x.../o.xb../.bx..b orange passes=0,last=blue,swap=no"
)
PILO = (
    "pilo size=6 b3.x..o3/..x..o1/..x.../..x.../..x.../o1.xb1.. blue passes=0,last=orange,swap=no"
)
LINAGE = (
    "linage size=7,komi=0 ...x.../...x.../xxxxxxx/..x..../..x..../..x..../..x.... vertical passes=0"
)
PARTITIONS = (
    "partitions size=5 ...../....../......./......../bbbbbbbbb/......../......./wwww../wwwww "
    "white -"
)
PARTITIONS_FEW = (
    "partitions size=5 wwbbb/....../......./......../........./......../......./....../....w "
    "white -"
)

# The games of these positions as the app starts them (a komi agreed beforehand: only the
# side is asked, and answered first).
SETUPS = {
    "egotzi": Setup("egotzi", 5, first="Ann", second="Bob"),
    "petrify": Setup("petrify", 6, first="Ann", second="Bob"),
    "pilo": Setup("pilo", 6, first="Ann", second="Bob"),
    "linage": Setup("linage", 7, komi=0, first="Ann", second="Bob"),
    "partitions": Setup("partitions", 5, first="Ann", second="Bob"),
}
SIDE = ("2",)
"""The side dialog's answer of a game with komi agreed: Bob takes the second colour."""

Script = Callable[[PlayScreen, BoardView, Pilot[None]], Awaitable[None]]


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    """Analysis's candidates found quickly and the same every run."""
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "9")
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "50")


def run(
    setup: Setup,
    data: Path,
    script: Script,
    *,
    position: str | None = None,
    answers: Sequence[str] = (),
    ascii: bool = False,
    size: tuple[int, int] = (80, 24),
) -> None:
    """Start the app with `setup`'s game in a terminal of `size`, press `answers` (a dialog
    asked before the first move), set up `position`, and run `script` on the play screen
    and its board."""
    app = build_app(setup, ascii=ascii, data=data)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if answers:
                await until(pilot, lambda: isinstance(app.screen, SideDialog))
                await pilot.press(*answers)
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            if position is not None:
                screen.session.set_up(position)
                await pilot.pause()
            await script(screen, screen.query_one(BoardView), pilot)

    asyncio.run(main())


def lines(board: BoardView) -> list[str]:
    """What the board draws on the screen, line by line, without trailing spaces."""
    return [board.render_line(y).text.rstrip() for y in range(board.region.height)]


def diagram(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def find(board: BoardView, char: str) -> tuple[int, int]:
    """(x, y) of the only `char` on the board."""
    found = [(x, y) for y, line in enumerate(lines(board)) for x, c in enumerate(line) if c == char]
    assert len(found) == 1, found
    return found[0]


def find_style(board: BoardView, y: int, x: int) -> Style:
    """The rich style of the character at (x, y)."""
    position = 0
    for segment in board.render_line(y):
        if position <= x < position + len(segment.text):
            assert segment.style is not None
            return segment.style
        position += len(segment.text)
    raise AssertionError(f"no character at {x}, {y}")


def name(game: Game, cell: int) -> str:
    return game.geometry.name(cell)


def cursor_name(board: BoardView) -> str:
    return name(board.game, board.cursor)


def status(screen: PlayScreen) -> str:
    return str(screen.query_one("#status", Static).content)


def assert_sides_differ(board: BoardView) -> None:
    """The two sides' pieces on the board have glyphs of their own (no colour needed)."""
    game = board.game
    glyphs = {
        piece.colour: board.glyphs.piece(piece, game.info.colours)[0]
        for c in range(game.geometry.cell_count)
        if (piece := game.piece_at(c)) is not None and piece.colour is not None
    }
    assert len(glyphs) == 2 and glyphs[0] != glyphs[1], (game.info.name, board.ascii, glyphs)


# -- drawing -------------------------------------------------------------------------------


def test_square_board_draws_stones_by_glyph_with_coordinates(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        # 80 x 24 has room for squares two lines taller and two columns wider.
        assert board.zoom == 2
        assert lines(board) == diagram(
            """
    a    b    c    d    e

5   ●    ●    ·    ○    ○   5


4   ·    ·    ·    ·    ·   4


3   ·    ·   [●]   ·    ·   3


2   ○    ·    ·    ·    ·   2


1   ·    ·    ·    ·    ·   1

    a    b    c    d    e
"""
        )
        assert_sides_differ(board)

    run(SETUPS["egotzi"], tmp_path, script, position=EGOTZI)


def test_pilo_stacks_show_their_height_and_blocks_fill_their_square(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await pilot.press("right", "right", "down")  # from c4 to e3
        assert lines(board) == diagram(
            """
    a     b     c     d     e     f

6   ●3    ·    ▒▒▒▒   ·     ·     ○3   6


5   ·     ·    ▒▒▒▒   ·     ·     ○    5


4   ·     ·    ▒▒▒▒   ·     ·     ·    4


3   ·     ·    ▒▒▒▒   ·    [· ]   ·    3


2   ·     ·    ▒▒▒▒   ·     ·     ·    2


1   ○     ·    ▒▒▒▒   ●     ·     ·    1

    a     b     c     d     e     f
"""
        )
        assert_sides_differ(board)

    run(SETUPS["pilo"], tmp_path, script, position=PILO)


def test_point_board_draws_the_grid_of_lines_and_stones(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await pilot.press("down")  # from d4 to d3
        assert board.zoom == 3
        assert lines(board) == diagram(
            """
   a     b     c     d     e     f     g
7  ┌─────┬─────┬─────●─────┬─────┬─────┐  7
   │     │     │     │     │     │     │
   │     │     │     │     │     │     │
6  ├─────┼─────┼─────●─────┼─────┼─────┤  6
   │     │     │     │     │     │     │
   │     │     │     │     │     │     │
5  ●─────●─────●─────●─────●─────●─────●  5
   │     │     │     │     │     │     │
   │     │     │     │     │     │     │
4  ├─────┼─────●─────┼─────┼─────┼─────┤  4
   │     │     │     │     │     │     │
   │     │     │     │     │     │     │
3  ├─────┼─────●────[┼]────┼─────┼─────┤  3
   │     │     │     │     │     │     │
   │     │     │     │     │     │     │
2  ├─────┼─────●─────┼─────┼─────┼─────┤  2
   │     │     │     │     │     │     │
   │     │     │     │     │     │     │
1  └─────┴─────●─────┴─────┴─────┴─────┘  1
   a     b     c     d     e     f     g
"""
        )

    run(SETUPS["linage"], tmp_path, script, position=LINAGE, answers=SIDE)


def test_hex_board_letters_rows_names_their_ends_and_numbers_the_positions(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert lines(board) == diagram(
            """
            1   2   3   4   5
        i   ○   ○   ●   ●   ●   i5

      h   ·   ·   ·   ·   ·   ·   h6

    g   ·   ·   ·   ·   ·   ·   ·   g7

  f   ·   ·   ·   ·   ·   ·   ·   ·   f8

e   ·   ·   ·   ·  [·]  ·   ·   ·   ·   e9

  d   ·   ·   ·   ·   ·   ·   ·   ·   d8

    c   ·   ·   ·   ·   ·   ·   ·   c7

      b   ·   ·   ·   ·   ·   ·   b6

        a   ·   ·   ·   ·   ○   a5
            1   2   3   4   5
"""
        )
        assert_sides_differ(board)

    run(SETUPS["partitions"], tmp_path, script, position=PARTITIONS_FEW)


@pytest.mark.parametrize("size", [(80, 24), (160, 50), (47, 22), (47, 20)], ids=str)
def test_every_edge_of_the_largest_hex_board_reads_its_coordinates(
    size: tuple[int, int], tmp_path: Path
) -> None:
    """Side 10 (19 rows) in the full layout (80x24), zoomed (160x50) and in the compact
    view with (47x22) and without (47x20) the numbers above and below: every row has its
    letter before its first cell and its last cell's name after it, so that a cell on a
    right-hand edge (the numbers 11 to 19) is named without counting."""

    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        grid = board.game.geometry
        assert isinstance(grid, HexGrid)
        text = [line for line in lines(board) if line.strip()]
        numbers = [str(n) for n in range(1, 11)]
        rows = text[("top" in board.edges) : len(text) - ("bottom" in board.edges)]
        if "top" in board.edges:
            assert text[0].split() == numbers
        if "bottom" in board.edges:
            assert text[-1].split() == numbers
        expected = {(47, 22): {"bottom"}, (47, 20): set()}.get(size, EDGES)
        assert board.edges == expected
        assert len(rows) == 19
        for line, row in zip(rows, reversed(range(19)), strict=True):
            words = line.split()
            letter = LETTERS[row]
            assert (words[0], words[-1]) == (letter, f"{letter}{grid.row_lengths[row]}")
            # One cell's width (a marker column and spaces) between a label and its cell.
            spaces = " " * (1 + board.zoom)
            assert re.search(f"^ *{letter}{spaces}\\S", line), line
            assert re.search(f"\\S{spaces}{words[-1]}$", line), line

    setup = Setup("partitions", 10, first="Ann", second="Bob")
    run(setup, tmp_path, script, size=size)


def test_selected_piece_targets_and_last_move_are_marked_without_colour(tmp_path: Path) -> None:
    # PETRIFY without Blue's f1, Blue to move: Blue plays f1, then Orange chooses f4, whose
    # captures are f1 and d2.
    before = PETRIFY.replace(".bx..b orange passes=0,last=blue", ".bx... blue passes=0,last=orange")

    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await pilot.press("right", "right", "right", "down", "down", "down", "enter")  # f1
        await pilot.press("up", "up", "up", "enter")  # f4
        await pilot.press("down", "down", "down", "left")  # the cursor on e1
        assert screen.game.position() == PETRIFY
        assert status(screen) == "f4 selected: choose a marked target (Esc cancels)."
        text = lines(board)
        assert text[8] == "4   ●    ●   ▒▒▒   ·    ·   (○)  4"  # f4 selected
        assert text[14] == "2   ○    ·   ▒▒▒  >●<   ·    ·   2"  # d2: a capture target
        assert text[17] == "1   ·    ●   ▒▒▒   ·   [·]  >●<  1"  # the cursor on e1; f1
        assert_sides_differ(board)
        # The last move is underlined, the cursor reversed: both show with no colour.
        f1 = find_style(board, 17, text[17].rindex("●"))
        assert f1.underline and f1.bold
        e1 = find_style(board, 17, text[17].index("["))
        assert e1.reverse
        assert not f1.reverse
        assert not find_style(board, 14, text[14].index("●")).reverse
        # Analysis marks its candidates: an empty one with *, a piece between > <.
        await pilot.press("x")
        await until(
            pilot, lambda: not screen.searches.busy("analysis") and bool(screen.thinking.marks)
        )
        game = screen.game
        empty = [c for c in screen.thinking.marks if game.piece_at(c) is None]
        taken = [c for c in screen.thinking.marks if game.piece_at(c) is not None]
        drawn = "".join(lines(board))
        assert drawn.count("*") == len(empty) and drawn.count(">") == len(taken)
        assert empty  # the seeded search's candidates include a placement

    run(SETUPS["petrify"], tmp_path, script, position=before)


def placement_leaving_a_capture(game: Game) -> str:
    """A placement after which the side to move next has a capture (in a game that has
    captures), found by the rules."""
    for move in game.legal_moves():
        frm, to = game.move_cells(move)
        if to is not None and frm is not None:
            continue  # a capture
        after = game.copy()
        after.play(move)
        if not game.info.captures or capture_from(after) is not None:
            return game.move_name(move)
    raise AssertionError(f"no such placement in {game.position()}")


def capture_from(game: Game) -> int | None:
    """The cell of a piece of the side to move that can capture, if any."""
    for move in game.legal_moves():
        frm, to = game.move_cells(move)
        if frm is not None and to is not None:
            return frm
    return None


async def mark_everything(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
    """Everything a board can mark at once, as a player gets it: a move typed (the last
    move), the score overlay (t), analysis's candidates (x) and, in a game of captures, a
    piece chosen with Enter (the cursor put on it) and its targets."""
    await type_move(pilot, placement_leaving_a_capture(screen.game))
    if not screen.show_score:
        await pilot.press("t")
    if not screen.analysing:
        await pilot.press("x")
    await until(pilot, lambda: not screen.searches.busy("analysis") and bool(screen.thinking.marks))
    piece = capture_from(screen.game)
    if piece is not None:
        board.cursor = piece
        await pilot.press("enter")
        assert screen.selected == piece and screen.selection.targets()


@pytest.mark.parametrize(
    ("game", "positions"),
    [
        ("egotzi", [EGOTZI]),
        ("petrify", [PETRIFY]),
        ("pilo", [PILO]),
        ("linage", [LINAGE]),
        ("partitions", [PARTITIONS, PARTITIONS_FEW]),
    ],
)
def test_ascii_mode_draws_only_ascii(game: str, positions: list[str], tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        for position in positions:
            screen.session.set_up(position)
            await pilot.pause()
            if game != "linage":  # Linage's stones belong to nobody
                assert_sides_differ(board)
            await mark_everything(screen, board, pilot)
            text = "\n".join(lines(board))
            assert text.isascii(), sorted({c for c in text if not c.isascii()})

    answers = SIDE if game == "linage" else ()
    run(SETUPS[game], tmp_path, script, answers=answers, ascii=True)


def test_ascii_pieces_are_the_position_string_letters(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert lines(board)[2:9] == [
            "6   b3    .    ####   .     .     o3   6",
            "",
            "",
            "5   .     .    ####   .     .     o    5",
            "",
            "",
            "4   .     .    [##]   .     .     .    4",  # the cursor starts on c4, a block
        ]

    run(SETUPS["pilo"], tmp_path, script, position=PILO, ascii=True)


# -- the score overlay ---------------------------------------------------------------------


def marks_shown(board: BoardView) -> dict[str, str]:
    """The score mark each cell shows, by the background of its mark's style; each cell
    is found on the screen by moving the cursor onto it."""
    backgrounds = {
        board.get_component_rich_style(f"board--{mark}", partial=True).bgcolor: mark
        for mark in MARKS
    }
    assert len(backgrounds) == len(MARKS)  # every mark looks different
    found = {}
    for cell in range(board.game.geometry.cell_count):
        board.cursor = cell
        x, y = find(board, "[")
        mark = backgrounds.get(find_style(board, y, x + 1).bgcolor)
        if mark is not None:
            found[name(board.game, cell)] = mark
    return found


async def show_score(pilot: Pilot[None]) -> None:
    await pilot.press("t")
    await pilot.pause()


def test_overlay_petrify_patches_and_a_cancelled_pair(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await show_score(pilot)
        text = lines(board)
        assert text[14] == "2  ─○─   ▪   ▒▒▒   ●    ▫    ▫   2"  # a2 cancelled; owned
        assert text[17] == "1   ▪   ─●─  ▒▒▒   ▫    ▫    ●   1"  # empty squares: ▪ ▫
        # Left patch (columns a-b): Blue a5-a4-b4 (3) and b1 (1), Orange a2 (1): the 1s
        # cancel, Blue's 3 owns it. Right patch (d-f, 18 squares): Orange's 4 beats Blue's 1s.
        marks = marks_shown(board)
        assert marks["a2"] == marks["b1"] == "cancelled"
        assert {marks[c] for c in ("a1", "a5", "b6", "b3")} == {"own0"}
        assert {marks[c] for c in ("d1", "d2", "f6", "e3")} == {"own1"}
        assert not any(c.startswith("c") for c in marks)  # the blocks belong to no patch
        assert len(marks) == 12 + 18

    run(SETUPS["petrify"], tmp_path, script, position=PETRIFY)


def test_overlay_pilo_patch_where_everything_cancels_is_nobodys(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await show_score(pilot)
        # Left patch: Blue a6 and Orange a1, one stack each: they cancel, nobody owns it.
        # Right patch: Orange f6-f5 (2) beats Blue d1 (1).
        marks = marks_shown(board)
        assert marks["a6"] == marks["a1"] == "cancelled"
        assert "b3" not in marks and "a3" not in marks
        assert {marks[c] for c in ("d1", "f6", "e4")} == {"own1"}
        assert len(marks) == 2 + 18

    run(SETUPS["pilo"], tmp_path, script, position=PILO)


def test_overlay_egotzi_cancelled_groups(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await show_score(pilot)
        # Black a5-b5 and White d5-e5 (size 2) cancel, so do Black c3 and White a2 (size 1).
        marks = marks_shown(board)
        assert marks == dict.fromkeys(["a5", "b5", "d5", "e5", "c3", "a2"], "cancelled")

    run(SETUPS["egotzi"], tmp_path, script, position=EGOTZI)


def test_overlay_egotzi_squared_cancels_nothing(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await show_score(pilot)
        assert screen.show_score
        assert marks_shown(board) == {}  # squared scoring cancels nothing

    squared = Setup("egotzi", 5, variant="squared", komi=0, first="Ann", second="Bob")
    position = EGOTZI.replace("variant=standard", "variant=squared,komi=0")
    run(squared, tmp_path, script, position=position, answers=SIDE)


def test_overlay_linage_regions(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await show_score(pilot)
        text = lines(board)
        assert text[1] == "7  ↔─────↔─────↔─────●─────↔─────↔─────↔  7"  # Horizontal's points
        assert text[10] == "4  ↕─────↕─────●────[┼]────┼─────┼─────┤  4"  # Vertical's; the
        # free ones keep the grid.
        # Top: two 3x2 regions with no vertical line (Horizontal's); bottom left: a 2x4
        # region with no horizontal line (Vertical's); bottom right: 4x4, lines both ways
        # (free).
        marks = marks_shown(board)
        assert {marks[c] for c in ("a7", "c6", "e6", "g7")} == {"own1"}
        assert {marks[c] for c in ("a1", "b4")} == {"own0"}
        assert {marks[c] for c in ("d1", "g4", "e2")} == {"free"}
        assert "c1" not in marks and "d5" not in marks  # stones
        assert len(marks) == 12 + 8 + 16

    run(SETUPS["linage"], tmp_path, script, position=LINAGE, answers=SIDE)


def test_overlay_partitions_fragment_groups_only(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await show_score(pilot)
        text = lines(board)
        assert text[9] == "e   ●   ●   ●   ●  [●]  ●   ●   ●   ●   e9"  # a dividing group
        assert text[15] == "      b   ◎   ◎   ◎   ◎   ·   ·   b6"  # white fragment pieces:
        assert text[17] == "        a   ◎   ◎   ◎   ◎   ◎   a5"  # ◎, not ○
        # The black middle row divides the board; the white group below it does not.
        marks = marks_shown(board)
        fragment = ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4"]
        assert marks == dict.fromkeys(fragment, "fragment")

    run(SETUPS["partitions"], tmp_path, script, position=PARTITIONS)


# -- the cursor ----------------------------------------------------------------------------


async def press_and_name(board: BoardView, pilot: Pilot[None], *keys: str) -> str:
    await pilot.press(*keys)
    return cursor_name(board)


def assert_board_keys(screen: PlayScreen, board: BoardView, expected: set[str]) -> None:
    """Every key of the focused board has an id and a description, and these are all."""
    bindings = [
        active.binding for active in screen.active_bindings.values() if active.node is board
    ]
    assert all(b.id and b.id.startswith("board.") and b.description for b in bindings)
    assert {b.id for b in bindings} == expected


BOARD_KEYS = {"board.left", "board.right", "board.up", "board.down", "board.activate"}
HEX_KEYS = BOARD_KEYS | {"board.up_left", "board.up_right", "board.down_left", "board.down_right"}


def test_square_cursor_keys_move_and_stop_at_the_edges(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert_board_keys(screen, board, BOARD_KEYS)
        assert cursor_name(board) == "c4"  # near the centre
        assert await press_and_name(board, pilot, "left", "left", "left") == "a4"
        assert await press_and_name(board, pilot, *["down"] * 5) == "a1"
        assert await press_and_name(board, pilot, "k") == "a2"
        assert await press_and_name(board, pilot, "l") == "b2"
        assert await press_and_name(board, pilot, "j") == "b1"
        assert await press_and_name(board, pilot, "h") == "a1"
        assert await press_and_name(board, pilot, "w", "d") == "b2"
        assert await press_and_name(board, pilot, "s", "a") == "a1"
        assert await press_and_name(board, pilot, *["right"] * 8) == "f1"
        assert await press_and_name(board, pilot, *["up"] * 8) == "f6"
        assert await press_and_name(board, pilot, "q", "e", "z", "c") == "f6"  # hex keys only
        assert not screen.game.moves
        with pytest.raises(ValueError, match="unknown direction"):
            board.move_cursor("north")

    run(SETUPS["petrify"], tmp_path, script)


def test_point_cursor_keys_move_and_stop_at_the_edges(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert_board_keys(screen, board, BOARD_KEYS)
        assert cursor_name(board) == "c3"
        assert await press_and_name(board, pilot, "up", "up", "up") == "c5"
        assert await press_and_name(board, pilot, "left", "a", "h") == "a5"
        assert await press_and_name(board, pilot, *["j"] * 6, *["l"] * 6) == "e1"

    run(Setup("linage", 5, komi=0, first="Ann", second="Bob"), tmp_path, script, answers=SIDE)


HEX_STEPS = [
    # e5, the centre: rows d and f are shorter (docs/rules.md, Notation: the hex board).
    ("e5", ["q"], "f4"),
    ("e5", ["e"], "f5"),
    ("e5", ["z"], "d4"),
    ("e5", ["c"], "d5"),
    ("e5", ["a"], "e4"),
    ("e5", ["h"], "e4"),
    ("e5", ["left"], "e4"),
    ("e5", ["d"], "e6"),
    ("e5", ["l"], "e6"),
    ("e5", ["right"], "e6"),
    # a1: the row above is longer (k and k+1); nothing below or to the left.
    ("a1", ["q"], "b1"),
    ("a1", ["e"], "b2"),
    ("a1", ["z"], "a1"),
    ("a1", ["c"], "a1"),
    ("a1", ["down"], "a1"),
    ("a1", ["left"], "a1"),
    # i5, the top right corner.
    ("i5", ["z"], "h5"),
    ("i5", ["c"], "h6"),
    ("i5", ["q"], "i5"),
    ("i5", ["up"], "i5"),
    ("i5", ["right"], "i5"),
    # e1, the middle row's left end: no up-left or down-left.
    ("e1", ["q"], "e1"),
    ("e1", ["z"], "e1"),
    ("e1", ["e"], "f1"),
    ("e1", ["c"], "d1"),
    # Up along the left edge, where only one cell lies above.
    ("e1", ["up"] * 5, "i1"),
]


def test_hex_cursor_six_directions_and_edges(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert_board_keys(screen, board, HEX_KEYS)
        reached = []
        for start, keys, _ in HEX_STEPS:
            board.cursor = board.game.geometry.parse(start)
            reached.append((start, keys, await press_and_name(board, pilot, *keys)))
        assert reached == HEX_STEPS
        assert not screen.game.moves

    run(SETUPS["partitions"], tmp_path, script)


def test_hex_up_and_down_alternate_to_go_straight_up_the_screen(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert cursor_name(board) == "e5"
        x0 = find(board, "[")[0]
        ups = [await press_and_name(board, pilot, "up") for _ in range(5)]
        assert ups == ["f4", "g4", "h3", "i3", "i3"]  # leaning left, right, left, right
        downs = [await press_and_name(board, pilot, "s") for _ in range(9)]
        assert downs == ["h3", "g4", "f4", "e5", "d4", "c4", "b3", "a3", "a3"]
        columns = set()
        for key in ["w"] * 8:
            await pilot.press(key)
            columns.add(find(board, "[")[0])
        # A hex cell leans half a cell (two columns at this scale) either side of the
        # straight line up.
        assert columns == {x0 - 2, x0}

    run(SETUPS["partitions"], tmp_path, script)


# -- choosing a cell -----------------------------------------------------------------------


def test_enter_and_space_play_on_the_cell_under_the_cursor(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await until(pilot, lambda: pie_asked(screen.app))
        await pilot.press("p")  # Bob plays on
        await until(pilot, lambda: not pie_asked(screen.app))
        await pilot.press("left", "space")
        await pilot.pause()
        game = screen.game
        assert [game.move_name(m) for m in game.moves] == ["c4", "b4"]
        assert status(screen) == "Orange (Bob) plays b4. Blue to move (Ann)."
        assert lines(board)[8] == "4   ·   [○]   ●    ·    ·    ·   4"  # Bob's b4, Ann's c4

    run(SETUPS["petrify"], tmp_path, script)


@pytest.mark.parametrize(
    ("setup", "position", "glyph", "cell", "answers"),
    [
        (
            SETUPS["petrify"],
            "petrify size=6 ....../....../....../..b.../....../...... orange "
            "passes=0,last=blue,swap=no",
            "●",
            "c3",
            (),
        ),
        (
            Setup("linage", 5, komi=0, first="Ann", second="Bob"),
            "linage size=5,komi=0 ...../...../..x../...../..... vertical passes=0",
            "●",
            "c3",
            SIDE,
        ),
        (
            SETUPS["partitions"],
            "partitions size=5 ...../....../......./......../....w..../......../......./"
            "....../..... black -",
            "○",
            "e5",
            (),
        ),
    ],
    ids=["square", "points", "hex"],
)
def test_clicking_a_piece_chooses_its_cell(
    setup: Setup, position: str, glyph: str, cell: str, answers: Sequence[str], tmp_path: Path
) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await pilot.press("left", "left", "up")  # the cursor away from the piece
        away = cursor_name(board)
        said = status(screen)
        x, y = find(board, glyph)
        await pilot.click(BoardView, offset=(0, y))  # a row label: not a cell
        assert (cursor_name(board), status(screen)) == (away, said)
        await pilot.click(BoardView, offset=(x, y))
        # The cursor goes there, and the move there is refused: the cell is taken.
        assert cursor_name(board) == cell
        assert status(screen).startswith(f"Not played: {cell} is occupied")
        await pilot.press("left")
        await pilot.click(BoardView, offset=(x + 1, y))  # just right of the glyph
        assert cursor_name(board) == cell
        assert not screen.game.moves

    run(setup, tmp_path, script, position=position, answers=answers)


def square_area(board: BoardView, column: str, row: str) -> list[tuple[int, int]]:
    """Every (x, y) of a square of the board as drawn: the points nearer its centre (its
    column letter's x, its row number's line) than its neighbours' centres."""
    text = lines(board)
    letters = text[0]
    numbers = [line.split()[0] if line.strip() else "" for line in text]
    x = letters.index(column)
    y = numbers.index(row)
    left = letters.index(chr(ord(column) - 1))
    right = letters.index(chr(ord(column) + 1))
    above = numbers.index(str(int(row) + 1))
    below = numbers.index(str(int(row) - 1))
    xs = range((left + x) // 2 + 1, (x + right + 1) // 2)
    ys = range((above + y) // 2 + 1, (y + below + 1) // 2)
    return [(i, j) for j in ys for i in xs]


def test_clicking_anywhere_in_a_square_plays_there(tmp_path: Path) -> None:
    # Orange's disk on a6: a move here is not the game's first, so no swap is offered.
    position = (
        "petrify size=6 o...../....../....../....../....../...... blue passes=0,last=orange,swap=no"
    )

    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        area = square_area(board, "c", "3")
        assert len(area) == 5 * 3  # a square three lines of five at this scale
        played = []
        corners = [area[0], area[4], area[7], area[-5], area[-1]]
        for offset in corners:
            await pilot.click(BoardView, offset=offset)
            game = screen.game
            played.append([game.move_name(m) for m in game.moves])
            await pilot.press("u")  # taken back for the next click
        assert played == [["c3"]] * len(corners)

    run(SETUPS["petrify"], tmp_path, script, position=position)


# -- sizes and keys ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "size"),
    [("petrify", 10), ("pilo", 10), ("egotzi", 9), ("linage", 19), ("partitions", 10)],
)
def test_the_largest_boards_fit_beside_the_side_panel(game: str, size: int, tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert not screen.has_class("-too-small")
        width, height = board.size_needed(board.zoom)
        assert (board.region.width, board.region.height) == (width, height)
        panel = screen.query_one("#panel")
        assert board.region.right <= panel.region.x and panel.region.width >= 28
        assert board.region.bottom <= 24 - 2  # above the status line and the footer
        # Every row of cells is on screen, coordinates included.
        text = lines(board)
        assert len(text) == height and max(len(line) for line in text) <= width
        assert text[0].split()[0] in ("a", "1") and text[-1].split()[0] in ("a", "1")

    komi = 0.5 if game == "linage" else None
    setup = Setup(game, size, komi=komi, first="Ann", second="Bob")
    run(setup, tmp_path, script, answers=SIDE if komi is not None else ())


def test_pilo_stacks_as_tall_as_the_rules_allow_fit(tmp_path: Path) -> None:
    # 2**(h-1) - 1 captures build a stack of height h; a 10 x 10 board has room for 63
    # blocks next to a stack of 7, the tallest possible.
    rows = ["x" * 10] * 6 + ["xxx.......", "b7.........", "..........", "o1........."]
    position = f"pilo size=10 {'/'.join(rows)} orange passes=0,last=blue,swap=no"

    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert lines(board)[8] == " 3  ●7  ·   ·   ·   ·   ·   ·   ·   ·   ·   3"
        assert not screen.has_class("-too-small")
        assert board.region.right <= screen.query_one("#panel").region.x

    run(Setup("pilo", 10, first="Ann", second="Bob"), tmp_path, script, position=position)


def test_a_new_game_of_another_size_gets_a_board_of_its_size(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        app = screen.app
        seen = []
        for keys in (["right", "right"], ["left"] * 4):  # 7 -> 9, then 9 -> 5
            old = app.screen
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))
            await pilot.press("tab", *keys, "enter")  # the board size
            await until(
                pilot, lambda old=old: isinstance(app.screen, PlayScreen) and app.screen is not old
            )
            new = app.screen.query_one(BoardView)
            assert (new.region.width, new.region.height) == new.size_needed(new.zoom)
            seen.append((new.game.size, new.zoom, new.region.height, cursor_name(new)))
        # 9 x 9 fits 80 x 24 at the least scale only (a line a row); 5 x 5 at the next.
        assert seen == [(9, 1, 9 + 2, "e5"), (5, 2, 5 * 3 + 2, "c3")]

    run(Setup("egotzi", 7, first="Ann", second="Bob"), tmp_path, script)


def test_a_zoomed_square_board_draws_larger_squares_that_a_click_anywhere_picks(
    tmp_path: Path,
) -> None:
    position = (
        "petrify size=6 ....../....../....../..b.../....../...... orange passes=0,last=blue,swap=no"
    )

    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        # 80 x 24 has room for zoom 2 (six lines of three), not 3.
        assert board.zoom == 2
        assert board.size_needed(2) == (board.region.width, board.region.height)
        assert board.size_needed(2)[0] >= 1.5 * board.size_needed(1)[0]
        text = lines(board)
        assert text[0].split() == list("abcdef")
        assert text[11].split()[0] == "3" and "●" in text[11]  # c3, in its square's middle
        assert text[10].strip() == text[12].strip() == ""  # the lines above and below it
        # A click on the corner of c3's square chooses c3.
        x = text[11].index("●") - 2
        await pilot.click(BoardView, offset=(x, 10))
        assert cursor_name(board) == "c3"
        assert status(screen).startswith("Not played: c3 is occupied")

    run(SETUPS["petrify"], tmp_path, script, position=position)
