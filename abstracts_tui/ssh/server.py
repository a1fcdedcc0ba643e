"""The SSH server: authentication, one app per terminal session, and the limits.

The server's loop keeps asyncssh's connections, the password checks, the rooms and the
store; every terminal session's app runs on a thread of its own with its own loop
(`session_thread`), drawn through `ChannelDriver` on its channel, and reaches the rooms
through its `room_client.RoomClient`. The server offers terminal sessions and a few
commands only: no shell, no commands but `join CODE` and `watch CODE` (with a terminal) and
`games`, `export` and `ratings` (with or without one), no subsystems (so no sftp or scp),
and no forwarding of ports, agents or X11 (asyncssh refuses those unless asked for them).
Rooms, the archive, names and ratings are in the store: `server.db` in the data folder,
or with `--database` a PostgreSQL database that any number of processes share (`shared`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import asyncssh

from ..extras import missing_extra
from ..rates import TokenBucket, network_of
from ..serving import until_stopped
from ..store import STORE_FILE, SqliteStore, Store, StoreError
from .auth import (
    ITERATIONS,
    KeyBook,
    auth_required,
    host_key,
    import_names,
    read_authorized_keys,
    read_password_file,
    valid_name,
    weak_hashes,
)
from .collector import keep_pauses_short
from .commands import COMMANDS
from .commands import USAGE as COMMANDS_USAGE
from .files import own_folder, tidy_user_files
from .guesses import Guesses, TooManyGuesses
from .limits import (
    MAX_COLUMNS,
    MAX_ROWS,
    MIN_COLUMNS,
    MIN_ROWS,
    ConfigError,
    DatabaseError,
    ServerConfig,
    clamp_size,
)
from .session_thread import AppInput

if TYPE_CHECKING:
    from ..rooms.holder import Holder
    from ..rooms.rooms import Rooms
    from .driver import ChannelDriver
    from .lines import ChannelLines
    from .session_thread import SessionThread

log = logging.getLogger("abstracts_tui.ssh")

READ_BUFFER = 16 * 1024
"""Bytes the kernel keeps for a connection before the server reads them (it doubles it):
all that has arrived is decrypted in one go, so a client sending a flood of small packets
(a thousand window changes) holds the loop for what one read holds, not for the flood."""
STOP_SECONDS = 5.0
"""The longest a stopping server waits for its apps to end and say goodbye."""
STOPPING = (
    "abstracts-tui: the server is stopping; your games are kept "
    "(reconnect when it is back to take your seat again).\r\n"
)

USAGE = """\
abstracts-tui: this server plays games in a terminal; ask ssh for one with -t:

  ssh -t {address}               the lobby: create a room, join one, watch, or play hot-seat
  ssh -t {address} join CODE     join room CODE, or take your seat in it back
  ssh -t {address} watch CODE    watch room CODE
  ssh -t {address} lines         line mode, for screen readers: the rooms, hot-seat, the computer

and, with or without a terminal:

"""


class Server:
    """The listening server: its settings, rooms, credentials and open sessions."""

    def __init__(self, config: ServerConfig) -> None:
        from .room_files import import_rooms

        self.config = config
        own_folder(config.data, link=True)
        tightened, removed = tidy_user_files(config.data)
        if tightened:
            log.info("made %d of the players' files and folders owner-only", tightened)
        if removed:
            log.info("removed %d temporary files left by writes that were cut short", removed)
        self.require_auth = auth_required(
            config.host,
            open=config.open,
            keys=config.authorized_keys is not None,
            passwords=config.password_file is not None,
        )
        self.passwords = read_password_file(config.password_file) if config.password_file else {}
        self.guesses = Guesses(self.passwords)
        """Password checks, off the loop the apps run in, within each address's budget."""
        self.authorized: asyncssh.SSHAuthorizedKeys | None = None
        if config.authorized_keys is not None:
            self.authorized = read_authorized_keys(config.authorized_keys)
        self.store = open_store(config.data, config.database)
        try:
            # Earlier versions kept names and rooms in files: put them in the store, once.
            import_names(config.data / "names.json", self.store)
            import_rooms(config.data / "rooms", self.store)
            self.names = KeyBook(self.store)
            self.host_key = server_key(config.data, self.store if config.database else None)
            self.rooms: Rooms = self.open_rooms()
        except StoreError as error:
            self.store.close()
            raise ConfigError(f"{self.store.location} cannot be read: {error}") from None
        except BaseException:
            self.store.close()
            raise
        self.sessions: Counter[str] = Counter()
        """Terminal sessions open per user name."""
        self.connections: dict[str, list[Connection]] = {}
        """Connections open per address (`address_key`), oldest first."""
        self.terminals: set[TerminalSession] = set()
        """The sessions whose app is running."""
        self.acceptor: asyncssh.SSHAcceptor | None = None

    def open_rooms(self) -> Rooms:
        """The rooms over the live store: in this process (SQLite), or shared with every
        process of the database."""
        from ..rooms.live import LiveRooms
        from ..rooms.rooms import Rooms

        live: LiveRooms
        if self.config.database is None:
            from ..store.live_sqlite import LiveSqlite

            live = LiveSqlite(self.store, rated=self.config.rated)
        else:
            from ..store.live_postgres import LivePostgres
            from ..store.postgres import PostgresStore

            assert isinstance(self.store, PostgresStore)
            live = LivePostgres(self.store, rated=self.config.rated)
        return Rooms(live)

    async def start(self) -> None:
        config = self.config
        try:
            await self.rooms.start()
        except StoreError as error:
            raise DatabaseError(f"{self.store.location} cannot be used: {error}") from None
        self.acceptor = await asyncssh.create_server(
            lambda: Connection(self),
            config.host,
            config.port,
            server_host_keys=[self.host_key],
            encoding="utf-8",
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            # Each connection closes itself, with a word, after `login_seconds`: this is
            # the library's own limit behind it.
            login_timeout=config.limits.login_seconds + 1,
            keepalive_interval=60,
            keepalive_count_max=3,
        )

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.get_port()

    async def close(self) -> None:
        """Stop listening and end every session (the games are on disk already)."""
        if self.acceptor is not None:
            self.acceptor.close()
        running = [terminal.task for terminal in self.terminals if terminal.task is not None]
        for terminal in list(self.terminals):
            terminal.end(STOPPING)
        if running:  # each app's last frame, then the line that says why, then the close
            await asyncio.wait(running, timeout=STOP_SECONDS)
        if self.acceptor is not None:
            # From Python 3.12 this waits for the connections too: the clients close theirs
            # once told the exit status, and one that does not is not waited for.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.acceptor.wait_closed(), STOP_SECONDS)
        self.guesses.close()
        await self.rooms.close()
        self.store.close()

    def admit(self, connection: Connection) -> bool:
        """Count a new connection from its address, unless as many from there are logged
        in or logging in as may be. Those that have not asked to log in yet (half-open,
        silent, or still exchanging keys) do not count: the one that has said least, then
        the oldest, is closed to make room, so that they cannot lock the address out."""
        limit = self.config.limits.connections_per_address
        here = self.connections.setdefault(connection.address, [])
        waiting = [other for other in here if not other.counts()]
        if len(here) - len(waiting) >= limit:
            return False
        if len(here) >= limit:
            oldest = min(waiting, key=lambda other: (other.has_spoken(), other.opened))
            here.remove(oldest)
            oldest.counted = False
            oldest.close(
                "closed to make room for a newer connection from your address "
                "(this one had not asked to log in)",
                f"closed a connection from {oldest.address} that had not asked to log in, "
                "to make room for a newer one",
                code=asyncssh.DISC_TOO_MANY_CONNECTIONS,
            )
        here.append(connection)
        return True

    def release(self, connection: Connection) -> None:
        here = self.connections.get(connection.address, [])
        if connection in here:
            here.remove(connection)
        if not here:
            self.connections.pop(connection.address, None)

    def user_folder(self, user: str) -> Path:
        """A user's own files on the server (their hot-seat game's autosave)."""
        return self.config.data / "users" / user


def open_store(data: Path, database: str | None = None) -> Store:
    """The store: the SQLite file in the data folder, or the PostgreSQL database at
    `database`; raises ConfigError saying why it cannot be used."""
    try:
        if database is None:
            return SqliteStore(data / STORE_FILE)
        try:
            from ..store.postgres import PostgresStore
        except ImportError as error:
            raise ConfigError(missing_extra("postgres", "--database", error)) from None
        return PostgresStore(database)
    except StoreError as error:
        if database is not None:
            raise DatabaseError(str(error)) from None
        raise ConfigError(str(error)) from None


def check_store(data: Path, database: str | None = None) -> str:
    """What `serve --check` says: a sentence when the store (the SQLite file in the data
    folder, or the PostgreSQL database at `database`) can be used, checked through and
    at a schema version this program knows; raises ConfigError saying what is wrong.
    Changes nothing."""
    try:
        if database is None:
            from ..store.sqlite_file import check

            return check(data / STORE_FILE)
        try:
            from ..store.postgres import check_database
        except ImportError as error:
            raise ConfigError(missing_extra("postgres", "--database", error)) from None
        return check_database(database)
    except StoreError as error:
        raise ConfigError(str(error)) from None


def server_key(data: Path, shared: Store | None) -> asyncssh.SSHKey:
    """The host key: the data folder's, or with a `shared` database the database's, so
    that every process shows clients the same key (the first process keeps its folder's
    key there if it has one, else a new one)."""
    if shared is None:
        return host_key(data)
    from ..store.postgres import PostgresStore

    assert isinstance(shared, PostgresStore)
    store = shared

    def make() -> str:
        key = host_key(data) if (data / "host_key").exists() else None
        key = key or asyncssh.generate_private_key("ssh-ed25519")
        return key.export_private_key().decode()

    try:
        return asyncssh.import_private_key(store.host_key(make))
    except asyncssh.KeyImportError as error:
        raise ConfigError(f"the host key in {store.location} cannot be read: {error}") from None


class Connection(asyncssh.SSHServer):
    """One client connection: how it authenticates, and its sessions."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.key_fingerprint: str | None = None
        self.address = ""
        """Where the connection comes from (`address_key`)."""
        self.opened = time.monotonic()
        self.counted = False
        """Whether it is among the server's connections (it was not refused)."""
        self.asked = False
        """Whether the client has asked to log in (sent a name)."""
        self.logged_in = False
        self.failures = 0
        """Wrong passwords sent on this connection."""
        self.timers: list[asyncio.TimerHandle] = []
        self.keeping: asyncio.Task[None] | None = None
        """Keeping the name's key, after a login with a new name (the loop holds tasks
        weakly)."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = address_key(peer[0] if peer else "")
        limits = self.server.config.limits
        if not self.server.admit(self):
            limit = limits.connections_per_address
            log.info(
                "refused a connection from %s: %d from there are logged in or logging in",
                self.address,
                limit,
            )
            self.close(
                f"{limit} connections from your address are logged in or logging in already",
                code=asyncssh.DISC_TOO_MANY_CONNECTIONS,
            )
            return
        self.counted = True
        loop = asyncio.get_running_loop()
        self.timers = [
            loop.call_later(self.silent_seconds(), self.check_asked),
            loop.call_later(limits.login_seconds, self.check_logged_in),
        ]
        with contextlib.suppress(OSError, AttributeError):
            conn.get_extra_info("socket").setsockopt(
                socket.SOL_SOCKET, socket.SO_RCVBUF, READ_BUFFER
            )

    def counts(self) -> bool:
        """Whether it counts against its address's connections: logged in or logging in."""
        return self.logged_in or self.asked

    def has_spoken(self) -> bool:
        """Whether the client has sent anything (its version, the first thing it sends)."""
        return self.conn is not None and self.conn.get_extra_info("client_version") is not None

    def silent_seconds(self) -> float:
        """How long it may go without asking to log in (the login timeout, if shorter)."""
        limits = self.server.config.limits
        return min(limits.silent_seconds, limits.login_seconds)

    def check_asked(self) -> None:
        if not self.asked and not self.logged_in:
            seconds = self.silent_seconds()
            self.close(
                f"closed: no login asked for within {seconds:g} seconds",
                f"closed a connection from {self.address}: no login asked for within "
                f"{seconds:g} seconds",
                code=asyncssh.DISC_BY_APPLICATION,
            )

    def check_logged_in(self) -> None:
        if not self.logged_in:
            seconds = self.server.config.limits.login_seconds
            self.close(
                f"closed: not logged in within {seconds:g} seconds",
                f"closed a connection from {self.address}: not logged in within "
                f"{seconds:g} seconds",
                code=asyncssh.DISC_BY_APPLICATION,
            )

    def close(
        self,
        reason: str,
        logged: str | None = None,
        *,
        code: int = asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
    ) -> None:
        """Disconnect, telling the client `reason` (and the log `logged`): after what the
        server is sending now (its version, or the answer to a login), which goes first."""
        if logged is not None:
            log.info("%s", logged)
        conn = self.conn
        if conn is not None:
            asyncio.get_running_loop().call_soon(conn.disconnect, code, reason)

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in self.timers:
            timer.cancel()
        if self.counted:
            self.server.release(self)
            self.counted = False

    def begin_auth(self, username: str) -> bool:
        self.asked = True
        return self.server.require_auth

    def password_auth_supported(self) -> bool:
        return bool(self.server.passwords)

    async def validate_password(self, username: str, password: str) -> bool:
        try:
            right = await self.server.guesses.check(self.address, username, password)
        except TooManyGuesses as refusal:
            self.close(
                f"too many wrong passwords from your address: {refusal}",
                f"{self.address}: a password for {username!r} not checked: too many wrong "
                f"passwords from there ({refusal})",
            )
            return False
        if not right:
            self.failures += 1
            tries = self.server.config.limits.password_tries
            if self.failures >= tries:
                self.close(
                    f"{tries} wrong passwords: closed",
                    f"closed a connection from {self.address}: {tries} wrong passwords "
                    f"(the last for {username!r})",
                )
        return right

    def public_key_auth_supported(self) -> bool:
        return self.server.authorized is not None

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        authorized = self.server.authorized
        assert authorized is not None and self.conn is not None
        host = self.conn.get_extra_info("peername")[0]
        if authorized.validate(key, host, host) is None:
            return False
        fingerprint = key.get_fingerprint()
        try:
            allowed = await asyncio.to_thread(self.server.names.allows, username, fingerprint)
        except StoreError as error:  # whose the name is cannot be known: not now
            log.warning("%s refused: the store cannot be read (%s)", username, error)
            return False
        if not allowed:
            log.info("%s refused: the name is kept for another key", username)
            return False
        self.key_fingerprint = fingerprint  # the key the client goes on to sign with
        return True

    def auth_completed(self) -> None:
        assert self.conn is not None
        self.logged_in = True
        for timer in self.timers:
            timer.cancel()
        if self.key_fingerprint is not None:
            name = self.conn.get_extra_info("username")
            self.keeping = asyncio.get_running_loop().create_task(
                self.keep_name(name, self.key_fingerprint)
            )

    async def keep_name(self, name: str, fingerprint: str) -> None:
        """Keep the key for the name, if it is new; a login with another key that got the
        name first (on another connection, between the check and now) wins."""
        assert self.conn is not None
        try:
            kept = await asyncio.to_thread(self.server.names.keep, name, fingerprint)
        except StoreError as error:  # kept at a later login instead
            log.warning("%s: the name's key cannot be kept now (%s)", name, error)
            return
        if not kept:
            log.info("%s refused: the name was just kept for another key", name)
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "name taken")

    def session_requested(self) -> TerminalSession:
        assert self.conn is not None
        return TerminalSession(self.server, self.conn)


def address_key(host: str) -> str:
    """What the per-address limit counts (`network_of`; a name that is no address, itself)."""
    return network_of(host) or host


class TerminalSession(asyncssh.SSHServerSession[str]):
    """One session channel: with a terminal it runs an app; without, it says how to connect."""

    def __init__(self, server: Server, conn: asyncssh.SSHServerConnection) -> None:
        self.server = server
        self.conn = conn
        self.chan: asyncssh.SSHServerChannel[str] | None = None
        self.command: str | None = None
        self.to_app = AppInput((80, 24))
        """The client's keys and sizes, for the app's driver."""
        self.clamped = False
        """Whether a size of the client's was out of bounds (said once in the log)."""
        self.app: SessionThread | None = None
        """The app on its thread, while it runs."""
        self.user = ""
        self.closed = False
        self.goodbye = ""
        limits = server.config.limits
        self.input = TokenBucket(limits.input_rate, limits.input_burst)
        self.last_input = time.monotonic()
        self.idle_check: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        """The app or the command, while it runs (kept: the loop holds tasks weakly)."""
        self.answering = False
        """Whether the session answers a command (`games`, `export`, `ratings`)."""
        self.holder: Holder | None = None
        """Who this session is to the rooms (its seats), once it is counted."""
        self.lines: ChannelLines | None = None
        """Line mode's channel (`ssh host lines`), while it runs."""

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
                self.user or self.conn.get_extra_info("username") or "(no name)",
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

    def address(self) -> str:
        """How clients reach this server, for the messages: `-p 2222 127.0.0.1`."""
        host, port = self.conn.get_extra_info("sockname")[:2]
        host = f"[{host}]" if ":" in host else host
        return host if port == 22 else f"-p {port} {host}"

    def session_started(self) -> None:
        from .app import Command

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
                f"abstracts-tui: {self.user!r} cannot be a player's name: use 1 to 24 "
                "letters, digits, '.', '_' or '-' (ssh NAME@host).\n"
            )
        if chan.get_terminal_type() is None and (not words or command is not None):
            return self.refuse(self.usage())
        limits = self.server.config.limits
        if self.server.sessions[self.user] >= limits.sessions_per_user:
            return self.refuse(
                f"abstracts-tui: {self.user} has {limits.sessions_per_user} sessions open "
                "already; close one first.\r\n"
            )
        if sum(self.server.sessions.values()) >= limits.sessions:
            return self.refuse("abstracts-tui: the server is full; try again later.\r\n")
        from ..rooms.holder import new_holder

        self.holder = new_holder(self.user)
        self.server.sessions[self.user] += 1
        self.answering = bool(words) and words[0] in COMMANDS
        if lines:
            from .lines import ChannelLines

            # Made now: input may come before the task runs, and must reach the game.
            terminal = chan.get_terminal_type() is not None
            loop = asyncio.get_running_loop()
            self.lines = ChannelLines(self.send, loop, terminal=terminal)
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
            result = await asyncio.to_thread(answer, self.server.store, words)
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
            log.info("%s: %s", self.user or "(no name)", why)
        self.closed = True
        if self.lines is not None:
            self.lines.end_input()  # the game is saved after every move: nothing is lost
        if self.app is not None:
            self.app.end()  # the room's game is saved after every move: nothing is lost

    async def run_app(self, command: object) -> None:
        from .app import OVER_SSH, Command, Terminal
        from .session_thread import SessionThread
        from .signals import notice_kind

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
        app = self.app = SessionThread(self.user)
        self.to_app.start()
        self.server.terminals.add(self)
        self.schedule_idle_check()
        log.info("%s: session started (%dx%d %s)", self.user, width, height, terminal.type)
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
        (`ssh/line_lobby.py`, reading the channel through `ssh/lines.py`)."""
        from ..engine.levels import DEFAULT_LEVEL
        from .line_lobby import start_thread
        from .room_client import RoomClient

        if self.closed:
            self.release()
            return
        assert self.holder is not None
        client = RoomClient(
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
            client.close()
            self.server.terminals.discard(self)
            self.release()
            if self.idle_check is not None:
                self.idle_check.cancel()
            log.info("%s: line mode ended", self.user)
            if self.goodbye:
                self.send(self.goodbye)
            self.finish(0)

    # -- the channel, both ways ------------------------------------------------------------

    def attach_driver(self, driver: ChannelDriver, loop: asyncio.AbstractEventLoop) -> None:
        """The app on its thread has a driver, of its loop `loop`: input and sizes go there."""
        if self.app is not None:
            self.to_app.attach(driver, loop)

    def write_screen(self, data: str) -> None:
        self.send(data)
        if self.closed or self.chan is None:
            return
        if self.chan.get_write_buffer_size() > self.server.config.limits.output_buffer:
            log.info("%s: the client does not read its screen; closing", self.user)
            self.closed = True
            self.chan.close()
            if self.app is not None:
                self.app.end()

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
        self.to_app.resize(self.fit(width, height))

    def eof_received(self) -> bool:
        # No more keys will come: the app ends, and its last frame (the terminal put back)
        # and the exit status still go out, since the channel stays open for sending.
        if self.answering:  # a command reads no input: its answer still goes out
            return True
        log.info("%s: the client closed its input", self.user or "(no name)")
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
        if time.monotonic() - self.last_input < idle:
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


class Beside(Protocol):
    """What runs beside the SSH server on its rooms (the browsers' listener)."""

    async def stop(self) -> None: ...


Starter = Callable[["Server"], Awaitable[Beside]]
"""Starts what runs beside the server, once it listens (ConfigError if it cannot)."""


async def serve(
    config: ServerConfig, ready: asyncio.Event | None = None, beside: Starter | None = None
) -> None:
    """Run the server, and `beside` it what it starts (the browsers' listener of `--web`,
    which the command line passes), until SIGINT or SIGTERM."""
    from .session_thread import SWITCH_SECONDS

    sys.setswitchinterval(SWITCH_SECONDS)
    server = Server(config)
    web = None
    try:
        await server.start()
        if beside is not None:
            web = await beside(server)
    except BaseException:
        await server.close()
        raise
    auth = "none (loopback or --open)"
    if server.require_auth:
        auth = " and ".join(
            what
            for what, given in (("keys", server.authorized), ("passwords", server.passwords))
            if given
        )
    weak = weak_hashes(server.passwords)
    if weak:
        log.warning(
            "passwords of %s use fewer iterations than new ones (%d): "
            "abstracts-tui passwd NAME --file FILE makes a new one",
            ", ".join(weak),
            ITERATIONS,
        )
    key = server.host_key.get_fingerprint()
    collecting = asyncio.get_running_loop().create_task(keep_pauses_short())
    log.info(
        "listening on %s port %d; authentication: %s; data: %s; store: %s; host key %s",
        config.host,
        server.port,
        auth,
        config.data,
        server.store.location,
        key,
    )
    try:
        await until_stopped(ready)
    finally:
        log.info("stopping")
        collecting.cancel()
        if web is not None:  # its pages' apps end first, while the rooms are there
            await web.stop()
        await server.close()
        await asyncio.sleep(0.2)  # let the apps write their last frame and close
