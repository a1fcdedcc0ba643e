"""One SSH session channel (`TerminalSession`): with a terminal it runs the app on a
thread of its own (`server.session_thread`) over the server's rooms; with a command and no
terminal (`ssh HOST games`), it runs the command; with neither, it says how to connect.
Its bounds (`server.limits`): the sizes a client asks for are clamped, its input is
rate-limited, and the sessions per person and on the server are counted against the
server's limits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import asyncssh

from ...printable import NAME_LIMIT, printable
from ...rates import TokenBucket
from ...store import StoreError
from ..auth import valid_name
from ..held_frames import HeldFrames
from ..limits import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, ServerConfig, clamp_size
from ..moderation import suspended
from ..session_thread import AppInput
from ..session_thread import Host as AppHost
from .commands import COMMANDS
from .commands import USAGE as COMMANDS_USAGE

if TYPE_CHECKING:
    from ...lines.channel import ChannelLines
    from ...rooms.holder import Holder
    from ..session_process import SessionProcess
    from ..session_thread import Keys, SessionThread

log = logging.getLogger("abstracts_tui.ssh")

USAGE = """\
abstracts-tui: this server plays games in a terminal; ask ssh for one with -t:

  ssh -t {address}               the lobby: create a room, join one, watch, or play hot-seat
  ssh -t {address} join CODE     join room CODE, or take your seat in it back
  ssh -t {address} watch CODE    watch room CODE
  ssh -t {address} lines         line mode, for screen readers: the rooms, hot-seat, the computer

and, with or without a terminal:

"""


class Host(AppHost, Protocol):
    """What a session needs of the server (`server.Server`): besides what its app needs,
    the server's settings, the sessions open per person, whether it takes another, and
    the sessions whose app runs."""

    config: ServerConfig
    sessions: Counter[str]
    terminals: set[TerminalSession]

    def full(self) -> bool: ...


class TerminalSession(asyncssh.SSHServerSession[str]):
    """One session channel: with a terminal it runs an app; without, it says how to connect."""

    def __init__(self, server: Host, conn: asyncssh.SSHServerConnection) -> None:
        self.server = server
        self.conn = conn
        self.chan: asyncssh.SSHServerChannel[str] | None = None
        self.command: str | None = None
        self.to_app = AppInput((80, 24))
        """The client's keys and sizes, for the app's driver."""
        self.clamped = False
        """Whether a size of the client's was out of bounds (said once in the log)."""
        self.app: SessionThread | SessionProcess | None = None
        """The app on its thread, while it runs."""
        self.user = ""
        self.closed = False
        self.goodbye = ""
        limits = server.config.limits
        self.input = TokenBucket(limits.input_rate, limits.input_burst)
        self.last_input = time.monotonic()
        self.drawn = False
        """Whether the app has drawn its first frame: the idle time counts from then (a
        session may first wait for the server's warm-up, with nothing to answer)."""
        self.idle_check: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        """The app or the command, while it runs (kept: the loop holds tasks weakly)."""
        self.answering = False
        """Whether the session answers a command (`games`, `export`, `ratings`)."""
        self.holder: Holder | None = None
        """Who this session is to the rooms (its seats), once it is counted."""
        self.lines: ChannelLines | None = None
        """Line mode's channel (`ssh host lines`), while it runs."""
        self.frames = HeldFrames()
        """The app's frames left out while the client does not read them."""

    # -- what the client asks for --------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        if term_size[0] > 0 and term_size[1] > 0:
            self.to_app.size = self.fit(term_size[0], term_size[1])
        return True

    def fit(self, width: int, height: int) -> tuple[int, int]:
        """The size to draw for, given the client's: within the server's bounds."""
        size = clamp_size(width, height)
        if size != (width, height) and not self.clamped:
            self.clamped = True
            log.info(
                "%s: a terminal of %dx%d is drawn as %dx%d (the server draws %d to %d "
                "columns, %d to %d rows)",
                self.who(),
                width,
                height,
                *size,
                MIN_COLUMNS,
                MAX_COLUMNS,
                MIN_ROWS,
                MAX_ROWS,
            )
        return size

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def who(self) -> str:
        """The client's user name for the log, before it is known to be a valid name."""
        name = self.user or self.conn.get_extra_info("username") or "(no name)"
        return printable(name, NAME_LIMIT)

    def address(self) -> str:
        """How clients reach this server, for the messages: `-p 2222 127.0.0.1`."""
        host, port = self.conn.get_extra_info("sockname")[:2]
        host = f"[{host}]" if ":" in host else host
        return host if port == 22 else f"-p {port} {host}"

    def session_started(self) -> None:
        from ...tui.rooms.app import Command

        chan = self.chan
        assert chan is not None
        self.user = self.conn.get_extra_info("username") or ""
        words = (self.command or "").split()
        command = None
        lines = words == ["lines"]
        if len(words) == 2 and words[0] in ("join", "watch"):
            command = Command(words[0], words[1].lower())
        elif words and words[0] not in COMMANDS and not lines:
            status = 0 if words == ["help"] else 2
            return self.refuse(self.usage(), status)
        if not valid_name(self.user):
            return self.refuse(
                f"abstracts-tui: '{printable(self.user, NAME_LIMIT)}' cannot be a player's "
                "name: use 1 to 24 letters, digits, '.', '_' or '-' (ssh NAME@host).\n"
            )
        if chan.get_terminal_type() is None and (not words or command is not None):
            return self.refuse(self.usage())
        limits = self.server.config.limits
        if self.server.sessions[self.user] >= limits.sessions_per_user:
            return self.refuse(
                f"abstracts-tui: {self.user} has {limits.sessions_per_user} sessions open "
                "already; close one first.\r\n"
            )
        if self.server.full():
            return self.refuse("abstracts-tui: the server is full; try again later.\r\n")
        from ...rooms.holder import new_holder

        self.holder = new_holder(self.user)
        self.server.sessions[self.user] += 1
        self.answering = bool(words) and words[0] in COMMANDS
        if lines:
            from ...lines.channel import ChannelLines

            # Made now: input may come before the task runs, and must reach the game.
            terminal = chan.get_terminal_type() is not None
            loop = asyncio.get_running_loop()
            columns = chan.get_terminal_size()[0] if terminal else 0
            self.lines = ChannelLines(self.send, loop, terminal=terminal, columns=columns)
            work = self.run_lines(self.lines)
        elif self.answering:
            work = self.run_command(words)
        else:
            work = self.run_app(command)
        counted = self.run_counted(work, limits.sessions_per_user)
        self.task = asyncio.get_running_loop().create_task(counted)

    async def run_counted(self, work: Coroutine[Any, Any, None], limit: int) -> None:
        """Run `work` once the session is counted on every process of a shared store (the
        limit per name holds across them), asked off the loop."""
        assert self.holder is not None
        refusal = await suspended(self.server.store, self.user)
        if refusal is None:
            refusal = await self.server.rooms.live.open_session(self.holder, limit)
        if refusal is not None:
            work.close()
            self.server.sessions[self.user] -= 1
            self.holder = None
            self.refuse(refusal)
            return
        await work

    def release(self) -> None:
        """The session no longer counts (it ended, or never started)."""
        self.server.sessions[self.user] -= 1
        if self.holder is not None:
            holder, rooms = self.holder, self.server.rooms
            self.holder = None
            rooms.spawn(rooms.live.close_session(holder))

    def usage(self) -> str:
        address = self.address()
        return USAGE.format(address=address) + COMMANDS_USAGE.format(address=address)

    def refuse(self, message: str, status: int = 1) -> None:
        self.send(message)
        self.finish(status)

    async def run_command(self, words: list[str]) -> None:
        """Answer `games`, `export` or `ratings` from the store (on a worker thread)."""
        from .commands import Answer, answer

        try:
            live = self.server.rooms.live  # `export` waits for a game's last saves
            result = await asyncio.to_thread(
                answer,
                self.server.store,
                words,
                live.settle,
                viewer=self.user,
                admins=self.server.config.admins,
            )
        except StoreError as error:
            log.warning("%s: %s not answered: %s", self.user, words[0], error)
            result = Answer(
                error=f"abstracts-tui: the server cannot read its games now ({error}); "
                "try again later.\n",
                status=1,
            )
        finally:
            self.release()
        out, err = result.output, result.error
        assert self.chan is not None
        if self.chan.get_terminal_type() is not None:  # a terminal: lines end in CR LF
            out, err = out.replace("\n", "\r\n"), err.replace("\n", "\r\n")
        self.send(out)
        if err and not self.closed:
            with contextlib.suppress(ConnectionError):
                self.chan.write_stderr(err)
        self.finish(result.status)

    def send(self, data: str) -> None:
        """Write to the client, unless it has gone: then the session just ends."""
        if self.closed or self.chan is None:
            return
        try:
            self.chan.write(data)
        except ConnectionError:
            # asyncssh refuses writes once the client has closed the channel, which can
            # happen between any two frames: that is a normal end, not the app's failure.
            self.client_gone("the client closed the channel")

    def finish(self, status: int) -> None:
        """Send the exit status and close the channel, if the client is still there."""
        if self.closed or self.chan is None:
            return
        self.closed = True
        with contextlib.suppress(ConnectionError):  # gone meanwhile: nothing left to tell
            self.chan.exit(status)

    def client_gone(self, why: str) -> None:
        if not self.closed:
            log.info("%s: %s", self.who(), why)
        self.closed = True
        if self.lines is not None:
            self.lines.end_input()  # the game is saved after every move: nothing is lost
        if self.app is not None:
            self.app.end()  # the room's game is saved after every move: nothing is lost

    async def run_app(self, command: object) -> None:
        from ...tui.rooms.app import OVER_SSH, Command, Terminal
        from ...tui.rooms.signals import notice_kind
        from ..session_process import SessionProcess
        from ..session_thread import SessionThread

        assert self.chan is not None
        if self.closed:  # the client left before the app could start
            self.release()
            return
        env = self.chan.get_environment()
        term = self.chan.get_terminal_type() or "xterm"
        width, height = self.to_app.size
        terminal = Terminal(
            width,
            height,
            term,
            env.get("COLORTERM", ""),
            "NO_COLOR" in env,
            notice_kind(term, env),
        )
        assert self.holder is not None
        isolate = self.server.config.isolate
        app = self.app = SessionProcess(self.user) if isolate else SessionThread(self.user)
        self.to_app.start()
        self.server.terminals.add(self)
        self.schedule_idle_check()
        shown = printable(terminal.type, NAME_LIMIT)
        log.info("%s: session started (%dx%d %s)", self.user, width, height, shown)
        status = 0
        try:
            status = await app.run_in_rooms(
                self.server,
                self.holder,
                self.write_screen,
                self.attach_driver,
                terminal=terminal,
                address=self.address(),
                reached=OVER_SSH,
                command=command if isinstance(command, Command) else None,
            )
        except Exception:
            log.exception("%s: the app failed", self.user)
            status = 1
        finally:
            self.server.terminals.discard(self)
            self.app = None
            self.to_app.detach()
            self.release()
            if self.idle_check is not None:
                self.idle_check.cancel()
            if status:
                log.warning("%s: session ended: the app failed (status %d)", self.user, status)
            else:
                log.info("%s: session ended", self.user)
            if self.goodbye:
                self.send(self.goodbye)
            self.finish(status)

    async def run_lines(self, lines: ChannelLines) -> None:
        """Line mode (`ssh host lines`): the lobby, rooms and games on a thread of its own
        (`lines/lobby.py`, reading the channel through `lines/channel.py`)."""
        from ...engine.levels import DEFAULT_LEVEL
        from ...lines.lobby import start_thread
        from ..room_desk import thread_client

        if self.closed:
            self.release()
            return
        assert self.holder is not None
        client, desk = thread_client(
            self.server.rooms, self.server.store, self.holder, asyncio.get_running_loop()
        )
        self.server.terminals.add(self)
        self.schedule_idle_check()
        kind = "terminal" if lines.terminal else "no terminal"
        log.info("%s: line mode started (%s)", self.user, kind)
        try:
            await start_thread(
                lines,
                client,
                address=self.address(),
                data=self.server.user_folder(self.user),
                level=DEFAULT_LEVEL,
            )
        except Exception:
            log.exception("%s: line mode failed", self.user)
        finally:
            desk.close()
            self.server.terminals.discard(self)
            self.release()
            if self.idle_check is not None:
                self.idle_check.cancel()
            log.info("%s: line mode ended", self.user)
            if self.goodbye:
                self.send(self.goodbye)
            self.finish(0)

    # -- the channel, both ways ------------------------------------------------------------

    def attach_driver(self, driver: Keys, loop: asyncio.AbstractEventLoop) -> None:
        """The app on its thread has a driver, of its loop `loop`: input and sizes go there."""
        if self.app is not None:
            self.to_app.attach(driver, loop)

    def write_screen(self, data: str) -> None:
        if not self.drawn:
            self.drawn = True
            self.last_input = time.monotonic()
        if self.frames.hold(data, self.send):
            return  # the client does not read now: drawn again whole once it does
        self.send(data)
        if self.closed or self.chan is None:
            return
        buffered = self.chan.get_write_buffer_size()
        if self.frames.stalled() or buffered > self.server.config.limits.output_buffer:
            log.info("%s: the client does not read its screen; closing", self.user)
            self.closed = True
            self.chan.close()
            if self.app is not None:
                self.app.end()

    def pause_writing(self) -> None:
        self.frames.pause()

    def resume_writing(self) -> None:
        if self.frames.resume():
            self.to_app.resize(self.to_app.size)  # the same size: the whole screen again

    def data_received(self, data: str, datatype: asyncssh.DataType) -> None:
        self.last_input = time.monotonic()
        if not self.input.take(len(data)):
            return  # over the input rate: dropped (a paste cut short, or a flood)
        if self.lines is not None:
            self.lines.feed(data)
        elif self.app is not None:
            self.to_app.feed(data)  # kept until the app has a driver: within the rate

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width <= 0 or height <= 0:
            return
        if self.lines is not None:
            self.lines.columns = width  # line mode wraps chat to it
        self.to_app.resize(self.fit(width, height))

    def eof_received(self) -> bool:
        # No more keys will come: the app ends, and its last frame (the terminal put back)
        # and the exit status still go out, since the channel stays open for sending.
        if self.answering:  # a command reads no input: its answer still goes out
            return True
        log.info("%s: the client closed its input", self.who())
        if self.lines is not None:
            self.lines.end_input()
        elif self.app is not None:
            self.app.end()
        else:
            self.finish(0)
        return True

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.client_gone("the connection closed")

    # -- idle time -------------------------------------------------------------------------

    def schedule_idle_check(self) -> None:
        idle = self.server.config.limits.idle_seconds
        delay = max(0.5, self.last_input + idle - time.monotonic())
        self.idle_check = asyncio.get_running_loop().call_later(delay, self.check_idle)

    def check_idle(self) -> None:
        idle = self.server.config.limits.idle_seconds
        if not self.drawn or time.monotonic() - self.last_input < idle:
            self.schedule_idle_check()
            return
        self.idle_check = None
        self.end(
            f"abstracts-tui: closed after {idle / 60:g} minutes without input; "
            "your games are kept (reconnect to take your seat back).\r\n"
        )

    def end(self, goodbye: str) -> None:
        """End the app, then tell the player `goodbye` (one line, once the terminal is
        back to its own screen) before the connection closes."""
        self.goodbye = goodbye
        if self.lines is not None:
            self.lines.end_input()
        if self.app is not None:
            self.app.end()
