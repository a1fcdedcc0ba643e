"""The SSH server: authentication, one app per terminal session, and the limits.

The server's loop keeps asyncssh's connections, the password checks, the rooms and the
store; every terminal session (`terminal_session`) runs its app on a thread of its own
with its own loop (`server.session_thread`), drawn through `ChannelDriver` on its channel,
and reaching the rooms through its `rooms.client.RoomClient`. The server offers terminal
sessions and a few commands only: no shell, no commands but `join CODE` and `watch CODE`
(with a terminal) and `games`, `export` and `ratings` (with or without one), no
subsystems (so no sftp or scp), and no forwarding of ports, agents or X11 (asyncssh
refuses those unless asked for them). Rooms, the archive, names and ratings are in the
store: `server.db` in the data folder, or with `--database` a PostgreSQL database that
any number of processes share (`shared`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import asyncssh

from ...extras import missing_extra
from ...printable import NAME_LIMIT, printable
from ...rates import network_of
from ...store import STORE_FILE, SqliteStore, Store, StoreError
from ..auth import (
    ITERATIONS,
    KeyBook,
    auth_required,
    host_key,
    import_names,
    read_authorized_keys,
    read_password_file,
    weak_hashes,
)
from ..bites import ACCEPT_BITE, bite_connection, queue_accepts
from ..capacity import sessions_bound
from ..collector import keep_pauses_short
from ..files import own_folder, tidy_user_files
from ..guesses import Guesses, TooManyGuesses
from ..limits import (
    ConfigError,
    DatabaseError,
    ServerConfig,
)
from ..serving import until_stopped
from .keys import check_signatures, key_refusal, rsa_refused, signature_refusal
from .terminal_session import TerminalSession

if TYPE_CHECKING:
    from ...rooms.rooms import Rooms
    from ..notifier import Notifier

log = logging.getLogger("abstracts_tui.ssh")

STOP_SECONDS = 5.0
"""The longest a stopping server waits for its apps to end and say goodbye."""
STOPPING = (
    "abstracts-tui: the server is stopping; your games are kept "
    "(reconnect when it is back to take your seat again).\r\n"
)


class Server:
    """The listening server: its settings, rooms, credentials and open sessions."""

    def __init__(self, config: ServerConfig) -> None:
        from ..room_files import import_rooms

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
            self.names = KeyBook(self.store, config.limits.names_per_key)
            look_alikes = self.names.look_alikes_note()
            if look_alikes is not None:
                log.warning("%s", look_alikes)
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
        self.max_sessions, self.sessions_why = sessions_bound(
            config.limits.sessions, config.isolate
        )
        """Sessions open at once on the server: `--max-sessions`, or by the memory the
        machine has available now (`full`)."""
        self.connections: dict[str, list[Connection]] = {}
        """Connections open per address (`address_key`), oldest first."""
        self.terminals: set[TerminalSession] = set()
        """The sessions whose app is running."""
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.notifier: Notifier | None = None
        """Sends the players' notices while they are away (`notify`)."""

    def full(self) -> bool:
        """Whether the server has all the sessions it takes (SSH terminals and browsers'
        pages together): the next is refused."""
        return sum(self.sessions.values()) >= self.max_sessions

    def open_rooms(self) -> Rooms:
        """The rooms over the live store: in this process (SQLite), or shared with every
        process of the database."""
        from ...rooms.live import LiveRooms
        from ...rooms.presence import Presences
        from ...rooms.rooms import Rooms

        live: LiveRooms
        presences = Presences()
        if self.config.database is None:
            from ...store.live_sqlite import LiveSqlite

            live = LiveSqlite(self.store, rated=self.config.rated)
        else:
            from ...store.live_postgres import LivePostgres
            from ...store.postgres import PostgresStore

            assert isinstance(self.store, PostgresStore)
            live = LivePostgres(self.store, rated=self.config.rated, presences=presences)
        from ...store.conditional import StoredReplies

        rooms = Rooms(live, presences, ratings=self.store.ratings)
        rooms.conditions.replies = StoredReplies(self.store)
        return rooms

    async def start(self) -> None:
        config = self.config
        try:
            await self.rooms.start()
        except StoreError as error:
            raise DatabaseError(f"{self.store.location} cannot be used: {error}") from None
        from ..notifier import Notifier

        self.notifier = Notifier(self.rooms, self.store, config.smtp, private=config.notify_private)
        self.notifier.start()
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
            backlog=ACCEPT_BITE,  # a storm of connections is taken a few a turn
        )
        queue_accepts(self.acceptor.sockets)

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
        if self.notifier is not None:
            await self.notifier.close()
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
            from ...store.postgres import PostgresStore
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
            from ...store.sqlite_file import check

            return check(data / STORE_FILE)
        try:
            from ...store.postgres import check_database
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
    from ...store.postgres import PostgresStore

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
        self.sessions: set[TerminalSession] = set()
        """Its sessions open (started: a terminal or a command asked for)."""
        self.had_session = False
        """Whether a session has started on it (the clock then runs from the last's end)."""
        self.signatures_checked = False
        """Whether its clients' signatures are checked (`keys.check_signatures`)."""
        self.told: set[str] = set()
        """What the client was told while logging in (each refusal once)."""
        self.gone = False
        """Whether the connection has closed."""

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
        bite_connection(conn)  # a flood is read a bite a turn, between the others' work
        self.signatures_checked = check_signatures(conn, self.weak_signature)

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

    def check_used(self) -> None:
        """Close the connection if it still has no session open (`no_session_seconds`)."""
        if self.sessions:
            return
        seconds = self.server.config.limits.no_session_seconds
        since = "since its last session ended" if self.had_session else "since logging in"
        assert self.conn is not None
        name = printable(self.conn.get_extra_info("username") or "", NAME_LIMIT)
        self.close(
            f"closed: no session opened within {seconds:g} seconds {since}",
            f"closed a connection from {self.address} ({name}): no session open for "
            f"{seconds:g} seconds {since}",
            code=asyncssh.DISC_BY_APPLICATION,
        )

    def wait_for_session(self) -> None:
        """Start the clock of `no_session_seconds` (after the login, or the last session)."""
        for timer in self.timers:
            timer.cancel()
        seconds = self.server.config.limits.no_session_seconds
        self.timers = [asyncio.get_running_loop().call_later(seconds, self.check_used)]

    def session_began(self, session: TerminalSession) -> None:
        self.sessions.add(session)
        self.had_session = True
        for timer in self.timers:
            timer.cancel()

    def session_ended(self, session: TerminalSession) -> None:
        if session in self.sessions:
            self.sessions.discard(session)
            if not self.sessions and not self.gone:
                self.wait_for_session()

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone = True
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
                f"{self.address}: a password for '{printable(username, NAME_LIMIT)}' not "
                f"checked: too many wrong passwords from there ({refusal})",
            )
            return False
        if not right:
            self.failures += 1
            tries = self.server.config.limits.password_tries
            if self.failures >= tries:
                self.close(
                    f"{tries} wrong passwords: closed",
                    f"closed a connection from {self.address}: {tries} wrong passwords "
                    f"(the last for '{printable(username, NAME_LIMIT)}')",
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
        refusal = key_refusal(key)
        if refusal is None and key.get_algorithm() == "ssh-rsa" and not self.signatures_checked:
            refusal = rsa_refused()
        if refusal is not None:
            self.refuse(username, refusal)
            return False
        fingerprint = key.get_fingerprint()
        try:
            refusal = await asyncio.to_thread(self.server.names.refusal, username, fingerprint)
        except StoreError as error:  # whose the name is cannot be known: not now
            log.warning(
                "%s refused: the store cannot be read (%s)", printable(username, NAME_LIMIT), error
            )
            return False
        if refusal is not None:
            self.refuse(username, refusal)
            return False
        self.key_fingerprint = fingerprint  # the key the client goes on to sign with
        return True

    def refuse(self, username: str, refusal: str) -> None:
        """Tell the client, and the log, why it may not log in so (once a connection:
        asyncssh asks about a key twice, before and after the client signs with it).
        The client may go on with another key."""
        if refusal in self.told or self.conn is None:
            return
        self.told.add(refusal)
        log.info("%s refused: %s", printable(username, NAME_LIMIT), refusal)
        with contextlib.suppress(asyncssh.Error, OSError):  # gone meanwhile
            self.conn.send_auth_banner(f"abstracts-tui: {refusal}.\r\n")

    def weak_signature(self, username: str, algorithm: str) -> None:
        self.refuse(username, signature_refusal(printable(algorithm, NAME_LIMIT)))

    def auth_completed(self) -> None:
        assert self.conn is not None
        self.logged_in = True
        self.wait_for_session()
        if self.key_fingerprint is not None:
            name = self.conn.get_extra_info("username")
            self.keeping = asyncio.get_running_loop().create_task(
                self.keep_name(name, self.key_fingerprint)
            )

    async def keep_name(self, name: str, fingerprint: str) -> None:
        """Keep the key for the name, if it is new; a login with another key that got the
        name (or one like it) first, on another connection between the check and now,
        wins, and so does the key's bound on names."""
        assert self.conn is not None
        try:
            refusal = await asyncio.to_thread(self.server.names.keep, name, fingerprint)
        except StoreError as error:  # kept at a later login instead
            log.warning(
                "%s: the name's key cannot be kept now (%s)", printable(name, NAME_LIMIT), error
            )
            return
        if refusal is not None:
            log.info("%s refused just after logging in: %s", printable(name, NAME_LIMIT), refusal)
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, refusal)

    def session_requested(self) -> TerminalSession:
        assert self.conn is not None
        return CountedSession(self.server, self.conn, self)


class CountedSession(TerminalSession):
    """A session that tells its connection when it starts and ends (a connection with
    none open is closed after `no_session_seconds`)."""

    def __init__(
        self, server: Server, conn: asyncssh.SSHServerConnection, connection: Connection
    ) -> None:
        super().__init__(server, conn)
        self.connection = connection

    def session_started(self) -> None:
        self.connection.session_began(self)
        super().session_started()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.connection.session_ended(self)


def address_key(host: str) -> str:
    """What the per-address limit counts (`network_of`; a name that is no address, itself)."""
    return network_of(host) or host


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
    from ..descriptors import prepare_descriptors
    from ..session_thread import SWITCH_SECONDS

    prepare_descriptors()  # the open files' limit raised; running out logged, not traced
    sys.setswitchinterval(SWITCH_SECONDS)
    server = Server(config)
    web = None
    try:
        if config.isolate:
            from ..session_process import prepare

            await prepare()
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

    def busy() -> bool:  # anybody has a session (an SSH terminal, a browser's page)
        return any(server.sessions.values())

    collecting = asyncio.get_running_loop().create_task(keep_pauses_short(busy=busy))
    log.info(
        "sessions: at most %d at once (%s), each app %s",
        server.max_sessions,
        server.sessions_why,
        "in a process of its own" if config.isolate else "on a thread (--threads)",
    )
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
