"""The board widgets: what they draw, how the cursor moves, and what a choice posts.

Each test mounts `board_for(game)` alone in a tiny app and reads the lines the widget
renders, so the expected diagrams below are exactly what a player sees.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from rich.style import Style
from textual import on
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from abstracts_tui.rules import Game, load_position, new_game
from abstracts_tui.tui.overlay import overlay_for
from abstracts_tui.tui.widgets.board import BoardView, board_for

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

# Screen budget of the play screen: a side panel of about 28 columns, and a header, a
# footer and a status line.
MAX_WIDTH = 80 - 28
MAX_HEIGHT = 24 - 3


class BoardApp(App[None]):
    """A board alone on the screen, recording the cells it reports as chosen."""

    def __init__(self, game: Game, ascii: bool = False) -> None:
        super().__init__()
        self.game = game
        self.ascii = ascii
        self.chosen: list[int] = []

    def compose(self) -> ComposeResult:
        yield board_for(self.game, ascii=self.ascii, id="board")

    @property
    def board(self) -> BoardView:
        board = self.query_one("#board")
        assert isinstance(board, BoardView)
        return board

    @on(BoardView.Activated, "#board")
    def record(self, event: BoardView.Activated) -> None:
        self.chosen.append(event.cell)


def run(
    game: Game, script: Callable[[BoardApp, Pilot[None]], Awaitable[None]], ascii: bool = False
) -> BoardApp:
    """Mount the board in an 80 x 24 terminal, focus it, and run `script`."""
    app = BoardApp(game, ascii)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            app.board.focus()
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())
    return app


def lines(board: BoardView) -> list[str]:
    """What the widget draws, line by line, without trailing spaces."""
    height = board.size_needed()[1]
    return [board.render_line(y).text.rstrip() for y in range(height)]


def diagram(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def find(board: BoardView, char: str) -> tuple[int, int]:
    """(x, y) of the only `char` on the board."""
    found = [(x, y) for y, line in enumerate(lines(board)) for x, c in enumerate(line) if c == char]
    assert len(found) == 1, found
    return found[0]


def name(game: Game, cell: int) -> str:
    return game.geometry.name(cell)


# -- drawing -------------------------------------------------------------------------------


def test_square_board_draws_stones_by_glyph_with_coordinates() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        assert lines(app.board) == diagram(
            """
   a  b  c  d  e
5  ●  ●  ·  ○  ○  5
4  ·  ·  ·  ·  ·  4
3  ·  · [●] ·  ·  3
2  ○  ·  ·  ·  ·  2
1  ·  ·  ·  ·  ·  1
   a  b  c  d  e
"""
        )

    run(load_position(EGOTZI), script)


def test_pilo_stacks_show_their_height_and_blocks_fill_their_square() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        app.board.cursor = app.game.geometry.parse("e3")
        await pilot.pause()
        assert lines(app.board) == diagram(
            """
   a   b   c   d   e   f
6  ●3  ·  ▒▒▒▒ ·   ·   ○3  6
5  ·   ·  ▒▒▒▒ ·   ·   ○   5
4  ·   ·  ▒▒▒▒ ·   ·   ·   4
3  ·   ·  ▒▒▒▒ ·  [· ] ·   3
2  ·   ·  ▒▒▒▒ ·   ·   ·   2
1  ○   ·  ▒▒▒▒ ●   ·   ·   1
   a   b   c   d   e   f
"""
        )

    run(load_position(PILO), script)


def test_point_board_draws_the_grid_of_lines_and_stones() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        app.board.cursor = app.game.geometry.parse("d3")
        await pilot.pause()
        assert lines(app.board) == diagram(
            """
   a b c d e f g
7  ┌─┬─┬─●─┬─┬─┐  7
6  ├─┼─┼─●─┼─┼─┤  6
5  ●─●─●─●─●─●─●  5
4  ├─┼─●─┼─┼─┼─┤  4
3  ├─┼─●[┼]┼─┼─┤  3
2  ├─┼─●─┼─┼─┼─┤  2
1  └─┴─●─┴─┴─┴─┘  1
   a b c d e f g
"""
        )

    run(load_position(LINAGE), script)


def test_hex_board_offsets_rows_letters_them_and_numbers_the_positions() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        assert lines(app.board) == diagram(
            """
       1 2 3 4 5
    i  ○ ○ ● ● ●  i
   h  · · · · · ·  h
  g  · · · · · · ·  g
 f  · · · · · · · ·  f
e  · · · ·[·]· · · ·  e
 d  · · · · · · · ·  d
  c  · · · · · · ·  c
   b  · · · · · ·  b
    a  · · · · ○  a
       1 2 3 4 5
"""
        )

    run(load_position(PARTITIONS_FEW), script)


def test_selected_piece_targets_and_last_move_are_marked_without_colour() -> None:
    game = load_position(PETRIFY)
    cell = game.geometry.parse

    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        board = app.board
        board.show(
            game,
            selected=cell("d2"),
            targets=frozenset({cell("e5"), cell("e2")}),
            last=frozenset({cell("f1")}),
        )
        board.cursor = cell("e1")
        await pilot.pause()
        text = lines(board)
        assert text[2] == "5  ●  · ▒▒▒ · >○< ○  5"  # e5: a capture target
        assert text[5] == "2  ○  · ▒▒▒(●) *  ·  2"  # d2 selected, e2 an empty target
        assert text[6] == "1  ·  ● ▒▒▒ · [·] ●  1"  # the cursor on e1
        # The last move is underlined, the cursor reversed: both show with no colour.
        f1 = find_style(board, 6, 18)
        assert f1.underline and f1.bold
        assert find_style(board, 6, 15).reverse
        assert not find_style(board, 5, 18).reverse
        assert not find_style(board, 6, 18).reverse

    run(game, script)


def find_style(board: BoardView, y: int, x: int) -> Style:
    """The rich style of the character at (x, y)."""
    position = 0
    for segment in board.render_line(y):
        if position <= x < position + len(segment.text):
            assert segment.style is not None
            return segment.style
        position += len(segment.text)
    raise AssertionError(f"no character at {x}, {y}")


@pytest.mark.parametrize(
    "position",
    [EGOTZI, PETRIFY, PILO, LINAGE, PARTITIONS, PARTITIONS_FEW],
    ids=["egotzi", "petrify", "pilo", "linage", "partitions", "partitions-few"],
)
def test_ascii_mode_draws_only_ascii(position: str) -> None:
    game = load_position(position)

    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        # Everything that can be drawn at once: overlay, selection, targets, last move.
        pieces = [c for c in range(game.geometry.cell_count) if game.piece_at(c)]
        app.board.show(
            game,
            selected=pieces[0],
            targets=frozenset({pieces[1], 0, 1}),
            last=frozenset(pieces[2:3]),
            overlay=overlay_for(game),
        )
        await pilot.pause()
        text = "\n".join(lines(app.board))
        assert text.isascii(), sorted({c for c in text if not c.isascii()})

    run(game, script, ascii=True)


def test_ascii_pieces_are_the_position_string_letters() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        assert lines(app.board)[1:4] == [
            "6  b3  .  #### .   .   o3  6",
            "5  .   .  #### .   .   o   5",
            "4  .   .  [##] .   .   .   4",  # the cursor starts on c4, a block
        ]

    run(load_position(PILO), script, ascii=True)


def test_the_two_sides_differ_by_glyph_in_every_game() -> None:
    for position in (EGOTZI, PETRIFY, PILO, PARTITIONS):
        game = load_position(position)
        for ascii in (False, True):
            board = board_for(game, ascii=ascii)
            glyphs = {
                piece.colour: board.glyphs.piece(piece, game.info.colours)[0]
                for c in range(game.geometry.cell_count)
                if (piece := game.piece_at(c)) is not None and piece.colour is not None
            }
            assert len(glyphs) == 2 and glyphs[0] != glyphs[1], (position, ascii, glyphs)


# -- the score overlay ---------------------------------------------------------------------


def marks_by_name(game: Game) -> dict[str, str]:
    return {name(game, c): mark for c, mark in overlay_for(game).items()}


def test_overlay_petrify_patches_and_a_cancelled_pair() -> None:
    # Left patch (columns a-b): Blue a5-a4-b4 (3) and b1 (1), Orange a2 (1): the 1s
    # cancel, Blue's 3 owns it. Right patch (d-f, 18 squares): Orange's 4 beats Blue's 1s.
    marks = marks_by_name(load_position(PETRIFY))
    assert marks["a2"] == marks["b1"] == "cancelled"
    assert {marks[c] for c in ("a1", "a5", "b6", "b3")} == {"own0"}
    assert {marks[c] for c in ("d1", "d2", "f6", "e3")} == {"own1"}
    assert not any(c.startswith("c") for c in marks)  # the blocks belong to no patch
    assert len(marks) == 12 + 18


def test_overlay_pilo_patch_where_everything_cancels_is_nobodys() -> None:
    # Left patch: Blue a6 and Orange a1, one stack each: they cancel, nobody owns it.
    # Right patch: Orange f6-f5 (2) beats Blue d1 (1).
    marks = marks_by_name(load_position(PILO))
    assert marks["a6"] == marks["a1"] == "cancelled"
    assert "b3" not in marks and "a3" not in marks
    assert {marks[c] for c in ("d1", "f6", "e4")} == {"own1"}
    assert len(marks) == 2 + 18


def test_overlay_egotzi_cancelled_groups() -> None:
    # Black a5-b5 and White d5-e5 (size 2) cancel, so do Black c3 and White a2 (size 1).
    marks = marks_by_name(load_position(EGOTZI))
    assert marks == dict.fromkeys(["a5", "b5", "d5", "e5", "c3", "a2"], "cancelled")
    squared = load_position(EGOTZI.replace("variant=standard", "variant=squared,komi=0"))
    assert overlay_for(squared) == {}  # squared scoring cancels nothing


def test_overlay_linage_regions() -> None:
    # Top: two 3x2 regions with no vertical line (Horizontal's); bottom left: a 2x4 region
    # with no horizontal line (Vertical's); bottom right: 4x4, lines both ways (free).
    marks = marks_by_name(load_position(LINAGE))
    assert {marks[c] for c in ("a7", "c6", "e6", "g7")} == {"own1"}
    assert {marks[c] for c in ("a1", "b4")} == {"own0"}
    assert {marks[c] for c in ("d1", "g4", "e2")} == {"free"}
    assert "c1" not in marks and "d5" not in marks  # stones
    assert len(marks) == 12 + 8 + 16


def test_overlay_partitions_fragment_groups_only() -> None:
    # The black middle row divides the board; the white group below it does not.
    marks = marks_by_name(load_position(PARTITIONS))
    fragment = ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4"]
    assert marks == dict.fromkeys(fragment, "fragment")


def test_overlay_marks_show_on_the_board() -> None:
    game = load_position(LINAGE)

    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        app.board.show(game, overlay=overlay_for(game))
        app.board.cursor = game.geometry.parse("g1")
        await pilot.pause()
        text = lines(app.board)
        assert text[1] == "7  ↔─↔─↔─●─↔─↔─↔  7"  # Horizontal's points
        assert text[4] == "4  ↕─↕─●─┼─┼─┼─┤  4"  # Vertical's; the free ones keep the grid

    run(game, script)

    partitions = load_position(PARTITIONS)

    async def fragments(app: BoardApp, pilot: Pilot[None]) -> None:
        app.board.show(partitions, overlay=overlay_for(partitions))
        await pilot.pause()
        text = lines(app.board)
        assert text[5] == "e  ● ● ● ●[●]● ● ● ●  e"  # a dividing group: plain stones
        assert text[8] == "   b  ◎ ◎ ◎ ◎ · ·  b"  # white fragment pieces: ◎, not ○
        assert text[9] == "    a  ◎ ◎ ◎ ◎ ◎  a"

    run(partitions, fragments)

    petrify = load_position(PETRIFY)

    async def patches(app: BoardApp, pilot: Pilot[None]) -> None:
        app.board.show(petrify, overlay=overlay_for(petrify))
        await pilot.pause()
        text = lines(app.board)
        assert text[5] == "2 ─○─ ▪ ▒▒▒ ●  ▫  ▫  2"  # a2 cancelled, owned empty squares
        assert text[6] == "1  ▪ ─●─▒▒▒ ▫  ▫  ●  1"

    run(petrify, patches)


# -- the cursor ----------------------------------------------------------------------------


async def press_and_name(app: BoardApp, pilot: Pilot[None], *keys: str) -> str:
    await pilot.press(*keys)
    return name(app.game, app.board.cursor)


def test_square_cursor_keys_move_and_stop_at_the_edges() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        assert name(app.game, app.board.cursor) == "c4"  # near the centre
        assert await press_and_name(app, pilot, "left", "left", "left") == "a4"
        assert await press_and_name(app, pilot, *["down"] * 5) == "a1"
        assert await press_and_name(app, pilot, "k") == "a2"
        assert await press_and_name(app, pilot, "l") == "b2"
        assert await press_and_name(app, pilot, "j") == "b1"
        assert await press_and_name(app, pilot, "h") == "a1"
        assert await press_and_name(app, pilot, "w", "d") == "b2"
        assert await press_and_name(app, pilot, "s", "a") == "a1"
        assert await press_and_name(app, pilot, *["right"] * 8) == "f1"
        assert await press_and_name(app, pilot, *["up"] * 8) == "f6"
        assert await press_and_name(app, pilot, "q", "e", "z", "c") == "f6"  # hex keys only

    run(new_game("petrify", 6), script)


def test_point_cursor_keys_move_and_stop_at_the_edges() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        assert name(app.game, app.board.cursor) == "c3"
        assert await press_and_name(app, pilot, "up", "up", "up") == "c5"
        assert await press_and_name(app, pilot, "left", "a", "h") == "a5"
        assert await press_and_name(app, pilot, *["j"] * 6, *["l"] * 6) == "e1"

    run(new_game("linage", 5), script)


@pytest.mark.parametrize(
    ("start", "keys", "end"),
    [
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
    ],
)
def test_hex_cursor_six_directions_and_edges(start: str, keys: list[str], end: str) -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        app.board.cursor = app.game.geometry.parse(start)
        assert await press_and_name(app, pilot, *keys) == end

    run(new_game("partitions", 5), script)


def test_hex_up_and_down_alternate_to_go_straight_up_the_screen() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        board = app.board
        assert name(app.game, board.cursor) == "e5"
        x0 = find(board, "[")[0]
        ups = [await press_and_name(app, pilot, "up") for _ in range(5)]
        assert ups == ["f4", "g4", "h3", "i3", "i3"]  # leaning left, right, left, right
        downs = [await press_and_name(app, pilot, "s") for _ in range(9)]
        assert downs == ["h3", "g4", "f4", "e5", "d4", "c4", "b3", "a3", "a3"]
        columns = set()
        for key in ["w"] * 8:
            await pilot.press(key)
            columns.add(find(board, "[")[0])
        assert columns == {x0 - 1, x0}

    run(new_game("partitions", 5), script)


def test_move_cursor_refuses_an_unknown_direction() -> None:
    board = board_for(new_game("petrify", 6))
    with pytest.raises(ValueError, match="unknown direction"):
        board.move_cursor("north")


# -- choosing a cell -----------------------------------------------------------------------


def test_enter_and_space_choose_the_cell_under_the_cursor() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await pilot.press("left", "space")
        await pilot.pause()
        assert [name(app.game, c) for c in app.chosen] == ["c4", "b4"]

    run(new_game("petrify", 6), script)


@pytest.mark.parametrize(
    ("position", "glyph", "cell"),
    [
        (
            "petrify size=6 ....../....../....../..b.../....../...... orange "
            "passes=0,last=blue,swap=no",
            "●",
            "c3",
        ),
        ("linage size=5,komi=0 ...../...../..x../...../..... vertical passes=0", "●", "c3"),
        (
            "partitions size=5 ...../....../......./......../....w..../......../......./"
            "....../..... black -",
            "○",
            "e5",
        ),
    ],
    ids=["square", "points", "hex"],
)
def test_clicking_a_piece_chooses_its_cell(position: str, glyph: str, cell: str) -> None:
    game = load_position(position)

    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        board = app.board
        await pilot.press("left", "left", "up")  # the cursor away from the piece
        x, y = find(board, glyph)
        await pilot.click("#board", offset=(0, y))  # a row label: not a cell
        await pilot.click("#board", offset=(x, y))
        await pilot.pause()
        assert [name(game, c) for c in app.chosen] == [cell]
        assert name(game, board.cursor) == cell
        await pilot.click("#board", offset=(x + 1, y))  # just right of the glyph
        await pilot.pause()
        assert [name(game, c) for c in app.chosen] == [cell, cell]

    run(game, script)


def test_clicking_anywhere_in_a_square_chooses_it() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        for dx in (-1, 0, 1):
            # c3 of a 6 x 6 board: row 3 is line 4, column c spans columns 8-10.
            await pilot.click("#board", offset=(9 + dx, 4))
        await pilot.pause()
        assert [name(app.game, c) for c in app.chosen] == ["c3"] * 3

    run(new_game("petrify", 6), script)


# -- sizes and keys ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "size"),
    [("petrify", 10), ("pilo", 10), ("egotzi", 9), ("linage", 19), ("partitions", 10)],
)
def test_the_largest_boards_fit_beside_the_side_panel(game: str, size: int) -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        width, height = app.board.size_needed()
        assert width <= MAX_WIDTH and height <= MAX_HEIGHT
        assert (app.board.region.width, app.board.region.height) == (width, height)
        # Every row of cells is on screen, coordinates included.
        text = lines(app.board)
        assert len(text) == height and max(len(line) for line in text) <= width

    run(new_game(game, size), script)


def test_pilo_stacks_as_tall_as_the_rules_allow_fit() -> None:
    # 2**(h-1) - 1 captures build a stack of height h; a 10 x 10 board has room for 63
    # blocks next to a stack of 7, the tallest possible.
    rows = ["x" * 10] * 6 + ["xxx.......", "b7.........", "..........", "o1........."]
    game = load_position(f"pilo size=10 {'/'.join(rows)} orange passes=0,last=blue,swap=no")

    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        assert lines(app.board)[8] == " 3  ●7  ·   ·   ·   ·   ·   ·   ·   ·   ·   3"
        assert app.board.size_needed()[0] <= MAX_WIDTH

    run(game, script)


def test_show_another_size_resizes_the_board() -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        board = app.board
        bigger = new_game("egotzi", 9)
        board.cursor = 24
        board.show(bigger)
        await pilot.pause()
        assert board.size_needed() == (board.region.width, board.region.height)
        assert board.size_needed()[1] == 9 + 2
        assert board.cursor == 24
        smaller = new_game("egotzi", 5)
        board.show(smaller)
        await pilot.pause()
        assert board.cursor == 24  # the last cell of a 5 x 5 board: still on it
        board.move_cursor("right")
        assert board.cursor == 24

    run(new_game("egotzi", 7), script)


@pytest.mark.parametrize("game", ["petrify", "linage", "partitions"])
def test_every_board_key_has_an_id_and_a_description(game: str) -> None:
    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        bindings = [
            active.binding
            for active in app.screen.active_bindings.values()
            if active.node is app.board
        ]
        assert all(b.id and b.id.startswith("board.") and b.description for b in bindings)
        expected = {"board.left", "board.right", "board.up", "board.down", "board.activate"}
        if game == "partitions":
            expected |= {"board.up_left", "board.up_right", "board.down_left", "board.down_right"}
        assert {b.id for b in bindings} == expected

    run(new_game(game), script)


def test_a_zoomed_square_board_draws_larger_squares_that_a_click_anywhere_picks() -> None:
    game = new_game("petrify", size=6)
    game.play("c3")

    async def script(app: BoardApp, pilot: Pilot[None]) -> None:
        board = app.board
        small = board.size_needed()
        board.fit(80, 24)  # room for zoom 2 (six lines of three), not 3
        await pilot.pause()
        assert board.zoom == 2
        assert board.size_needed(2) == (board.region.width, board.region.height)
        assert board.size_needed(2)[0] >= 1.5 * small[0]
        text = [board.render_line(y).text.rstrip() for y in range(board.region.height)]
        assert text[0].split() == list("abcdef")
        assert text[11].split()[0] == "3" and "●" in text[11]  # c3, in its square's middle
        assert text[10].strip() == text[12].strip() == ""  # the lines above and below it
        # A click on the corner of c3's square chooses c3.
        x = text[11].index("●") - 2
        await pilot.click(board, offset=(x, 10))
        assert app.chosen == [game.geometry.parse("c3")]

    run(game, script)
