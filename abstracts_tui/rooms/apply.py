"""One function applies a command to a room's game and terms (its `Session` and its
`terms.RoomTerms`): the live ones every screen shows, the gateway's copies that check it
first, and a replica catching up with changes another process made. Each command has its
own small function here; a new command is one more.

`at` is the moment of the command by the store's clock: every clock charged by it is
charged at that moment, here and in every process that reads the change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..clock import SideTime, TimeControl
from ..commands import (
    Abort,
    ChooseSide,
    Claim,
    Command,
    Draw,
    Flag,
    Hold,
    Join,
    Play,
    Rematch,
    Resign,
    Say,
    SetKomi,
    Takeback,
)
from ..records import Record, RecordNode
from ..records.timing import TimeLeft
from ..rules import OptionError, Options
from ..session import Change, Changed, Phase, Session
from . import play
from .chat import check_line
from .draws import apply_draw
from .pairing import SECOND
from .rows import OPEN_SEAT
from .terms import RoomTerms

Apply = Callable[[Session, RoomTerms, Any, str | None], None]


@contextmanager
def at_moment(session: Session, at: float) -> Iterator[None]:
    """The session's clock reads `at` meanwhile."""
    now = session.now
    session.now = lambda: at
    try:
        yield
    finally:
        session.now = now


def apply(session: Session, terms: RoomTerms, command: Command, by: str | None, at: float) -> None:
    """Apply `command`, made by `by` (None: the clock), to the room's game `session` and
    its `terms` at `at`; raises the rules' errors (one sentence each) and changes nothing
    if it does not apply."""
    try:
        how = APPLY[type(command)]
    except KeyError:
        raise OptionError(f"{type(command).__name__.lower()} is not possible here yet") from None
    clock = session.clock
    held = clock.held if clock is not None else None
    if clock is not None and not isinstance(command, Hold):
        # Held here while this process could not keep changes, and changed meanwhile by
        # one that could: the store's changes are the truth, charged at their moments.
        clock.held = None
    try:
        with at_moment(session, at):
            how(session, terms, command, by)
    except BaseException:
        if clock is not None and session.clock is clock:
            clock.held = held
        raise


def _waited_for(session: Session, by: str | None) -> None:
    waiting = session.waiting_for()
    if waiting is None:
        raise OptionError("the game is over")
    if by is not None and by != waiting:
        raise OptionError(f"it is {waiting}'s turn")


def _join(session: Session, terms: RoomTerms, command: Join, by: str | None) -> None:
    if by is None or by in session.people or OPEN_SEAT not in session.people:
        raise OptionError("the seat is not open")
    first, second = session.people
    people = (by, second) if first == OPEN_SEAT else (first, by)
    if command.drawn == SECOND:  # a random room's creator, seated first, plays second
        people = (people[1], people[0])
        session.reverse_clock()
    session.people = session.record.players = people
    terms.offers.pop(play.TAKEBACK, None)  # asked of nobody: void, as its events say
    session.save_autosave()
    session.notify(Changed(Change.PHASE))
    session.resume_clock()  # the clock starts now, if the game does


def _set_komi(session: Session, terms: RoomTerms, command: SetKomi, by: str | None) -> None:
    if session.phase is not Phase.KOMI:
        raise OptionError("komi is set before the first move only")
    _waited_for(session, by)
    session.set_komi(command.komi)


def _choose_side(session: Session, terms: RoomTerms, command: ChooseSide, by: str | None) -> None:
    if session.phase is not Phase.SIDE:
        raise OptionError("sides are chosen before the first move only")
    _waited_for(session, by)
    session.choose_side(command.colour)


def _play(session: Session, terms: RoomTerms, command: Play, by: str | None) -> None:
    if session.phase is Phase.PLAY and not session.over:
        _waited_for(session, by)
    session.play(command.move)


def _flag(session: Session, terms: RoomTerms, command: Flag, by: str | None) -> None:
    if not session.check_flag():
        raise OptionError("the clock to move has time left")


def _hold(session: Session, terms: RoomTerms, command: Hold, by: str | None) -> None:
    """The store is back: the running clock, held since `command.since`, runs again from
    now, charged nothing for the time between."""
    if by is not None:
        raise OptionError("only the server holds a clock")
    clock = session.clock
    if clock is not None:
        clock.release(command.since, session.now())
        if clock.running is None and session.first_move_due >= 0:
            clock.started = session.now()  # a first move due is due afresh from now


def _online(session: Session, terms: RoomTerms, command: Command, by: str | None) -> None:
    """Resign, abort, a take-back or a rematch: see `play`."""
    if by is None:
        raise OptionError("only a player can do that")
    play.apply(session, terms, command, by)


def _say(session: Session, terms: RoomTerms, command: Say, by: str | None) -> None:
    """A chat line changes no game: it is checked here, and the room keeps it once it is
    applied (`Rooms`)."""
    check_line(command.text)


APPLY: dict[type[Any], Apply] = {
    Join: _join,
    SetKomi: _set_komi,
    ChooseSide: _choose_side,
    Play: _play,
    Flag: _flag,
    Hold: _hold,
    Resign: _online,
    Abort: _online,
    Claim: _online,
    Takeback: _online,
    Rematch: _online,
    Say: _say,
    Draw: apply_draw,
}
"""How each command applies; a command not here is refused with a sentence."""


def twin(session: Session) -> Session:
    """A copy of `session` that shares nothing with it (no listeners, no saving), built
    from its values (`state_of`: no record text is written or read): the gateway checks
    a command on it, and takes the room after the command from it."""
    return from_state(state_of(session), session.now)


@dataclass(frozen=True)
class NodeValues:
    """A node of a record as plain values, with the place of its parent among the
    record's nodes (-1: it is the root)."""

    parent: int
    move: str | None
    setup: str | None
    comment: str
    time_left: TimeLeft | None


@dataclass(frozen=True)
class RecordValues:
    """A record as plain values: its root's properties and its nodes, each after its
    parent (the root first), the node shown by its place among them."""

    game: str
    options: Options
    players: tuple[str, str]
    date: str
    result: str
    event: str
    computers: tuple[tuple[str, str], ...]
    clock: TimeControl | None
    extra: tuple[tuple[str, tuple[str, ...]], ...]
    nodes: tuple[NodeValues, ...]
    shown: int


def record_values(record: Record, shown: RecordNode) -> RecordValues:
    """`record` as plain values, `shown` its node shown (a loop, not a recursion: a game
    of any length)."""
    nodes: list[NodeValues] = []
    places: dict[int, int] = {}
    todo: deque[tuple[RecordNode, int]] = deque([(record.root, -1)])
    while todo:
        node, parent = todo.popleft()
        places[id(node)] = len(nodes)
        nodes.append(NodeValues(parent, node.move, node.setup, node.comment, node.time_left))
        todo.extend((child, places[id(node)]) for child in node.children)
    return RecordValues(
        record.game,
        record.options,
        record.players,
        record.date,
        record.result,
        record.event,
        tuple(record.computers.items()),
        record.clock,
        tuple((key, tuple(values)) for key, values in record.extra.items()),
        tuple(nodes),
        places.get(id(shown), 0),
    )


def record_of(values: RecordValues) -> Record:
    """The record of `values`, opening at its node shown."""
    made: list[RecordNode] = []
    for node in values.nodes:
        parent = made[node.parent] if node.parent >= 0 else None
        copy = RecordNode(node.move, node.setup, node.comment, node.time_left, parent=parent)
        if parent is not None:
            parent.children.append(copy)
        made.append(copy)
    return Record(
        game=values.game,
        options=values.options,
        players=values.players,
        date=values.date,
        result=values.result,
        event=values.event,
        root=made[0],
        computers=dict(values.computers),
        clock=values.clock,
        extra={key: list(found) for key, found in values.extra},
        shown=made[values.shown],
    )


@dataclass(frozen=True)
class SessionState:
    """A session as plain values, as a twin copies it: its record's values (`RecordValues`,
    never its text: nothing is parsed again) and what play adds to it (the phase, the
    people, the clock); the room's terms cross beside it as values of their own
    (`terms.RoomTerms`)."""

    record: RecordValues
    phase: Phase
    people: tuple[str, str]
    clock_paused: bool
    clock: tuple[list[SideTime], int | None, float, float | None] | None
    """Both sides' times, the side whose clock runs, since when, and since when it is
    held (None: it is not)."""
    first_moves: tuple[bool, int] = (False, -1)
    """Whether the clocks wait for each side's first move, and the move number of the
    one due (`Session.first_moves_free`, `Session.first_move_due`)."""


def state_of(session: Session) -> SessionState:
    clock = session.clock
    return SessionState(
        record_values(session.record, session.node),
        session.phase,
        session.people,
        session.clock_paused,
        (list(clock.sides), clock.running, clock.started, clock.held)
        if clock is not None
        else None,
        (session.first_moves_free, session.first_move_due),
    )


def from_state(state: SessionState, now: Callable[[], float]) -> Session:
    """A session from its plain values, its clock read from `now`."""
    record = record_of(state.record)
    copy = Session(record)
    copy.now = now
    copy.phase = state.phase
    copy.people = record.players = state.people
    copy.clock_paused = state.clock_paused
    copy.first_moves_free, copy.first_move_due = state.first_moves
    if state.clock is not None and copy.clock is not None:
        sides, copy.clock.running, copy.clock.started, copy.clock.held = state.clock
        copy.clock.sides = list(sides)
    return copy


def adopt(session: Session, other: Session) -> None:
    """Make `session` (the one every screen shows) what `other` is (the room read again
    from its store, a replica copied again), silently: a copy says nothing of what
    happened between the two; the room's events since the version it had say that."""
    session.record, session.node, session.game = other.record, other.node, other.game
    session.phase, session.people = other.phase, other.people
    session.clock, session.clock_paused = other.clock, other.clock_paused
    session.first_moves_free, session.first_move_due = other.first_moves_free, other.first_move_due
