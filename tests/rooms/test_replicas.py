"""A room's replicas (the gateway's copy that checks a command, a screen's, one sent to a
session's process) are built from the session's values, never by reading its record's
text again: a copy of a room after any commands is the room, record, position, phase,
people and clock alike, with no record read from text on the way, and the room's terms
(offers, rematch) cross beside it as values."""

from __future__ import annotations

import asyncio
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from abstracts_tui.commands import Abort, Join, Play, Rematch, Takeback
from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.rooms.apply import apply, twin
from abstracts_tui.rooms.link import Adopt
from abstracts_tui.rooms.play import check, offer_text, takeback_moves
from abstracts_tui.rooms.rows import OPEN_SEAT
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.server.messages import Tell, pack, read
from abstracts_tui.session import Session
from tests.rooms.test_fold import AT, GAMES, run


def looks(session: Session, terms: RoomTerms) -> tuple[object, ...]:
    """What a screen of the room draws and what its next command is checked against."""
    clock = session.clock
    return (
        session.record.to_sgf(),
        [node.move for node in session.node.line()],
        session.game.position(),
        session.phase,
        session.people,
        terms.offers,
        terms.rematch,
        None if clock is None else (clock.sides, clock.running, clock.held),
    )


def crossed(session: Session, terms: RoomTerms) -> tuple[Session, RoomTerms]:
    """The room's `session` and `terms` as a session's process receives them (a replica
    copied again)."""

    async def main() -> tuple[Session, RoomTerms]:
        reader = asyncio.StreamReader()
        reader.feed_data(pack(Tell(Adopt(1, session, terms))))
        reader.feed_eof()
        message = await read(reader)
        assert isinstance(message, Tell) and isinstance(message.telling, Adopt)
        return message.telling.session, message.telling.terms

    return asyncio.run(main())


def no_text(*args: object, **kwargs: object) -> Record:
    raise AssertionError("a replica read its record from text")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(GAMES),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 2)), max_size=40),
)
def test_a_replica_is_the_room_built_from_its_values(
    game: tuple[str, int, str | None], picks: list[tuple[int, int]]
) -> None:
    session, terms, _ = run(game, picks)
    session.now = lambda: 5000.0 + time.time()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Record, "from_sgf", no_text)
        copy, sent = (twin(session), terms.copy()), crossed(session, terms)
    for replica, its_terms in (copy, sent):
        assert replica is not session and replica.record is not session.record
        assert looks(replica, its_terms) == looks(session, terms)
    copy[0].record.root.comment = "changed"  # shares nothing with the room
    assert session.record.root.comment != "changed"
    copy[1].offers.clear()
    assert looks(sent[0], sent[1]) == looks(session, terms)


def test_a_replica_in_another_process_has_the_offers_waiting_and_the_rematch_agreed() -> None:
    """A screen in a session's process shown a room (or shown it again) answers the
    offers waiting and refuses a second rematch from the terms that crossed with it."""
    session = Session.start(Setup("pilo", 6, first="ann", second=OPEN_SEAT))
    terms = RoomTerms()
    apply(session, terms, Join(), "bob", AT)
    apply(session, terms, Play("c3"), "ann", AT)
    apply(session, terms, Takeback(Takeback.OFFER), "ann", AT)
    replica, replica_terms = crossed(session, terms)
    assert offer_text(replica, replica_terms, "bob") == "ann asks to take back."
    assert takeback_moves(replica, replica_terms) == ["c3"]
    apply(replica, replica_terms, Takeback(Takeback.ACCEPT), "bob", AT)  # as the room does
    assert replica.node.line() == [] and offer_text(replica, replica_terms, "bob") is None
    apply(session, terms, Abort(), "ann", AT)
    apply(session, terms, Rematch(Rematch.OFFER), "ann", AT)
    replica, replica_terms = crossed(session, terms)
    assert offer_text(replica, replica_terms, "bob") == "ann offers a rematch."
    apply(session, terms, Rematch(Rematch.ACCEPT, "r3mt"), "bob", AT)
    replica, replica_terms = crossed(session, terms)
    assert replica_terms.rematch == "r3mt" and replica_terms.offers == {}
    assert check(replica, replica_terms, Rematch(Rematch.OFFER), "ann") == (
        "The rematch is agreed already: room r3mt."
    )
