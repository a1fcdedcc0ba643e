"""What a room's events say to a player and to a watcher (`rooms.told`): each event as line
mode says it, and the one paragraph said to somebody coming back to the room, made from
the events a real room's commands make (`rooms.derive.events_of`)."""

from __future__ import annotations

from abstracts_tui.commands import Command, Join, Play, Resign, Takeback
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.apply import apply, twin
from abstracts_tui.rooms.derive import events_of
from abstracts_tui.rooms.events import (
    ChatSaid,
    ClockHeld,
    Ended,
    Event,
    Made,
    OfferDeclined,
    OfferMade,
    Rated,
    RatingChange,
    RematchMade,
    Stamped,
    Unknown,
)
from abstracts_tui.rooms.play import REMATCH, TAKEBACK
from abstracts_tui.rooms.rows import OPEN_SEAT
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.rooms.told import MISSED_MOVES, UNKNOWN, missed, told
from abstracts_tui.session import Session

AT = 1_000.0
PEOPLE = ("ann", "bob")
RATED = Rated((RatingChange("ann", "1662?", "1720"), RatingChange("bob", "1540", "1490")))


class Room:
    """A room's session and the events its commands made, stamped from version 2 on."""

    def __init__(self, game: str = "petrify") -> None:
        self.session = Session.start(Setup(game, first="ann", second=OPEN_SEAT))
        self.terms = RoomTerms()
        self.events: list[Stamped] = [Stamped(1, AT, Made("ann", game))]

    def give(self, command: Command, by: str) -> list[Stamped]:
        before = twin(self.session)
        apply(self.session, self.terms, command, by, AT)
        made = [
            Stamped(len(self.events) + i + 1, AT, event)
            for i, event in enumerate(events_of(command, by, before, self.session))
        ]
        self.events.extend(made)
        return made

    def play(self, by: str) -> str:
        game = self.session.game
        name = game.move_name(game.legal_moves()[0])
        self.give(Play(name), by)
        return name

    def said(self, viewer: str, after: int = 0) -> list[str]:
        return [
            line
            for stamped in self.events[after:]
            for line in told(stamped.event, viewer, self.session.people)
        ]


def stamped(*events: Event) -> list[Stamped]:
    return [Stamped(version, AT, event) for version, event in enumerate(events, 2)]


def test_a_room_played_and_resigned_is_told_in_line_modes_words() -> None:
    room = Room()
    room.give(Join(), "bob")
    d5 = room.play("ann")
    room.play("bob")
    room.give(Resign(), "ann")
    for viewer in ("ann", "bob", "carl"):
        said = room.said(viewer)
        assert said[0] == "bob joined the room: the game begins."
        assert said[1] == f"Blue (ann) plays {d5}."
        assert said[-1] == "The game is over: Blue (ann) resigned: Orange (bob) wins."
        assert len(said) == 4


def test_a_rated_games_rating_change_reads_the_same_to_players_and_watchers() -> None:
    for viewer in ("ann", "bob", "carl"):
        assert told(RATED, viewer, PEOPLE) == ["Ratings: ann 1662? -> 1720, bob 1540 -> 1490."]
    first = Rated((RatingChange("ann", "", "1720?"), RatingChange("bob", "1540", "1490")))
    assert told(first, "bob", PEOPLE) == ["Ratings: ann 1720? (first rating), bob 1540 -> 1490."]


def test_an_offer_is_said_to_whom_it_is_for_and_its_answer_to_the_others() -> None:
    asked = OfferMade(TAKEBACK, "ann", ("d5", "c3"))
    assert told(asked, "bob", PEOPLE) == [
        "ann asks to take back their move d5 and your reply c3: type takeback to accept, or "
        "decline."
    ]
    assert told(asked, "ann", PEOPLE) == ["Take-back asked: waiting for bob's answer."]
    assert told(asked, "carl", PEOPLE) == ["ann asks to take back."]
    declined = OfferDeclined(TAKEBACK, "bob")
    assert told(declined, "ann", PEOPLE) == ["bob declined the take-back: play on."]
    assert told(declined, "bob", PEOPLE) == ["Take-back declined: play on."]
    rematch = OfferMade(REMATCH, "bob")
    assert told(rematch, "ann", PEOPLE) == [
        "bob offers a rematch, the colours reversed: type rematch to accept, or decline."
    ]
    assert told(rematch, "carl", PEOPLE) == ["bob offers a rematch."]
    made = RematchMade("ann", "k7m2")
    assert told(made, "bob", PEOPLE) == ["The rematch is agreed: on to room k7m2."]
    assert told(made, "carl", PEOPLE) == ["The players play again in room k7m2."]


def test_a_take_back_accepted_says_whose_move_it_is() -> None:
    room = Room()
    room.give(Join(), "bob")
    room.play("ann")
    room.play("bob")
    room.give(Takeback(Takeback.OFFER), "bob")
    start = len(room.events)
    room.give(Takeback(Takeback.ACCEPT), "ann")
    assert room.said("bob", start) == ["ann accepted the take-back. Orange to move (bob)."]
    assert room.said("ann", start) == ["Taken back. Orange to move (bob)."]


def test_chat_a_held_clock_and_an_unknown_event() -> None:
    assert told(ChatSaid("carl", "nice", watcher=True), "ann", PEOPLE) == [
        "carl, watching, says: nice"
    ]
    assert told(ChatSaid("bob", "hi"), "ann", PEOPLE) == ["bob says: hi"]
    assert told(ClockHeld(AT), "ann", PEOPLE) == []
    assert told(Unknown("later"), "ann", PEOPLE) == [UNKNOWN]


def test_coming_back_to_a_game_resigned_meanwhile_is_one_paragraph() -> None:
    room = Room()
    room.give(Join(), "bob")
    room.play("ann")
    seen = len(room.events)
    b1 = room.play("bob")
    a2 = room.play("ann")
    room.give(Resign(), "bob")
    room.events.append(Stamped(len(room.events) + 1, AT, RATED))
    assert missed(room.events[seen:], "ann") == (
        f"While you were away: bob played {b1}; you played {a2}; bob resigned: you win. "
        "Ratings: ann 1662? -> 1720, bob 1540 -> 1490."
    )
    assert missed(room.events[seen:], "carl") == (
        f"While you were away: bob played {b1}; ann played {a2}; bob resigned: ann wins. "
        "Ratings: ann 1662? -> 1720, bob 1540 -> 1490."
    )


def test_many_moves_missed_are_counted_not_listed() -> None:
    room = Room()
    room.give(Join(), "bob")
    seen = len(room.events)
    for by in ("ann", "bob") * 6:
        room.play(by)
    assert MISSED_MOVES < 12
    assert missed(room.events[seen:], "bob") == "While you were away: ann and you played 12 moves."


def test_nothing_missed_is_none_and_chat_is_counted() -> None:
    assert missed([], "ann") is None
    assert missed(stamped(ClockHeld(AT)), "ann") is None
    said = stamped(ChatSaid("bob", "hi"), ChatSaid("carl", "hello", watcher=True))
    assert missed(said, "ann") == "While you were away: 2 lines were said in the chat."
    aborted = Ended(Ended.ABORTED, None, None, "The game is aborted: no result, unrated.")
    assert missed(stamped(aborted), "ann") == (
        "While you were away: the game was aborted: no result."
    )
