"""The PostgreSQL store's tables, made and changed by numbered migrations.

As in the SQLite store (`schema`), `schema_version` lists the migrations applied; a
later version adds a migration at the end of `MIGRATIONS` and never changes a released
one. Each migration is applied in a transaction of its own, under an advisory lock, so
that any number of server processes starting at once apply it once between them.

Beyond the SQLite store's tables, a shared database keeps what several processes need to
be one server: each room change as a row (`room_changes`, what LISTEN/NOTIFY points
to), who holds each seat (`seats`), the sessions open per name (`sessions`), who is
connected to each room's game (`presence`), and the host key. All times are the
database's (`now()`), never a process's, so that a clock kept in a room can be worked
out by any process from the rows alone: see `rooms`' `time_control`, `turn_started`,
`clock_main` and `clock_periods` and `room_changes.at`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .schema import Migration, NewerStore

if TYPE_CHECKING:
    import psycopg

LOCKS = 0x61627374
"""The first key of every advisory lock the server takes ('abst'): the second says which."""
MIGRATION_LOCK = 0
"""The second key of the lock held while migrating."""
PROCESS_LOCKS = 0x70726F63
"""The first key of the locks each server process holds while it is connected ('proc'):
the second is the process's number. A process whose lock is not held is gone."""

MIGRATIONS = (
    Migration(
        1,
        "rooms and their changes, seats, sessions, names, ratings, the host key",
        (
            """CREATE TABLE rooms (
                code TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                size INTEGER,
                variant TEXT,
                komi DOUBLE PRECISION,
                creator TEXT NOT NULL,
                joiner TEXT,
                rated BOOLEAN NOT NULL DEFAULT false,
                sgf TEXT,
                phase TEXT NOT NULL DEFAULT 'play' CHECK (phase IN ('komi', 'side', 'play')),
                komi_chosen DOUBLE PRECISION,
                version INTEGER NOT NULL,
                created TIMESTAMPTZ NOT NULL DEFAULT now(),
                updated TIMESTAMPTZ NOT NULL DEFAULT now(),
                finished TIMESTAMPTZ,
                result TEXT,
                winner TEXT,
                time_control TEXT,
                turn_started TIMESTAMPTZ,
                clock_main DOUBLE PRECISION[],
                clock_periods INTEGER[]
            )""",
            # `phase` and `komi_chosen`: where a room is before its record starts (komi,
            # then a side); `sgf` is NULL until then. The clock columns: the time control
            # (NULL: none), when the side to move's clock started (the database's time),
            # and each side's main time and byo-yomi periods left when its clock stopped.
            "CREATE INDEX rooms_by_update ON rooms (updated)",
            "CREATE INDEX rooms_by_creator ON rooms (creator, updated)",
            "CREATE INDEX rooms_by_joiner ON rooms (joiner, updated)",
            "CREATE INDEX rooms_unfinished ON rooms (code) WHERE finished IS NULL",
            # Every change of a room, one row per version after the first: what a process
            # told of `code VERSION` reads to bring its copy of the room up to date, and
            # when each move was made by the database's clock (`at`), with the mover's
            # time left after it once rooms have clocks.
            """CREATE TABLE room_changes (
                code TEXT NOT NULL REFERENCES rooms (code),
                version INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('join', 'komi', 'side', 'move')),
                value TEXT NOT NULL,
                by TEXT,
                at TIMESTAMPTZ NOT NULL DEFAULT now(),
                clock_main DOUBLE PRECISION,
                clock_periods INTEGER,
                PRIMARY KEY (code, version)
            )""",
            # The connection that plays each seat: the last one to take it.
            """CREATE TABLE seats (
                code TEXT NOT NULL REFERENCES rooms (code),
                name TEXT NOT NULL,
                holder TEXT NOT NULL,
                claimed TIMESTAMPTZ NOT NULL DEFAULT now(),
                PRIMARY KEY (code, name)
            )""",
            # Terminal sessions open, by the process that has them (see PROCESS_LOCKS).
            """CREATE TABLE sessions (
                token TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                process INTEGER NOT NULL,
                started TIMESTAMPTZ NOT NULL DEFAULT now()
            )""",
            "CREATE INDEX sessions_by_name ON sessions (name)",
            """CREATE TABLE names (
                name TEXT PRIMARY KEY,
                key TEXT NOT NULL,
                created TIMESTAMPTZ NOT NULL DEFAULT now()
            )""",
            """CREATE TABLE ratings (
                name TEXT NOT NULL,
                game TEXT NOT NULL,
                value DOUBLE PRECISION NOT NULL,
                deviation DOUBLE PRECISION NOT NULL,
                volatility DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL,
                updated TIMESTAMPTZ NOT NULL DEFAULT now(),
                PRIMARY KEY (name, game)
            )""",
            """CREATE TABLE rating_changes (
                code TEXT NOT NULL REFERENCES rooms (code),
                name TEXT NOT NULL,
                game TEXT NOT NULL,
                value_before DOUBLE PRECISION NOT NULL,
                deviation_before DOUBLE PRECISION NOT NULL,
                value_after DOUBLE PRECISION NOT NULL,
                deviation_after DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (code, name)
            )""",
            # The SSH host key every process serves (the private key, in OpenSSH's format).
            """CREATE TABLE server_keys (
                name TEXT PRIMARY KEY,
                key TEXT NOT NULL,
                created TIMESTAMPTZ NOT NULL DEFAULT now()
            )""",
        ),
    ),
    Migration(
        2,
        "a room's end on time is a change of its own",
        (
            "ALTER TABLE room_changes DROP CONSTRAINT room_changes_kind_check",
            "ALTER TABLE room_changes ADD CONSTRAINT room_changes_kind_check "
            "CHECK (kind IN ('join', 'komi', 'side', 'move', 'flag'))",
        ),
    ),
    Migration(
        3,
        "who is connected to each room's game, by the process that has the connection",
        (
            # A row while a screen of that process shows the room's game to that person;
            # the rows of a process whose lock is not held are not read (it is gone).
            """CREATE TABLE presence (
                process INTEGER NOT NULL,
                code TEXT NOT NULL,
                name TEXT NOT NULL,
                PRIMARY KEY (process, code, name)
            )""",
            "CREATE INDEX presence_by_code ON presence (code)",
        ),
    ),
    Migration(
        4,
        "open challenges, and the changes of online play (resign, abort, take-back, rematch, chat)",
        (
            "ALTER TABLE rooms ADD COLUMN open_challenge BOOLEAN NOT NULL DEFAULT false",
            "ALTER TABLE room_changes DROP CONSTRAINT room_changes_kind_check",
            "ALTER TABLE room_changes ADD CONSTRAINT room_changes_kind_check "
            "CHECK (kind IN ('join', 'komi', 'side', 'move', 'flag', "
            "'resign', 'abort', 'takeback', 'rematch', 'chat'))",
        ),
    ),
    Migration(
        5,
        "a clock held while the database was away, run on by the first change after",
        (
            "ALTER TABLE room_changes DROP CONSTRAINT room_changes_kind_check",
            "ALTER TABLE room_changes ADD CONSTRAINT room_changes_kind_check "
            "CHECK (kind IN ('join', 'komi', 'side', 'move', 'flag', "
            "'resign', 'abort', 'takeback', 'rematch', 'chat', 'hold'))",
        ),
    ),
    Migration(
        6,
        "each room's events, numbered from 1 (a room's version is its event count)",
        (
            # One row per event (`rooms.events`): its kind and its fields as JSON, kept
            # in the transaction of the change that made it, at the change's time. A
            # change's row has the version of its last event. The rooms kept before have
            # theirs derived once, at the store's start (`store.derived`).
            """CREATE TABLE room_events (
                code TEXT NOT NULL REFERENCES rooms (code),
                version INTEGER NOT NULL,
                kind TEXT NOT NULL,
                data TEXT NOT NULL,
                at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (code, version)
            )""",
        ),
    ),
    Migration(
        7,
        "who is in each room as events, and the last version each person saw of each room",
        (
            # A change that only says who is in the room (its presence events) has kind
            # `presence` and no command.
            "ALTER TABLE room_changes DROP CONSTRAINT room_changes_kind_check",
            "ALTER TABLE room_changes ADD CONSTRAINT room_changes_kind_check "
            "CHECK (kind IN ('join', 'komi', 'side', 'move', 'flag', "
            "'resign', 'abort', 'takeback', 'rematch', 'chat', 'hold', 'presence'))",
            # One row per person and room a screen of theirs showed: the last version
            # it showed (only ever raised), for what a screen coming back missed.
            """CREATE TABLE seen (
                name TEXT NOT NULL,
                code TEXT NOT NULL,
                version INTEGER NOT NULL,
                at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (name, code)
            )""",
        ),
    ),
    Migration(
        8,
        "a room's creator's colour (first, second, random) and an open challenge's rating range",
        (
            # `colour`: first, second or random (drawn when somebody joins); rooms made
            # before read as first. `rating_range`: `±200` or `1400-1800`; NULL: anyone.
            "ALTER TABLE rooms ADD COLUMN colour TEXT NOT NULL DEFAULT 'first'",
            "ALTER TABLE rooms ADD COLUMN rating_range TEXT",
        ),
    ),
    Migration(
        9,
        "how each player is told of their games while away, and the notices sent",
        (
            # A player's notice target (an URL or mailto:ADDRESS; NULL: none) and quiet
            # hours (`store.notices`); a notice sent is claimed by its row, once, by one
            # process of the server.
            "CREATE TABLE notify_settings (name TEXT PRIMARY KEY, target TEXT, "
            "quiet_from INTEGER, quiet_to INTEGER, utc_offset INTEGER NOT NULL DEFAULT 0, "
            "updated TIMESTAMPTZ NOT NULL)",
            "CREATE TABLE notices_sent (name TEXT NOT NULL, code TEXT NOT NULL, "
            "version INTEGER NOT NULL, kind TEXT NOT NULL, at TIMESTAMPTZ NOT NULL, "
            "PRIMARY KEY (name, code, version))",
            "CREATE INDEX notices_sent_by_time ON notices_sent (at)",
        ),
    ),
    Migration(
        10,
        "mutes and blocks, reports to the admins, suspended names",
        (
            # Who mutes or blocks whom (`store.moderation`), the reports made to the
            # admins, and the names suspended; times in seconds since the epoch.
            "CREATE TABLE IF NOT EXISTS relations (name TEXT NOT NULL, other TEXT NOT NULL, "
            "kind TEXT NOT NULL CHECK (kind IN ('mute', 'block')), at DOUBLE PRECISION NOT NULL, "
            "PRIMARY KEY (name, other, kind))",
            "CREATE INDEX IF NOT EXISTS relations_by_other ON relations (other)",
            "CREATE TABLE IF NOT EXISTS reports (reporter TEXT NOT NULL, reported TEXT NOT NULL, "
            "reason TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX IF NOT EXISTS reports_by_pair ON reports (reporter, reported, at)",
            # The games' ends by time, for the aborts counted per person and day.
            "CREATE INDEX IF NOT EXISTS room_events_ended ON room_events (at) WHERE kind = 'ended'",
            "CREATE TABLE IF NOT EXISTS suspensions (name TEXT PRIMARY KEY, "
            "until DOUBLE PRECISION NOT NULL, reason TEXT NOT NULL, admin TEXT NOT NULL, "
            "at DOUBLE PRECISION NOT NULL)",
        ),
    ),
    Migration(
        11,
        "draws offered, accepted and declined as a room's changes",
        (
            # `draw` (`commands.Draw`); `claim`, a game claimed from a player who left, is
            # named too, so that either migration, whichever comes last, keeps both.
            "ALTER TABLE room_changes DROP CONSTRAINT room_changes_kind_check",
            "ALTER TABLE room_changes ADD CONSTRAINT room_changes_kind_check "
            "CHECK (kind IN ('join', 'komi', 'side', 'move', 'flag', 'resign', 'abort', "
            "'takeback', 'rematch', 'chat', 'hold', 'presence', 'draw', 'claim'))",
        ),
    ),
    Migration(
        12,
        "rated puzzles: the server's puzzles, the players' puzzle ratings and tries",
        (  # `store.puzzle_book`
            "CREATE TABLE puzzles (key TEXT PRIMARY KEY, game TEXT NOT NULL, "
            "size INTEGER NOT NULL, data TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, "
            "deviation DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL, "
            "source TEXT NOT NULL, added TIMESTAMPTZ NOT NULL)",
            "CREATE INDEX puzzles_by_rating ON puzzles (game, value)",
            "CREATE TABLE puzzle_ratings (name TEXT NOT NULL, game TEXT NOT NULL, "
            "value DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL, "
            "volatility DOUBLE PRECISION NOT NULL, tries INTEGER NOT NULL, "
            "updated TIMESTAMPTZ NOT NULL, PRIMARY KEY (name, game))",
            "CREATE TABLE puzzle_tries (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, "
            "key TEXT NOT NULL, game TEXT NOT NULL, won BOOLEAN NOT NULL, "
            "value_before DOUBLE PRECISION NOT NULL, value_after DOUBLE PRECISION NOT NULL, "
            "at TIMESTAMPTZ NOT NULL)",
            "CREATE INDEX puzzle_tries_by_name ON puzzle_tries (name, game)",
            "CREATE TABLE puzzles_mined (code TEXT PRIMARY KEY, found INTEGER NOT NULL, "
            "at TIMESTAMPTZ NOT NULL)",
        ),
    ),
    Migration(
        13,
        "replies kept ready in days-per-move rooms (conditional moves), secret until played",
        (  # `store.conditional`
            "CREATE TABLE kept_replies (code TEXT NOT NULL, name TEXT NOT NULL, "
            "named TEXT NOT NULL, reply TEXT NOT NULL, moves INTEGER NOT NULL, "
            "at TIMESTAMPTZ NOT NULL, PRIMARY KEY (code, name, named))",
        ),
    ),
)


def migrate(db: psycopg.Connection[tuple[object, ...]]) -> None:
    """Apply the migrations `db` has not had yet (`db` in autocommit mode)."""
    with db.transaction():  # two processes making it at once would collide
        db.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, MIGRATION_LOCK))
        db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version "
            "(version INTEGER PRIMARY KEY, what TEXT NOT NULL, applied TIMESTAMPTZ NOT NULL)"
        )
    for migration in MIGRATIONS:
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, MIGRATION_LOCK))
            done = db.execute(
                "SELECT 1 FROM schema_version WHERE version = %s", (migration.version,)
            ).fetchone()
            if done is None:
                for statement in migration.statements:
                    db.execute(statement.encode())
                db.execute(
                    "INSERT INTO schema_version VALUES (%s, %s, now())",
                    (migration.version, migration.what),
                )
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    newest = int(str(row[0])) if row is not None and row[0] is not None else 0
    known = max(migration.version for migration in MIGRATIONS)
    if newest > known:
        raise NewerStore(NewerStore.message(newest, known))
