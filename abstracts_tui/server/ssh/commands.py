"""What `ssh host games`, `export`, `ratings`, `leaderboard` and `profile` print: the
store's archive and ratings as text, for people and for scripts.

Each answer is worked out from the store on a worker thread (the store blocks) and sent
whole; no terminal is needed. Tables are tab-separated lines under a header line, so
that `cut -f` and `column -t -s $'\\t'` read them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ... import standings
from ...game_setup import Setup
from ...printable import NAME_LIMIT, printable
from ...records import Record
from ...rooms.rows import OPEN_SEAT, game_line
from ...rules import GAMES
from ...session import Session
from ...store import PlayerRating, Store, StoredRoom
from ..auth import valid_name
from ..moderation import COMMANDS as MODERATION_COMMANDS
from ..moderation import USAGE as MODERATION_USAGE
from ..moderation import answer as moderate
from ..room_files import valid_code

COMMANDS = (
    *("games", "export", "ratings", "leaderboard", "profile", "notify", "puzzles"),
    *MODERATION_COMMANDS,
)
USAGE = """\
  ssh -T {address} games [NAME]   games played here, newest first (NAME's only)
  ssh -T {address} export CODE    the record of game CODE (SGF)
  ssh -T {address} ratings [GAME] the ratings (of one game)
  ssh -T {address} leaderboard GAME the top 20 of GAME's ratings
  ssh -T {address} profile NAME   NAME's ratings with their history, games and last games
  ssh -T {address} notify [URL | mailto:ADDRESS | off | quiet 22-7]  how you are told while away
  ssh -T {address} puzzles [GAME] your puzzle ratings (of one game)
"""
USAGE += MODERATION_USAGE


EXPORT_WAIT_SECONDS = 10.0
"""How long `export` waits for a game's last changes to be saved (another program
holding the store's lock) before it says the record would be stale."""

Settle = Callable[[str, float], "str | None"]
"""Waits up to the seconds given until room CODE's changes taken are kept in the store:
None once they are, else why not (`rooms.live.LiveRooms.settle`)."""


@dataclass(frozen=True)
class Answer:
    """What a command prints on the standard output and error, and its exit status."""

    output: str = ""
    error: str = ""
    status: int = 0


def answer(
    store: Store,
    words: list[str],
    settle: Settle | None = None,
    *,
    viewer: str | None = None,
    admins: frozenset[str] = frozenset(),
) -> Answer:
    """The answer to `words` (a command of COMMANDS and its arguments), off the event
    loop; raises StoreError if the store cannot be read. `settle`: how `export` waits for
    a game's changes taken but not saved yet (none: the store has them all). `viewer`:
    who asks (`games` lists a room made to be joined by its code, still under way, to its
    players only)."""
    command, arguments = words[0], words[1:]
    if command == "notify" and viewer is not None:
        from ..notify_command import notify

        text, taken = notify(store, viewer, arguments)
        return Answer(text + "\n") if taken else Answer(error=text + "\n", status=2)
    if command == "puzzles" and viewer is not None:
        from ..puzzle_desk import puzzles_command

        return Answer(*puzzles_command(store, viewer, arguments))
    if command in MODERATION_COMMANDS and viewer is not None:  # `admins`: `serve --admin`
        said = moderate(store, words, viewer, admins)
        return Answer(said.output, said.error, said.status)
    needs_one = command in ("export", "leaderboard", "profile")
    if len(arguments) > 1 or (needs_one and not arguments):
        return Answer(error=f"abstracts-tui: usage:\n{USAGE.format(address='HOST')}", status=2)
    argument = arguments[0] if arguments else None
    if command == "games":
        return games(store, argument, viewer)
    if command == "export":
        assert argument is not None
        return export(store, argument, settle)
    if command == "leaderboard":
        assert argument is not None
        return leaderboard(store, argument)
    if command == "profile":
        assert argument is not None
        return profile(store, argument)
    return ratings(store, argument)


def games(store: Store, name: str | None, viewer: str | None = None) -> Answer:
    """The games played here (`name`'s only), newest first: finished ones, and those
    under way in rooms open to anyone or of `viewer`'s (a room made to be joined by its
    code is not shown to others while it is under way: whoever has its code may join
    it, as in the lobby)."""
    if name is not None and not valid_name(name):
        shown = printable(name, NAME_LIMIT)
        return Answer(error=f"abstracts-tui: '{shown}' is not a player's name.\n", status=2)
    lines = ["code\tgame\tplayers\tresult\trated\tdate (UTC)"]
    lines += [game_line(room) for room in store.rooms(player=name) if shown_to(room, viewer)]
    return Answer("".join(line + "\n" for line in lines))


def shown_to(room: StoredRoom, viewer: str | None) -> bool:
    """Whether `games` lists `room` to `viewer`."""
    return room.finished is not None or room.setup.open or viewer in room.players


def export(store: Store, code: str, settle: Settle | None = None) -> Answer:
    """The record of game `code` as the server has it now: with its changes not saved
    yet, once they are (`EXPORT_WAIT_SECONDS` at most: then a sentence and status 1,
    never a record that lacks them)."""
    code = code.strip().lower()
    if settle is not None and valid_code(code):
        unsaved = settle(code, EXPORT_WAIT_SECONDS)
        if unsaved is not None:
            return Answer(
                error=f"abstracts-tui: game {code} has changes not saved yet ({unsaved}), "
                "so its record would lack them: try again later.\n",
                status=1,
            )
    room = store.room(code) if valid_code(code) else None
    if room is None:
        shown = printable(code, NAME_LIMIT)
        return Answer(error=f"abstracts-tui: there is no game {shown}.\n", status=1)
    sgf = room.sgf
    if sgf is None:  # komi and sides are still being chosen: no move yet
        kept = room.setup
        joiner = room.joiner or OPEN_SEAT
        setup = Setup(kept.game, kept.size, kept.variant, kept.komi, kept.creator, joiner)
        sgf = Session.start(setup).record.to_sgf()
    else:  # one an earlier version saved: in this version's form
        sgf = Record.rewritten(sgf)
    return Answer(sgf if sgf.endswith("\n") else sgf + "\n")


def no_game(game: str) -> Answer | None:
    """Why `game` (in lower case) names no game, or None when it names one."""
    if game in GAMES:
        return None
    names = ", ".join(GAMES)
    shown = printable(game, NAME_LIMIT)
    return Answer(error=f"abstracts-tui: there is no game {shown} ({names}).\n", status=2)


def ratings(store: Store, game: str | None) -> Answer:
    if game is not None:
        game = game.lower()
        if (refused := no_game(game)) is not None:
            return refused
    lines = ["name\tgame\trating\tdeviation\tgames"]
    lines += [rating_line(rating) for rating in store.ratings(game)]
    return Answer("".join(line + "\n" for line in lines))


def rating_line(rating: PlayerRating) -> str:
    """`ann  pilo  1662?  290  1`: `?` marks a provisional rating (its deviation is high)."""
    value = rating.rating
    return f"{rating.name}\t{rating.game}\t{value.text()}\t{round(value.deviation)}\t{rating.games}"


def leaderboard(store: Store, game: str) -> Answer:
    """Game `game`'s top ratings, ranked (`standings.leaderboard`)."""
    game = game.lower()
    if (refused := no_game(game)) is not None:
        return refused
    lines = standings.leaderboard(standings.read_leaderboard(store, game))
    return Answer("".join(line + "\n" for line in lines))


def profile(store: Store, name: str) -> Answer:
    """Player `name`'s profile (`standings.profile`); status 1 for a name never played."""
    shown = printable(name, NAME_LIMIT)
    if not valid_name(name):
        return Answer(error=f"abstracts-tui: '{shown}' is not a player's name.\n", status=2)
    found = standings.read_profile(store, name)
    if not found.known:
        return Answer(error=f"abstracts-tui: {shown} has played no game here.\n", status=1)
    return Answer("".join(line + "\n" for line in standings.profile(found)))
