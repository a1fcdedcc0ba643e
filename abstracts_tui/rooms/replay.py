"""The events of a room kept before rooms had events, derived once from what is kept of
it: the room made, its joiner, the komi and side chosen, each move of its record's main
line, its end and its rating change, through the same functions a commit uses
(`apply.apply`, `derive.events_of`), so that they say what a commit would have said.

What was kept of a room is its setup, its record and its end: the chat lines, the offers
and the moves taken back are not in it, and its events have none of them. Every event
after the room's making is stamped with its last change's time (the moves' own are not
kept), the making with its creation's.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..commands import ChooseSide, Command, Join, Play, SetKomi
from ..game_setup import Setup
from ..ratings import Rating
from ..records import Record
from ..records.results import How
from ..session import Phase, Session
from .apply import apply, twin
from .derive import ended_events, events_of, made_event
from .events import Event, Stamped
from .kept import StoredRoom, rated_event
from .room import Room
from .rows import OPEN_SEAT, RoomFileError, check_record, room_session


def replayed(stored: StoredRoom, ratings: Sequence[tuple[str, Rating, Rating]]) -> list[Stamped]:
    """The events of room `stored`, numbered from 1, with its `ratings` changes (none: it
    changed no rating). Raises what reading the room raises (`rows.BAD_ROW`), or
    RulesError if its record does not replay."""
    kept = stored.setup
    setup = Setup(
        kept.game, kept.size, kept.variant, kept.komi, kept.creator, OPEN_SEAT, clock=kept.clock
    )
    made_at, last_at = stored.created.timestamp(), stored.updated.timestamp()
    session = Session.start(setup)
    session.now = lambda: last_at
    room = Room(stored.code, setup, session, rated=kept.rated, open=kept.open)
    events: list[tuple[float, Event]] = [(made_at, made_event(room))]

    def command(done: Command, by: str) -> None:
        before = twin(session)
        apply(session, room.terms, done, by, last_at)
        events.extend((last_at, event) for event in events_of(done, by, before, session))

    if stored.joiner is not None:
        command(Join(), stored.joiner)
    if stored.sgf is None:
        if stored.phase == "side" and session.phase is Phase.KOMI:
            command(SetKomi(stored.komi_chosen or 0.0), kept.creator)
    else:
        record = Record.from_sgf(stored.sgf)
        check_record(record, setup, f"the record of room {stored.code}")
        whole = room_session(record, kept.creator, stored.joiner)
        if session.phase is Phase.KOMI:
            command(SetKomi(whole.game.options.komi or 0.0), kept.creator)
        if session.phase is Phase.SIDE:
            second = session.people[1]
            command(ChooseSide(0 if whole.people[0] == second else 1), second)
        for node in record.root.mainline():
            if node.move is None:
                raise RoomFileError(f"the record of room {stored.code} sets up a position")
            mover = session.waiting_for() or ""
            command(Play(str(node.move)), mover)
        if whole.over and not session.over:  # resigned, lost on time or called off
            found = whole.ended()
            by = None  # who called a game off is not kept; who resigned is the loser
            if found is not None and found.how is How.RESIGNATION and found.winner is not None:
                by = whole.person(1 - found.winner)
            events.extend((last_at, event) for event in ended_events(session, whole, by))
    if ratings:
        events.append((last_at, rated_event(ratings)))
    return [Stamped(i, at, event) for i, (at, event) in enumerate(events, 1)]
