"""A room's events say everything a screen draws: folding the events that random commands
make gives the room the commands made (its people, komi, side, moves and position, the
offers waiting, the rematch, the end), and a screen that starts from any version and
folds the rest draws the same as one that watched from the start."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from abstracts_tui.commands import (
    Abort,
    ChooseSide,
    Command,
    Join,
    Play,
    Rematch,
    Resign,
    Say,
    SetKomi,
    Takeback,
)
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.apply import apply, twin
from abstracts_tui.rooms.derive import events_of
from abstracts_tui.rooms.events import Ended, Made, MovePlayed, Stamped, decode, encode
from abstracts_tui.rooms.fold import RoomState, fold
from abstracts_tui.rooms.play import offer
from abstracts_tui.rooms.rows import OPEN_SEAT
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.rules import RulesError
from abstracts_tui.session import Phase, Session

AT = 1_000.0
GAMES = [("petrify", 6, None), ("pilo", 6, None), ("egotzi", 5, "standard"), ("linage", 5, None)]
PEOPLE = ("ann", "bob", "carl")


def made(game: str, size: int, variant: str | None) -> tuple[Session, Made]:
    session = Session.start(Setup(game, size, variant, first="ann", second=OPEN_SEAT))
    return session, Made("ann", game, size, variant, None, title=game)


def commands(session: Session, pick: int) -> Command:
    """One of the commands a person might send now (allowed or not), by `pick`."""
    game = session.game
    legal = game.legal_moves()
    move = game.move_name(legal[pick % len(legal)]) if legal else "pass"
    komi = game.info.komi_step * (pick % 5)
    choices: list[Command] = [
        Join(),
        SetKomi(komi),
        ChooseSide(pick % 2),
        *[Play(move)] * 12,
        Resign(),
        Abort(),
        Takeback(Takeback.OFFER),
        Takeback(Takeback.ACCEPT),
        Takeback(Takeback.DECLINE),
        Rematch(Rematch.OFFER),
        Rematch(Rematch.DECLINE),
        Rematch(Rematch.ACCEPT, "zz99"),
        Say(f"line {pick}"),
    ]
    return choices[pick % len(choices)]


def run(
    game: tuple[str, int, str | None], picks: list[tuple[int, int]]
) -> tuple[Session, RoomTerms, list[Stamped]]:
    """The room (its game and terms) after the commands `picks` choose (each by one of
    PEOPLE), those its gateway would refuse left out, and the events of those it took."""
    session, first = made(*game)
    terms = RoomTerms()
    events = [Stamped(1, AT, first)]
    for pick, person in picks:
        command = commands(session, pick)
        by = PEOPLE[person % len(PEOPLE)]
        if isinstance(command, Play | SetKomi | ChooseSide):
            waiting = session.waiting_for()  # most moves are the mover's
            by = waiting if waiting not in (None, OPEN_SEAT) else by
        offered = terms.offers.get("takeback" if isinstance(command, Takeback) else "rematch")
        if isinstance(command, Takeback | Rematch) and offered is not None and person:
            by = next((p for p in session.people if p != offered.by), by)  # most answers
        before = twin(session)
        try:
            apply(session, terms, command, by, AT)
        except RulesError:
            continue
        for event in events_of(command, by, before, session):
            events.append(Stamped(len(events) + 1, AT, event))
    return session, terms, events


def drawn(state: RoomState) -> tuple[object, ...]:
    return (state.people, state.moves, state.offers, state.rematch, state.ended)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    picks=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 2)), max_size=60),
)
def test_folding_the_events_gives_the_room_the_commands_made(
    game: tuple[str, int, str | None], picks: list[tuple[int, int]]
) -> None:
    session, terms, events = run(game, picks)
    state = fold(events)
    assert [s.version for s in events] == list(range(1, len(events) + 1))
    assert state.by_colour == tuple(p for p in session.people if p != OPEN_SEAT)
    assert state.moves == tuple(str(node.move) for node in session.node.line())
    position = state.position()
    assert position.position() == session.game.position()
    waiting = {kind: offer(session, terms, kind) for kind in ("takeback", "rematch")}
    assert dict(state.offers) == {kind: made.by for kind, made in waiting.items() if made}
    assert state.rematch == terms.rematch
    assert (state.ended is not None) == (session.phase is Phase.PLAY and session.over) or (
        session.phase is not Phase.PLAY and session.over
    )
    if session.phase is Phase.PLAY and not session.over:
        assert state.ended is None
    # Every event survives the store's text as it is.
    assert [decode(*encode(s.event)) for s in events] == [s.event for s in events]
    # A screen that was shown the room at any version and folds the rest draws the same.
    for seen in range(len(events) + 1):
        assert drawn(fold(events[seen:], fold(events[:seen]))) == drawn(state)
        # and one told some events twice (a catch-up overlapping what it had) too
        assert drawn(fold(events[max(0, seen - 2) :], fold(events[:seen]))) == drawn(state)


def test_a_game_to_its_end_on_the_board_says_each_move_and_the_count() -> None:
    session, first = made("egotzi", 5, "standard")
    events = [Stamped(1, AT, first)]
    people = itertools.cycle(["bob"])
    terms = RoomTerms()
    apply(session, terms, Join(), next(people), AT)
    before = None
    while not session.over:
        by = session.waiting_for()
        assert by is not None
        game = session.game
        if session.phase is Phase.KOMI:
            command: Command = SetKomi(0.0)
        elif session.phase is Phase.SIDE:
            command = ChooseSide(0)
        else:
            command = Play(game.move_name(game.legal_moves()[-1]))
        before = twin(session)
        apply(session, terms, command, by, AT)
        for event in events_of(command, by, before, session):
            events.append(Stamped(len(events) + 1, AT, event))
    moves = [s.event for s in events if isinstance(s.event, MovePlayed)]
    assert moves and all(m.words.endswith(".") and m.by in ("ann", "bob") for m in moves)
    end = events[-1].event
    assert isinstance(end, Ended) and end.how == Ended.BOARD
    assert end.score and "over" in end.result
    assert fold(events).position().is_over()
