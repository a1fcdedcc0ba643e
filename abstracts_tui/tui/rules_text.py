"""The rules of the five games, in this project's own words, for the help screen.

Each text is the short form of the rules in docs/rules.md. Lines starting with a
word and a colon (`Aim:`) are section heads; lines starting with `- ` are list items.
"""

from __future__ import annotations

PETRIFY = """\
Players and board: Blue and Orange, on a square board of 6x6 to 10x10 squares (8x8
unless chosen).

Aim: own more of the board than your opponent when the game ends.

Turn: Blue moves first. On your turn make one board play:
- place a disk of your colour on any empty square, or
- capture: slide one of your disks in a straight line, in any of the 8 directions,
  over empty squares and your own disks, onto the first enemy disk in that line. The
  enemy disk is taken off, your disk takes its square, and the square your disk left
  gets a block.

Blocks: a capture may not make a mound (four blocks filling a 2x2 square) or a
barricade (three blocks in a diagonal line). The board counts as ringed by blocks, so
shapes that use the edge are forbidden too: two blocks side by side along an edge make
a mound, a block on the edge with another one diagonally inward makes a barricade (a2
with b1 too), and a disk in a corner can never capture.

Passing: you pass only when you have no board play. Two passes in a row end the game.

Pie rule: on Orange's first turn, Orange may swap instead of moving. The players then
trade colours and the board stays as it is: the person who placed the first disk now
plays Orange and moves next.

Scoring: a patch is a set of squares without blocks joined side by side (empty squares
count). In each patch, a Blue group and an Orange group of the same size cancel, pair
by pair. The colour with the biggest group left owns the patch and scores all its
squares. A patch with no groups, or where every group cancels, scores for nobody.
Groups are disks of one colour joined side by side; a group's size is its number of
squares.

The end: the higher score wins. On equal scores the colour that made the last board
play (a placement or capture, not a pass or swap) loses, so there are no draws. The
score shown during play is the same count on the current position, not a forecast.
"""

PILO = """\
Players and board: Blue and Orange, on a square board of 6x6 to 10x10 squares (8x8
unless chosen).

Aim: own more of the board than your opponent when the game ends.

Turn: Blue moves first. On your turn make one board play:
- place a disk of your colour on any empty square (a stack of height 1), or
- capture: slide one of your stacks straight up, down, left or right, over empty
  squares and your own stacks, onto the first enemy stack in that line, if that stack
  is exactly as tall as yours. The enemy stack is taken off, your stack lands on its
  square one disk taller, and the square your stack left gets a block.

Blocks: Pilo has no forbidden shapes of blocks.

Passing: you pass only when you have no board play. Two passes in a row end the game.

Pie rule: on Orange's first turn, Orange may swap instead of moving. The players then
trade colours and the board stays as it is: the person who placed the first disk now
plays Orange and moves next.

Scoring: a patch is a set of squares without blocks joined side by side (empty squares
count). In each patch, a Blue group and an Orange group of the same size cancel, pair
by pair. The colour with the biggest group left owns the patch and scores all its
squares. A patch with no groups, or where every group cancels, scores for nobody.
Groups are stacks of one colour joined side by side; a group's size is its number of
squares, however tall its stacks.

The end: the higher score wins. On equal scores the colour that made the last board
play (a placement or capture, not a pass or swap) loses, so there are no draws. The
score shown during play is the same count on the current position, not a forecast.
"""

EGOTZI = """\
Players and board: Black and White, on a square board of 5x5 to 9x9 squares (7x7
unless chosen).

Aim: standard game, keep the biggest group once equal groups cancel; squared game,
score more with big groups (a group of 5 is worth 25).

Turn: Black moves first. Place a stone of your colour on an empty square. Then every
stone next to it (up, down, left, right) is pushed straight away from it:
- it moves to the first empty square beyond it in that direction, jumping over stones;
- if there is none before the edge, it comes back in from the other side: it goes to
  the empty square nearest the opposite edge on the same line;
- if there is no empty square there either, it stays where it is.
All pushes are worked out together on the board just after the placement. If two
pushed stones would land on the same square, the one that came round from the other
side stays where it was.

Passing: there is no passing. The game ends when the board is full.

Standard scoring: groups are stones of one colour joined side by side. Over the whole
board a Black group and a White group of the same size cancel, pair by pair. Each
colour scores the size of its biggest group left (0 if none); the higher score wins.
If both score 0, the colour that placed the last stone loses.

Pie rule (standard game): on White's first turn, White may swap instead of moving. The
players then trade colours and the board stays as it is: the person who placed the
first stone now plays White and moves next.

Squared variant: nothing cancels; each colour scores the sum of the squares of its
group sizes, and White adds komi. Komi is an even whole number, which may be negative.
There is no pie rule: before the game the first player sets komi, then the second
player chooses Black or White. Equal scores are a draw.
"""

LINAGE = """\
Players and board: Vertical and Horizontal, on the points of a square grid of 5x5 to
19x19 points (11x11 unless chosen). The stones are neutral: both players place the same stones.

Aim: own more points than your opponent when the game ends.

Regions and lines: a region is a set of empty points joined side by side. A line is
three empty points in a row, next to each other across or up and down. A region with
no line across belongs to Vertical; a region with no line up and down belongs to
Horizontal; a region with both kinds of line is free.

Turn: Vertical moves first. On your turn either place a stone on an empty point of a
free region, or pass. After a placement every region must still hold at least one
line, so no region ever belongs to both players.

Passing: you may always pass. Two passes in a row end the game.

Komi: before the game the first player sets komi, a whole or half number (it may be
negative), and the second player then chooses Vertical or Horizontal. Komi is added to
Horizontal's score to make up for moving second; a half number rules out a draw.

The end: each player scores the points of the regions they own, Horizontal adding
komi. The higher score wins; equal scores are a draw.
"""

PARTITIONS = """\
Players and board: White and Black, on a board of hexagons with 5 to 10 cells per
side (6 unless chosen).

Aim: leave many of your opponent's pieces, and few of your own, in groups that do not
split the board.

Turn: White moves first. Place a piece of your colour on any empty cell. There is no
passing and no pie rule.

Groups: pieces of one colour joined cell to cell (a cell touches up to six others). A
group divides the board if taking its cells away (every other cell stays, empty or
not) leaves the rest of the board in two or more parts. Any other group is a fragment
group, including a group whose removal leaves nothing.

The end: the game ends when the board is full; players may also agree to stop early,
and the position is then scored as it stands. White scores the number of Black pieces
in Black fragment groups; Black scores the number of White pieces in White fragment
groups. The higher score wins.

Ties: every piece in a fragment group, of either colour, changes colour and the board
is scored again, as often as needed until the scores differ. If a position comes back,
or no fragment group is left to change, the game is a draw. The score shown and
recorded is the first count; the tie-break decides only the winner.
"""

RULES: dict[str, str] = {
    "petrify": PETRIFY,
    "pilo": PILO,
    "egotzi": EGOTZI,
    "linage": LINAGE,
    "partitions": PARTITIONS,
}
"""Each game's rules by its name (the keys of `abstracts_tui.rules.GAMES`)."""

NOTATION = """\
Moves are written the same way on screen, in records and in the engine protocol:
- A cell on a square board (Petrify, Pilo, Egotzi) or a point in Linage is its column
  letter counted from the left, then its row number counted from 1 at the bottom: a1
  is the bottom-left corner.
- In Partitions a cell is its row letter counted from the bottom (a is the bottom row),
  then its place in that row counted from the left: a1 is the left end of the bottom
  row.
- A placement is the cell, e.g. c3. A capture in Petrify or Pilo is from-to, e.g.
  c3-f6. Passing is pass; the pie rule's swap is swap.
- Moves may be typed in upper or lower case, with spaces around them.
"""
"""How moves are written, for the help screen."""
