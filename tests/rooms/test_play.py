"""Resign, abort, take-back and rematch as they change a shared game (no store, no screen)."""

from __future__ import annotations

from pathlib import Path
from weakref import WeakKeyDictionary

import pytest

from abstracts_tui.commands import Abort, Command, Rematch, Resign, Takeback, decode, encode
from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.rooms.play import (
    NotAllowed,
    apply,
    check,
    move_makers,
    offer_text,
    rematch_setup,
    restore_offers,
    takeback_moves,
    watchers,
    watchers_text,
)
from abstracts_tui.rooms.room import ending
from abstracts_tui.rooms.rows import game_line
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.rules import OptionError
from abstracts_tui.session import Change, Changed, Phase, Session
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore

OFFER, ACCEPT, DECLINE = Takeback.OFFER, Takeback.ACCEPT, Takeback.DECLINE


class Time:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def pilo(*moves: str, clock: str | None = None, time: Time | None = None) -> Session:
    """A Pilo game of ann (blue, first) and bob, the clock running if there is one."""
    session = Session.start(Setup("pilo", first="ann", second="bob", clock=clock))
    if time is not None:
        session.use_time(time)
    session.resume_clock()
    for move in moves:
        session.play(move)
    return session


def legal(session: Session, count: int) -> list[str]:
    """Play `count` legal moves (the first legal one each time); their names."""
    names = []
    for _ in range(count):
        game = session.game
        names.append(game.move_name(game.legal_moves()[0]))
        session.play(names[-1])
    return names


ROOMS: WeakKeyDictionary[Session, RoomTerms] = WeakKeyDictionary()


def terms_of(session: Session) -> RoomTerms:
    """The terms of the room whose game is `session` (one for each game, made at first use)."""
    return ROOMS.setdefault(session, RoomTerms())


def told(session: Session) -> list[Changed]:
    heard: list[Changed] = []
    session.listeners.subscribe(heard.append)
    return heard


def refused(session: Session, command: Command, by: str) -> str:
    """The sentence a refused command gets; checks that nothing changed."""
    terms = terms_of(session)
    before = (session.record.to_sgf(), dict(terms.offers), terms.rematch)
    sentence = check(session, terms_of(session), command, by)
    assert sentence is not None
    with pytest.raises(NotAllowed, match=sentence.split(":")[0]):
        apply(session, terms_of(session), command, by)
    assert (session.record.to_sgf(), dict(terms.offers), terms.rematch) == before
    return sentence


# -- resign -------------------------------------------------------------------------------


def test_a_resignation_ends_the_game_for_the_other_colour_and_stops_the_clock() -> None:
    time = Time()
    session = pilo(clock="5m", time=time)
    legal(session, 2)
    heard = told(session)
    time.now += 7
    apply(session, terms_of(session), Resign(), "bob", at=time.now)
    assert session.record.result == "blue+R"
    assert session.over and session.waiting_for() is None
    assert session.turn_text() == "Orange (bob) resigned: Blue (ann) wins"
    assert heard == [Changed(Change.END, by="bob")]
    clock = session.clock
    assert clock is not None and clock.running is None
    left = clock.sides[0].main  # ann was to move: charged the 7 s, then stopped
    time.now += 60
    assert clock.sides[0].main == left and not session.check_flag()
    with pytest.raises(OptionError, match="bob resigned"):
        session.play(session.game.move_name(session.game.legal_moves()[0]))
    assert not session.undo()


def test_a_resigned_game_reads_back_as_resigned_and_its_record_says_so_as_sgf_does() -> None:
    session = pilo()
    legal(session, 3)
    apply(session, terms_of(session), Resign(), "ann")
    sgf = session.record.to_sgf()
    assert "RE[W+R]" in sgf  # W: bob, who holds Orange
    again = Session(Record.from_sgf(sgf))
    assert again.over and again.turn_text() == "Blue (ann) resigned: Orange (bob) wins"
    # SGF's other spellings, and line mode's, mean the same.
    for spelling in ("orange+Resign", "orange+resign"):
        again.record.result = spelling
        assert again.ended_text() == "ann resigned"


def test_the_winner_of_a_resignation_is_rated_and_an_aborted_game_is_not(tmp_path: Path) -> None:
    """What the room saves when it ends: the winner (for the ratings), or none; and
    what the archive then says."""
    store = SqliteStore(tmp_path / "server.db")
    kept = RoomSetup("pilo", creator="ann", rated=True)
    resigned = pilo()
    legal(resigned, 2)
    apply(resigned, terms_of(resigned), Resign(), "ann")
    assert ending(resigned) == Finish("orange+R", "bob")
    aborted = pilo()
    apply(aborted, terms_of(aborted), Abort(), "ann")
    assert ending(aborted) == Finish("Void", None)
    for code, session in (("resn", resigned), ("void", aborted)):
        store.save_room(RoomSave(code, kept, "bob", session.record.to_sgf(), ending(session)))
    lines = {code: game_line(store.room(code)).split("\t")[3] for code in ("resn", "void")}
    assert lines == {"resn": "bob won by resignation (orange+R)", "void": "aborted (no result)"}
    assert {r.name: r.games for r in store.ratings()} == {"ann": 1, "bob": 1}
    store.close()


def test_before_each_side_has_moved_a_game_is_aborted_not_resigned() -> None:
    session = pilo()
    assert "abort the game instead" in refused(session, Resign(), "ann")
    legal(session, 1)
    assert "abort the game instead" in refused(session, Resign(), "bob")
    legal(session, 1)
    assert check(session, terms_of(session), Resign(), "bob") is None


def test_watchers_and_strangers_give_no_command_of_play() -> None:
    session = pilo()
    legal(session, 2)
    for command in (Resign(), Abort(), Takeback(OFFER), Rematch(Rematch.OFFER)):
        assert refused(session, command, "carol") == (
            "Only the players can do that; watchers can chat."
        )


def test_a_game_over_cannot_be_resigned_or_aborted() -> None:
    session = pilo()
    legal(session, 2)
    apply(session, terms_of(session), Resign(), "ann")
    assert refused(session, Resign(), "bob").startswith("The game is over: Blue (ann) resigned")
    assert refused(session, Abort(), "bob").startswith("The game is over")


# -- abort --------------------------------------------------------------------------------


def test_an_abort_calls_the_game_off_with_no_result_until_each_side_has_moved() -> None:
    session = pilo(clock="5m")
    heard = told(session)
    apply(session, terms_of(session), Abort(), "bob")  # before any move: either player
    assert session.record.result == "Void"
    assert session.over and session.turn_text() == "Aborted: no result"
    assert session.ended_text() == "it was aborted"
    assert heard == [Changed(Change.END, by="bob")]
    assert session.clock is not None and session.clock.running is None

    session = pilo()
    legal(session, 1)
    apply(session, terms_of(session), Abort(), "ann")  # ann moved, bob did not: still allowed
    assert session.record.result == "Void"

    session = pilo()
    legal(session, 2)
    assert refused(session, Abort(), "ann") == (
        "Each side has moved: the game can be resigned, no longer aborted."
    )


def test_an_abort_while_komi_and_sides_are_chosen_ends_those_steps() -> None:
    session = Session.start(Setup("linage", first="ann", second="bob"))
    assert session.phase is Phase.KOMI
    assert "can only be aborted" in refused(session, Resign(), "ann")
    apply(session, terms_of(session), Abort(), "bob")
    assert session.phase is Phase.PLAY and session.over
    assert session.waiting_for() is None and session.record.result == "Void"


# -- take-back ----------------------------------------------------------------------------


def test_an_accepted_take_back_removes_the_offerers_move_and_the_reply() -> None:
    session = pilo()
    names = legal(session, 2)  # ann, then bob
    position = Session.start(Setup("pilo", first="ann", second="bob")).game.position()
    apply(session, terms_of(session), Takeback(OFFER), "ann")
    assert takeback_moves(session, terms_of(session)) == names
    assert offer_text(session, terms_of(session), "bob") == "ann asks to take back."
    assert offer_text(session, terms_of(session), "ann") == "You ask to take back."
    assert offer_text(session, terms_of(session), "carol") == "ann asks to take back."
    heard = told(session)
    apply(session, terms_of(session), Takeback(ACCEPT), "bob")
    assert session.game.position() == position and session.waiting_for() == "ann"
    # Gone for good: not kept as a variation, nor to be played again.
    assert session.record.root.children == [] and not session.can_redo
    assert offer_text(session, terms_of(session), "bob") is None
    assert Changed(Change.STEP) in heard and heard[-1] == Changed(Change.OFFER, by="bob")


def test_a_take_back_asked_before_the_reply_takes_back_one_move() -> None:
    session = pilo()
    names = legal(session, 3)  # ann, bob, ann: bob to move
    apply(session, terms_of(session), Takeback(OFFER), "ann")
    assert takeback_moves(session, terms_of(session)) == names[2:]
    apply(session, terms_of(session), Takeback(ACCEPT), "bob")
    assert [node.move for node in session.node.line()] == names[:2]
    assert session.waiting_for() == "ann"


def test_who_may_ask_to_take_back_and_who_answers() -> None:
    session = pilo()
    assert refused(session, Takeback(OFFER), "ann") == "You have made no move to take back."
    legal(session, 1)
    assert refused(session, Takeback(OFFER), "bob") == "You have made no move to take back."
    assert refused(session, Takeback(ACCEPT), "bob") == "Nobody asks to take back now."
    apply(session, terms_of(session), Takeback(OFFER), "ann")
    assert refused(session, Takeback(OFFER), "ann").startswith("You have asked")
    assert refused(session, Takeback(OFFER), "bob") == "ann asks to take back: answer that first."
    assert refused(session, Takeback(ACCEPT), "ann") == (
        "The other player answers your own request."
    )
    apply(session, terms_of(session), Takeback(DECLINE), "bob")
    assert offer_text(session, terms_of(session), "ann") is None and len(session.node.line()) == 1
    assert refused(session, Takeback(ACCEPT), "bob") == "Nobody asks to take back now."


def test_any_move_clears_a_take_back_offer() -> None:
    session = pilo()
    legal(session, 1)
    apply(session, terms_of(session), Takeback(OFFER), "ann")
    legal(session, 1)  # bob plays on instead of answering
    assert offer_text(session, terms_of(session), "ann") is None
    assert refused(session, Takeback(ACCEPT), "bob") == "Nobody asks to take back now."
    apply(session, terms_of(session), Takeback(OFFER), "bob")  # now bob has a move to take back
    assert offer_text(session, terms_of(session), "ann") == "bob asks to take back."


def test_a_game_over_cannot_be_taken_back() -> None:
    session = pilo()
    legal(session, 2)
    apply(session, terms_of(session), Takeback(OFFER), "ann")
    apply(session, terms_of(session), Resign(), "bob")
    assert offer_text(session, terms_of(session), "bob") is None  # the end clears it
    assert refused(session, Takeback(ACCEPT), "bob").startswith("The game is over")
    assert refused(session, Takeback(OFFER), "ann").startswith("The game is over")


def test_a_take_back_gives_the_clocks_back_as_they_were_before_the_moves() -> None:
    time = Time()
    session = pilo(clock="5m", time=time)
    time.now += 10
    legal(session, 1)  # ann used 10 s
    time.now += 20
    legal(session, 1)  # bob used 20 s
    time.now += 5
    apply(session, terms_of(session), Takeback(OFFER), "ann")
    apply(session, terms_of(session), Takeback(ACCEPT), "bob", at=time.now)
    clock = session.clock
    assert clock is not None and clock.running == 0  # ann's clock runs again
    assert [side.main for side in clock.sides] == [300.0, 300.0]
    time.now += 3
    assert clock.left(0, time.now).main == pytest.approx(297.0)


def test_after_the_pie_rule_the_mover_of_each_move_is_known() -> None:
    session = Session.start(Setup("egotzi", first="ann", second="bob"))
    legal(session, 1)
    session.play("swap")  # bob takes ann's stone: bob holds the first colour now
    legal(session, 1)  # ann moves as the second colour
    assert move_makers(session) == ["ann", "bob", "ann"]
    apply(session, terms_of(session), Takeback(OFFER), "bob")  # bob's last move was the swap
    apply(session, terms_of(session), Takeback(ACCEPT), "ann")
    assert len(session.node.line()) == 1 and not session.swapped
    assert session.waiting_for() == "bob"


# -- rematch ------------------------------------------------------------------------------


def test_a_rematch_is_offered_once_the_game_is_over_and_accepted_by_the_other() -> None:
    session = pilo()
    terms = terms_of(session)
    legal(session, 2)
    assert refused(session, Rematch(Rematch.OFFER), "ann") == (
        "A rematch is offered once the game is over."
    )
    apply(session, terms, Resign(), "ann")
    assert refused(session, Rematch(Rematch.ACCEPT), "bob") == "Nobody offers you a rematch now."
    apply(session, terms, Rematch(Rematch.OFFER), "ann")
    assert offer_text(session, terms, "bob") == "ann offers a rematch."
    assert refused(session, Rematch(Rematch.ACCEPT, "k7m2"), "ann") == (
        "Nobody offers you a rematch now."
    )
    apply(session, terms, Rematch(Rematch.ACCEPT, "k7m2"), "bob")
    assert terms.rematch == "k7m2" and offer_text(session, terms, "ann") is None
    assert refused(session, Rematch(Rematch.OFFER), "bob") == (
        "The rematch is agreed already: room k7m2."
    )


def test_a_rematch_declined_by_the_other_is_gone_and_may_be_offered_again() -> None:
    session = pilo()
    terms = terms_of(session)
    legal(session, 2)
    apply(session, terms, Resign(), "ann")
    assert refused(session, Rematch(Rematch.DECLINE), "bob") == "Nobody offers you a rematch now."
    apply(session, terms, Rematch(Rematch.OFFER), "ann")
    assert refused(session, Rematch(Rematch.DECLINE), "ann") == "Nobody offers you a rematch now."
    assert refused(session, Rematch(Rematch.DECLINE), "carol") == (
        "Only the players can do that; watchers can chat."
    )
    apply(session, terms, Rematch(Rematch.DECLINE), "bob")
    assert offer_text(session, terms, "ann") is None and terms.rematch is None
    apply(session, terms, Rematch(Rematch.OFFER), "ann")  # asked again later
    assert offer_text(session, terms, "bob") == "ann offers a rematch."
    # A room read whole again finds no offer that was declined.
    again = pilo()
    again_terms = terms_of(again)
    legal(again, 2)
    apply(again, again_terms, Resign(), "ann")
    restore_offers(
        again, again_terms, [(Rematch(Rematch.OFFER), "ann"), (Rematch(Rematch.DECLINE), "bob")]
    )
    assert offer_text(again, again_terms, "bob") is None
    assert decode(*encode(Rematch(Rematch.DECLINE))) == Rematch(Rematch.DECLINE)


def test_an_aborted_game_can_be_played_again() -> None:
    session = pilo()
    apply(session, terms_of(session), Abort(), "ann")
    apply(session, terms_of(session), Rematch(Rematch.OFFER), "bob")
    assert offer_text(session, terms_of(session), "ann") == "bob offers a rematch."


def test_a_rematch_reverses_the_colours_and_keeps_the_game() -> None:
    setup = Setup("pilo", 6, first="ann", second="(open seat)", clock="5m+3s")
    again = rematch_setup(setup, "bob")
    assert again == Setup("pilo", 6, first="bob", second="ann", clock="5m+3s")
    game = Session.start(again)
    assert game.waiting_for() == "bob"  # bob moves first now
    komi = rematch_setup(Setup("linage", komi=None, first="ann"), "bob")
    assert Session.start(komi).chooser == "bob"  # bob sets komi, ann chooses the side


def test_the_watchers_are_the_people_connected_who_do_not_play() -> None:
    players = ("ann", "bob")
    assert watchers(frozenset({"ann"}), players) == 0
    assert watchers(frozenset({"ann", "bob", "carol", "dave"}), players) == 2
    assert watchers(frozenset({"carol"}), ("ann",)) == 1  # the seat still open
    assert [watchers_text(n) for n in (0, 1, 3)] == [
        "nobody watching",
        "1 watching",
        "3 watching",
    ]
