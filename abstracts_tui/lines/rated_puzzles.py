"""Rated puzzles in line mode's lobby on a server: `puzzles` says the person's puzzle
ratings, `puzzle GAME` offers puzzles of GAME near their puzzle rating one after another;
each try is rated once, by its first wrong move or move shown (lost) or the whole line
solved (won), and the rating's change is said: `Solved. Puzzle rating 1500 -> 1523.`"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from ..puzzles.rated import PuzzleAnswer, Score
from ..puzzles.trial import Trial
from ..rooms.client import RoomClient
from ..rooms.link import Puzzling
from ..rooms.live import Refused
from ..rules.catalogue import CATALOGUE, find_game
from ..store import StoreError
from ..words import legal_words
from .puzzles import say_position
from .questions import Say

UNREAD = "The puzzles cannot be read now; try again later."
HELP = """\
Type the move that wins, in the game's notation (such as d4, b3-e3 or pass): a wrong move
or show loses the try, the whole line found wins it, and your puzzle rating changes.
board (b): the board again. legal (l): the legal moves. show: play the next move for you.
next (n): the next puzzle. lobby (quit, q): back to the lobby."""

Read = Callable[[], Awaitable["str | None"]]


async def ask(client: RoomClient, request: Puzzling, say: Say) -> PuzzleAnswer | None:
    """The server's answer, or None once the refusal is said."""
    try:
        return await client.puzzles(request)
    except (StoreError, Refused) as error:
        say(UNREAD if isinstance(error, Refused) else f"{str(error)[:1].upper()}{str(error)[1:]}.")
        return None


async def say_puzzle_ratings(client: RoomClient, say: Say) -> None:
    """`puzzles`: the person's puzzle rating in each game they tried puzzles of."""
    answer = await ask(client, Puzzling("ratings"), say)
    if answer is None:
        return
    if not answer.ratings:
        say("You have no puzzle rating yet: puzzle GAME offers rated puzzles of GAME.")
        return
    found = ", ".join(
        f"{CATALOGUE[game].title} {rating.text()} ({tries} {'try' if tries == 1 else 'tries'})"
        for game, rating, tries in answer.ratings
    )
    say(f"Your puzzle ratings: {found}.")


async def rated_puzzles(client: RoomClient, words: list[str], say: Say, read: Read) -> bool:
    """`puzzle GAME`: rated puzzles of GAME until `lobby` (True) or the end of input
    (False)."""
    if len(words) != 1:
        say("Type puzzle and a game, such as puzzle pilo.")
        return True
    info = find_game(words[0])
    if info is None:
        say(f"There is no game {words[0][:24]}: the games are {', '.join(CATALOGUE)}.")
        return True
    game = info.name
    while True:
        answer = await ask(client, Puzzling("next", game), say)
        if answer is None:
            return True
        offered = answer.offered
        if offered is None:
            say(f"You have solved every puzzle of {CATALOGUE[game].title} here.")
            return True
        trial = Trial(offered.puzzle)
        rating = answer.player.text() if answer.player else "1500?"
        say(
            f"A puzzle rated {offered.rating.text()}; your puzzle rating {rating}. "
            f"{trial.task()} Type help for the commands."
        )
        say_position(trial, say)
        going = await _try(client, offered.key, trial, say, read)
        if going is None:
            say("Back in the lobby: rooms lists the rooms again.")
            return True
        if going is False:
            return False


async def _try(client: RoomClient, key: str, trial: Trial, say: Say, read: Read) -> bool | None:
    """Lines about one puzzle: True for the next one, None back to the lobby, False at
    the end of input."""
    score = Score()
    while True:
        line = await read()
        if line is None:
            return False
        word = " ".join(line.split()).lower()
        if not word:
            continue
        if word in ("lobby", "quit", "q", "rooms"):
            return None
        if word in ("?", "help", "h"):
            for help_line in HELP.splitlines():
                say(help_line)
        elif word in ("b", "board"):
            say_position(trial, say)
        elif word in ("l", "legal"):
            say(legal_words(trial.game))
        elif word in ("n", "next"):
            if not trial.solved:
                say(f"Skipped: the solution was {' '.join(trial.puzzle.solution)}.")
            return True
        else:
            shown = word == "show"
            if shown:
                answer = await asyncio.to_thread(trial.show)
            else:
                answer = await asyncio.to_thread(trial.attempt, line.strip())
            said = answer.said
            won = score.after(answer, shown)
            if won is not None:
                rated = await ask(client, Puzzling("tried", key=key, won=won), say)
                if rated is not None and rated.rated is not None:
                    lost = "" if won else " The try is lost."
                    said += f"{lost} {rated.rated.change()}"
            if answer.solved:
                said += " Type next for the next puzzle, or lobby."
            say(said)


async def puzzle_words(client: RoomClient, words: list[str], say: Say, read: Read) -> bool:
    """The lobby's `puzzles` (the ratings) or `puzzle GAME`; False at the end of input."""
    if words[0].lower() == "puzzles" and len(words) == 1:
        await say_puzzle_ratings(client, say)
        return True
    return await rated_puzzles(client, words[1:], say, read)
