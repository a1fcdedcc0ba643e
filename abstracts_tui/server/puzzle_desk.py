"""The server's rated puzzles for its sessions and for `ssh -T host puzzles [GAME]`: the
next puzzle offered near a person's puzzle rating, a try rated, and their puzzle ratings
(`store.puzzle_book`). The shipped puzzles are added to the store on first use, beside
those mined from the archive. Every function blocks: call it off the event loop."""

from __future__ import annotations

import random
import threading

from ..printable import NAME_LIMIT, printable
from ..puzzles.rated import PuzzleAnswer
from ..rooms.link import Puzzling
from ..rules.catalogue import CATALOGUE
from ..store import Store, StoreError
from ..store.puzzle_book import add_shipped, keep_try, next_puzzle, rating_of, ratings

_added: set[str] = set()
"""The stores (by location) the shipped puzzles were added to by this process."""
_adding = threading.Lock()
_draw = random.Random()
KEY_LIMIT = 40
"""The longest puzzle key taken (`puzzles.rated.puzzle_key` makes them shorter)."""


def with_shipped(store: Store) -> None:
    """Add the shipped puzzles to `store` (once a process; those kept stay as they are)."""
    with _adding:
        if store.location in _added:
            return
        from ..puzzles.shipped import load_all

        add_shipped(store, load_all())
        _added.add(store.location)


def puzzle_errand(store: Store, user: str, request: Puzzling) -> PuzzleAnswer:
    """Answer `user`'s `request`; raises StoreError (its message says why) when the store
    cannot, or the request names no game or puzzle."""
    with_shipped(store)
    if request.what == "next":
        game = str(request.game).lower()
        if game not in CATALOGUE:
            raise StoreError(f"there is no game {printable(str(request.game), NAME_LIMIT)}")
        offered = next_puzzle(store, user, game, _draw)
        return PuzzleAnswer(offered=offered, player=rating_of(store, user, game))
    if request.what == "tried":
        if len(str(request.key)) > KEY_LIMIT:
            raise StoreError("there is no such puzzle")
        return PuzzleAnswer(rated=keep_try(store, user, str(request.key), bool(request.won)))
    if request.what == "ratings":
        found = ratings(store, user)
        return PuzzleAnswer(ratings=tuple((r.game, r.rating, r.tries) for r in found))
    raise StoreError(f"no such request about puzzles: {printable(str(request.what), 20)}")


def puzzles_command(store: Store, user: str, arguments: list[str]) -> tuple[str, str, int]:
    """`ssh -T host puzzles [GAME]`: `user`'s puzzle ratings (of one game) as a table,
    its error and exit status."""
    if len(arguments) > 1:
        return "", "abstracts-tui: usage: puzzles [GAME]\n", 2
    game = arguments[0].lower() if arguments else None
    if game is not None and game not in CATALOGUE:
        shown = printable(arguments[0], NAME_LIMIT)
        return "", f"abstracts-tui: there is no game {shown} ({', '.join(CATALOGUE)}).\n", 2
    found = [r for r in ratings(store, user) if game in (None, r.game)]
    lines = ["game\tpuzzle rating\tdeviation\ttries"]
    lines += [f"{r.game}\t{r.rating.text()}\t{round(r.rating.deviation)}\t{r.tries}" for r in found]
    return "".join(line + "\n" for line in lines), "", 0
