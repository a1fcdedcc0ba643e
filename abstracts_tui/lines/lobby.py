"""Line mode's lobby over SSH (`ssh -t host lines`): the rooms as numbered lists, read as
lines, and the way into a room (`room`), a new room, or a game played here.

It runs on the line session's thread, on an event loop of its own: the rooms are reached
through the session's `RoomClient` (its calls run on the server's loop), which tells this
loop of the person's news and of each room followed. The lines typed come from the
channel (`lines.channel.ChannelLines`) through one reading thread into this loop's queue; a
game played here (hot-seat or against the computer, `lines.play`) reads from that queue
too.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path

from ..crossing import on_thread
from ..rated import Ratings, own_ratings, rated_name, read_ratings
from ..rooms.client import RoomClient, RoomView
from ..rooms.pairing import colour_note, parse_range
from ..rooms.room import RoomError
from ..rooms.told import came_back
from ..time_odds import spec_words
from ..waiting_notes import waiting_notes
from .channel import ChannelLines
from .new_room import new_room
from .notices import say_notify
from .questions import Say
from .rated_puzzles import puzzle_words
from .room import LineRoom, Outcome
from .standings import say_standings

HELP = "\n".join(
    (
        "In the lobby:",
        "a number: enter that room (your game, an open challenge to accept, or a game to watch).",
        "rooms (or lobby): the lists again.",
        "join CODE: take a seat in room CODE (or your seat back); watch CODE: watch it.",
        "new GAME [SIZE] [clock SPEC] [rated] [open] [first|second|random] [range"
        " N|MIN-MAX]: a new room, such as new pilo 6 clock 5m+3s second; open makes it an"
        " open challenge, listed in every lobby; without it the room is listed to nobody"
        " else, and whoever you give its code to joins it with join CODE.",
        "second: you play second; random: drawn when somebody joins.",
        "range 200: only ratings within 200 of yours accept it (range 1400-1800: those between).",
        "challenge GAME ...: the same as new GAME ... open.",
        "play: a game here, hot-seat or against the computer (quit in it comes back here).",
        "leaderboard GAME: the highest ratings of GAME; profile [NAME]: your ratings (or"
        " NAME's) with their history, games won and lost, and the last games.",
        "mute NAME: hide NAME's chat from you (unmute NAME); block NAME: also never play"
        " NAME (unblock NAME); mute or block alone: whom you mute or block.",
        "report NAME REASON: tell the server's admins about NAME.",
        "notify: how you are told of your games while away; notify URL (ntfy or Gotify),"
        " notify mailto:ADDRESS, notify off, notify quiet 22-7 [+2] (quiet hours, UTC or an"
        " offset).",
        "puzzles: your puzzle ratings; puzzle GAME: rated puzzles of GAME, near your rating.",
        "help (?): this list. quit (q): leave; your games are kept.",
    )
)
"""What `help` says, a line for each command (a screen reader reads a line at a time)."""


@dataclass(frozen=True)
class Listed:
    """A room as numbered in the lobby, and whether choosing it watches it."""

    room: RoomView
    watch: bool


def room_words(
    room: RoomView, user: str, ratings: Ratings | None = None, link: str | None = None
) -> str:
    """`Your move: room k7m2, Pilo 8x8, rated, ann 1662? against bob, Blue to move
    (ann).` (each player's rating in the room's game, where `ratings` has one), and the
    room's `link` in a browser, if it has one: ` In a browser: URL`."""
    rated = ", rated" if room.rated else ""
    clock = f", clock {spec_words(room.clock)}" if room.clock else ""
    ratings = ratings or {}
    creator = rated_name(room.creator, room.game, ratings)
    note = colour_note(room.colour)
    allowed = parse_range(room.rating_range) if room.rating_range else None
    shown = f", {allowed.shown(ratings.get((room.creator, room.game)))} only" if allowed else ""
    people = f"{creator}{f' ({note})' if note else ''} waits for a player{shown}"
    if room.joiner is not None:
        joiner = rated_name(room.joiner, room.game, ratings)
        people = f"{creator} against {joiner}, {room.state_text()}"
    text = f"room {room.code}, {room.game_text()}{rated}{clock}, {people}."
    if link:
        text += f" In a browser: {link}"
    return f"Your move: {text}" if room.waits_for(user) else text[:1].upper() + text[1:]


class LineLobby:
    """One line session over SSH: the lobby, a room at a time, or a game played here."""

    def __init__(
        self, channel: ChannelLines, client: RoomClient, *, address: str, data: Path, level: str
    ) -> None:
        self.channel = channel
        self.client = client
        self.user = client.user
        self.address = address
        self.data = data
        self.level = level
        self.say: Say = channel.say
        self.listed: list[Listed] = []
        self.room: LineRoom | None = None
        self.ended = False
        """Whether the input has ended (the client gone, or its end of input)."""
        self.tasks: set[asyncio.Task[None]] = set()

    # -- lines in ---------------------------------------------------------------------------

    def pump(self, loop: asyncio.AbstractEventLoop, inbox: asyncio.Queue[str | None]) -> None:
        """On a thread of its own: each line read from the channel into `inbox`."""
        from ..crossing import call_in

        while True:
            line = self.channel.read()
            call_in(loop, inbox.put_nowait, line)
            if line is None:
                return

    async def read(self) -> str | None:
        if self.ended:
            return None
        line = await self.inbox.get()
        if line is None:
            self.ended = True
        return line

    # -- the session ------------------------------------------------------------------------

    async def run(self) -> None:
        """Answer lines until `quit` or the end of input."""
        loop = asyncio.get_running_loop()
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        threading.Thread(
            target=self.pump, args=(loop, self.inbox), name="ssh-lines-input", daemon=True
        ).start()
        self.client.connect(self.news)
        self.say(
            f"abstracts-tui in line mode over SSH: you are {self.user}. Type help for the "
            "commands, quit to leave."
        )
        try:
            await self.lobby()
            while True:
                line = await self.read()
                if line is None:
                    self.say("End of input: your games are kept.")
                    return
                if self.room is not None:
                    outcome = await self.room.answer(line)
                    if outcome is Outcome.QUIT:
                        break
                    if outcome is Outcome.LEAVE:
                        self.leave()
                        await self.lobby()
                elif not await self.answer(line):
                    break
            self.say("Goodbye: your games are kept.")
        finally:
            self.leave()

    def news(self, code: str, text: str, ring: bool) -> None:
        """Somebody moved in one of the person's rooms: said unless that room is shown."""
        if self.room is None or self.room.code != code:
            self.say(text)

    def leave(self) -> None:
        if self.room is not None:
            self.room.stop()
            self.room = None

    # -- the lobby ----------------------------------------------------------------------------

    async def lobby(self) -> None:
        """The person's ratings, and the three lists, numbered on from one to the next
        (without the ratings when the store cannot be read now)."""
        await self.client.refresh()
        client, user = self.client, self.user
        parts = (
            ("Your games", client.of_player(user), False),
            ("Open challenges", client.challenges(user), False),
            ("Games to watch", client.to_watch(user), True),
        )
        names = {user}.union(*(room.players for _, rooms, _ in parts for room in rooms))
        ratings = await read_ratings(client, names) or {}
        if own := own_ratings(user, ratings):
            self.say(f"Your ratings: {own}.")
        self.listed = []
        for title, rooms, watch in parts:
            if not rooms:
                self.say(f"{title}: none.")
                continue
            self.say(f"{title}:")
            for room in rooms:
                self.listed.append(Listed(room, watch and room.joiner is not None))
                words = room_words(room, user, ratings, self.client.room_link(room.code))
                self.say(f"{len(self.listed)}. {words}")
        if self.listed:
            count = len(self.listed)
            numbers = "1" if count == 1 else f"a number from 1 to {count}"
            self.say(
                f"Type {numbers} to enter, new and a game to make a room, play for a game "
                "here, or help."
            )
        else:
            self.say("Type new and a game to make a room, play for a game here, or help.")

    async def answer(self, line: str) -> bool:
        """Answer a line typed in the lobby; False when it asks to leave."""
        words = line.split()
        if not words:
            return True
        word = words[0].lower()
        if word.isdigit() and len(words) == 1:
            number = int(word)
            if not 1 <= number <= len(self.listed):
                if len(self.listed) == 1:
                    self.say("There is one room: type 1.")
                elif self.listed:
                    self.say(f"Type a number from 1 to {len(self.listed)}.")
                else:
                    self.say("There is no room to choose: type new and a game to make one.")
                return True
            chosen = self.listed[number - 1]
            await self.enter(chosen.room.code, watch=chosen.watch)
        elif word in ("rooms", "lobby", "list"):
            await self.lobby()
        elif word in ("join", "watch"):
            if len(words) != 2:
                self.say(f"Type {word} and the room's code, such as {word} k7m2.")
            else:
                await self.enter(words[1].lower(), watch=word == "watch")
        elif word in ("new", "challenge"):  # a challenge: a new room open to anyone
            await self.create(words[1:] + (["open"] if word == "challenge" else []))
        elif word == "play":
            await self.play_here()
            if self.ended:
                return False
            await self.lobby()
        elif word in ("leaderboard", "profile"):
            await say_standings(self.client, self.user, words, self.say)
        elif word in ("mute", "unmute", "block", "unblock", "report"):
            self.say(await self.client.moderate(tuple(words)))
        elif word == "notify":
            await say_notify(self.client, words[1:], self.say)
        elif word in ("puzzles", "puzzle"):  # `lines.rated_puzzles`
            if not await puzzle_words(self.client, words, self.say, self.read):
                return False
        elif word in ("help", "?"):
            for help_line in HELP.splitlines():
                self.say(help_line)
        elif word in ("quit", "q", "exit"):
            return False
        else:
            self.say("Not understood: type a number, rooms, new, play, or help.")
        return True

    async def enter(self, code: str, *, watch: bool) -> None:
        """Take the seat in room `code` (joining it if a seat is open), or watch it."""
        entered = await self.client.enter(code, watch=watch)
        if entered.room is None:
            self.say(entered.notice or f"There is no room {code}.")
            return
        if entered.notice is not None:
            self.say(entered.notice)
        await self.show(entered.room.code)

    async def show(self, code: str) -> None:
        shown = await self.client.show(code)
        if shown is None:
            self.say(f"There is no room {code}.")
            return
        missed, unarrived = await came_back(self.client, shown)
        self.leave()
        self.room = LineRoom(
            shown,
            self.client,
            self.say,
            address=self.address,
            go_to=self.go_to,
            columns=lambda: self.channel.columns,
            missed=missed,
            unarrived=unarrived,
        )
        self.room.start()
        if self.room.waiting_for_player and self.user == shown.room.creator:
            for note in await waiting_notes(self.client, shown.room):
                self.say(note)

    def go_to(self, code: str) -> None:
        """The rematch's room, instead of the room shown (left at once: nothing more of
        it is said); its seat taken by this connection, as a room entered is, or watched
        by a watcher of the room shown."""
        watch = self.room is not None and not self.room.player
        self.leave()
        task = asyncio.get_running_loop().create_task(self.enter(code, watch=watch))
        self.tasks.add(task)  # kept: the loop holds tasks weakly
        task.add_done_callback(self.tasks.discard)

    async def create(self, words: list[str]) -> None:
        made = new_room(words, self.user, self.client.rated)
        if isinstance(made, str):
            self.say(made)
            return
        try:
            room = await self.client.create(
                made.setup,
                rated=made.rated,
                open=made.open,
                colour=made.colour,
                rating_range=made.rating_range,
            )
        except RoomError as error:
            self.say(f"Not made: {error}.")
            return
        await self.show(room.code)

    async def play_here(self) -> None:
        """A game on the server for this person alone (hot-seat or the computer), kept in
        their folder, as line mode plays it anywhere; its lines come from the same queue."""
        loop = asyncio.get_running_loop()

        def read() -> str | None:
            return asyncio.run_coroutine_threadsafe(self.read(), loop).result()

        def play() -> None:
            from .play import LineGame
            from .terminal import new_session, start_session

            session = start_session(self.say, read, self.data, self.level)
            if session is not None:
                again = lambda: new_session(self.say, read, self.data, self.level)  # noqa: E731
                LineGame(session, self.say, new_game=again, level=self.level).run(read)

        await asyncio.to_thread(play)
        if not self.ended:
            self.say("Back in the lobby.")


def play_lines(
    channel: ChannelLines, client: RoomClient, *, address: str, data: Path, level: str
) -> None:
    """The lobby, the rooms and the games played here, by lines, on the calling thread
    (on an event loop of its own) until the person leaves."""
    asyncio.run(LineLobby(channel, client, address=address, data=data, level=level).run())


def start_thread(
    channel: ChannelLines, client: RoomClient, *, address: str, data: Path, level: str
) -> asyncio.Future[None]:
    """Run `play_lines` on a thread of its own; the future is done when it has ended."""
    return on_thread(
        "ssh-lines",
        lambda: play_lines(channel, client, address=address, data=data, level=level),
    )
