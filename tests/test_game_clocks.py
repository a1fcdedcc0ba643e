"""Clocks in a game: the session charges them move by move, takes them back with a move,
holds them while paused, ends the game on a flag, and the record keeps it all."""

from __future__ import annotations

import re

import pytest

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record, RecordError
from abstracts_tui.rules import OptionError
from abstracts_tui.session import Change, Changed, Session


class FakeTime:
    """The session's clock source, moved on by the test instead of by sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


def clocked(spec: str, game: str = "petrify", size: int = 6) -> tuple[Session, FakeTime]:
    session = Session.start(Setup(game, size, first="Ann", second="Bob", clock=spec))
    time = FakeTime()
    session.use_time(time)
    session.resume_clock()
    return session, time


def test_fischer_charges_the_mover_and_adds_the_increment() -> None:
    session, time = clocked("1m+5s")
    time.wait(12)
    session.play("c3")
    time.wait(20.5)
    session.play("d4")
    clock = session.clock
    assert clock is not None
    assert clock.left(0, time.now).main == 60 - 12 + 5
    assert clock.left(1, time.now).main == 60 - 20.5 + 5
    time.wait(3)
    assert clock.face(0, time.now) == "0:50"  # Ann's runs: 53 - 3


def test_byo_yomi_keeps_a_period_whole_after_a_move_in_it() -> None:
    session, time = clocked("10s+2x5s")
    time.wait(13)  # the main time gone and 3 s of the first period
    session.play("c3")
    left = session.clock.left(0, time.now)  # type: ignore[union-attr]
    assert (left.main, left.periods) == (0, 2)
    time.wait(1)
    session.play("d4")
    time.wait(6)  # one period run out: one left
    clock = session.clock
    assert clock is not None
    assert clock.face(0, time.now) == "0:04.0 (1x5s)"
    assert not clock.low(0, time.now)
    time.wait(3)
    assert clock.low(0, time.now)  # the last period nearly gone
    assert not session.check_flag()
    time.wait(1.1)
    assert session.check_flag()
    assert session.record.result == "orange+time"


def test_a_flag_ends_the_game_and_no_move_is_accepted_after() -> None:
    session, time = clocked("20s+1s")
    told: list[Changed] = []
    session.listeners.subscribe(told.append)
    session.play("c3")
    time.wait(21)
    with pytest.raises(OptionError, match="Bob lost on time"):
        session.play("d4")
    assert told[-1].change is Change.FLAG
    assert session.record.result == "blue+time"
    assert session.over and session.waiting_for() is None
    assert session.turn_text() == "Orange (Bob) lost on time: Blue (Ann) wins"
    assert not session.undo()  # a game lost on time is over for good
    assert session.game.moves and len(session.game.moves) == 1


def test_undo_restores_both_clocks_as_they_were_before_the_move() -> None:
    session, time = clocked("5m+3s")
    time.wait(10)
    session.play("c3")
    time.wait(40)
    session.play("d4")
    time.wait(7)
    session.undo()  # Bob's d4 back: Bob to move with the time he had before it
    clock = session.clock
    assert clock is not None and clock.running == 1
    assert clock.left(1, time.now).main == 300
    assert clock.left(0, time.now).main == 300 - 10 + 3
    session.redo()
    assert clock.left(1, time.now).main == 300 - 40 + 3


def test_a_pause_holds_the_clock_and_keeps_what_was_used() -> None:
    session, time = clocked("1m")
    time.wait(15)
    session.pause_clock()
    time.wait(1000)
    assert not session.check_flag()
    session.resume_clock()
    time.wait(5)
    assert session.clock.left(0, time.now).main == 40  # type: ignore[union-attr]


def test_clocks_follow_people_through_a_swap() -> None:
    session, time = clocked("1m")
    time.wait(5)
    session.play("c3")  # Ann, Blue
    time.wait(8)
    session.play("swap")  # Bob takes Blue
    time.wait(30)
    session.play("d4")  # Ann, now Orange
    clock = session.clock
    assert clock is not None
    assert clock.left(0, time.now).main == 60 - 5 - 30
    assert clock.left(1, time.now).main == 60 - 8
    time.wait(60)
    assert session.check_flag()
    assert session.record.result == "orange+time"  # Bob, on Blue, flagged: Ann wins
    assert session.turn_text() == "Blue (Bob) lost on time: Orange (Ann) wins"


def test_the_record_keeps_the_control_and_the_time_left_after_each_move() -> None:
    session, time = clocked("10m+3x30s", "linage", 7)
    session.set_komi("0.5")
    session.choose_side(0)
    time.wait(30)
    session.play("d4")
    time.wait(640)  # Horizontal's main time gone and a period too
    session.play("c3")
    text = session.record.to_sgf()
    assert "TM[600]OT[3x30s byo-yomi]" in text
    assert ";B[d4]BL[570]PERIODS[3]" in text  # B: the first player, Vertical
    assert ";W[c3]WL[0]PERIODS[2]" in text
    resumed = Session(Record.from_sgf(text))
    resumed.use_time(time)
    resumed.resume_clock()
    clock = resumed.clock
    assert clock is not None and clock.control == session.clock.control  # type: ignore[union-attr]
    assert clock.left(0, time.now).main == 570
    assert (clock.left(1, time.now).main, clock.left(1, time.now).periods) == (0, 2)


def test_a_game_lost_on_time_reads_back_as_lost() -> None:
    session, time = clocked("20s")
    session.play("c3")
    time.wait(25)
    assert session.check_flag()
    resumed = Session(Record.from_sgf(session.record.to_sgf()))
    assert resumed.over
    assert resumed.turn_text() == "Orange (Bob) lost on time: Blue (Ann) wins"
    with pytest.raises(OptionError, match="lost on time"):
        resumed.play("d4")


HEAD = "(;FF[4]GM[1000]GA[petrify]SZ[6]"


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (HEAD + "TM[five])", "the main time TM must be seconds, not 'five'", 1),
        (HEAD + "TM[60]OT[3 bananas])", "the overtime OT must be like '3s fischer'", 1),
        (HEAD + "OT[3s fischer])", "OT[...] (overtime) needs TM[seconds]", 1),
        (HEAD + "TM[0])", "the main time must be more than 0", 1),
        (HEAD + "\n;B[c3]BL[50])", "BL[50] needs a time control TM[...] at the root", 2),
        (HEAD + "TM[60]\n;B[c3]OL[50])", "belongs in the node of its colour's move", 2),
        (HEAD + "TM[60]\n;B[c3]XL[50])", "XL[50] is not a property of this game's records", 2),
        (HEAD + "TM[60]\n;B[c3]BL[soon])", "the time left BL must be seconds, not 'soon'", 2),
        (HEAD + "TM[60]OT[2x10s byo-yomi]\n;B[c3]BL[0]OB[3])", "a whole number from 0 to 2", 2),
        (HEAD + "RE[green+time]TM[60])", "a loss on time is written B+T or W+T", 1),
        (HEAD + "RE[blue+time])", "a game lost on time needs its time control", 1),
    ],
)
def test_bad_clock_properties_are_refused_with_their_line(
    text: str, message: str, line: int
) -> None:
    with pytest.raises(RecordError, match=re.escape(message)) as caught:
        Record.from_sgf(text)
    assert caught.value.line == line
