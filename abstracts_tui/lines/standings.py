"""Line mode's `leaderboard GAME` and `profile [NAME]`: a game's top ratings and a player's
ratings with their history, games and last games, in sentences."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..printable import NAME_LIMIT, printable
from ..ratings import PlayerRating
from ..rooms.client import RoomClient
from ..rooms.profile import Profile
from ..rooms.rows import game_line
from ..rules import CATALOGUE, GameInfo
from ..rules.catalogue import find_game
from ..standings import HISTORY_SHOWN, tally_text
from ..store import StoreError

UNREAD = "The ratings cannot be read now; try again later."


def plural(count: int, thing: str) -> str:
    """`1 game`, `3 games`."""
    return f"{count} {thing}{'s' if count != 1 else ''}"


def leaderboard_lines(info: GameInfo, ratings: Sequence[PlayerRating]) -> list[str]:
    """`Pilo, the highest ratings:` then `1. ann 1662?, deviation 290, 3 games.` each."""
    if not ratings:
        return [f"Nobody is rated at {info.title} yet."]
    lines = [f"{info.title}, the highest ratings:"]
    for rank, rating in enumerate(ratings, 1):
        value = rating.rating
        games = plural(rating.games, "game")
        lines.append(
            f"{rank}. {rating.name} {value.text()}, deviation {round(value.deviation)}, {games}."
        )
    return lines


def profile_lines(found: Profile) -> list[str]:
    """`ann: 3 games played: 2 won, 1 lost, 0 drawn.`, a line for each rating with its
    history, and the last games."""
    lines = [f"{found.name}: {tally_text(found.tally)}."]
    for rating in found.ratings:
        info = CATALOGUE.get(rating.game)
        title = info.title if info is not None else rating.game
        points = found.points(rating.game)[-HISTORY_SHOWN:]
        history = ", ".join(str(round(point)) for point in points)
        lines.append(
            f"{title} {rating.rating.text()}, {plural(rating.games, 'rated game')}; "
            f"after each, the oldest first: {history}."
        )
    if found.recent:
        lines.append("Last games:")
        lines += ["Room " + ", ".join(game_line(room).split("\t")) + "." for room in found.recent]
    return lines


async def say_standings(
    client: RoomClient, user: str, words: list[str], say: Callable[[str], None]
) -> None:
    """Answer `leaderboard GAME` or `profile [NAME]` (`words`) typed in the lobby."""

    try:
        if words[0].lower() == "leaderboard":
            info = find_game(words[1]) if len(words) == 2 else None
            if info is None:
                say("Type leaderboard and a game, such as leaderboard pilo.")
                return
            lines = leaderboard_lines(info, await client.leaderboard(info.name))
        else:
            name = words[1] if len(words) == 2 else user
            if len(words) > 2:
                say("Type profile, or profile and a name, such as profile ann.")
                return
            found = await client.profile(name)
            lines = (
                profile_lines(found)
                if found.known
                else [f"{printable(name, NAME_LIMIT)} has played no game here."]
            )
    except StoreError:
        lines = [UNREAD]
    for line in lines:
        say(line)
