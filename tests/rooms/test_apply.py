"""A session brought up to date at once (`apply.adopt`: a room read again from its store,
a replica copied again) tells its listeners what the commands between would have told
them one by one: each move gained with its name and who made it, a join, komi and a side,
the end, a take-back and its answer. A screen says its news from what it is told."""

from __future__ import annotations

from abstracts_tui.commands import ChooseSide, Command, Join, Play, Resign, SetKomi, Takeback
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.apply import adopt, apply, twin
from abstracts_tui.rooms.rows import OPEN_SEAT
from abstracts_tui.session import Change, Changed, Phase, Session

AT = 1_000.0


def room_session(game: str) -> Session:
    """A room's game as it is made: ann's, the second seat open."""
    return Session.start(Setup(game, first="ann", second=OPEN_SEAT))


def one_by_one_and_at_once(
    start: Session, commands: list[tuple[Command, str]]
) -> tuple[list[Changed], list[Changed], Session]:
    """What a listener is told when `commands` are applied one by one, and when a copy of
    `start` adopts the session they make (a copy of it, as read again); the latter."""
    stepped, told_steps = twin(start), []
    stepped.listeners.append(told_steps.append)
    for command, by in commands:
        apply(stepped, command, by, AT)
    caught_up, told_at_once = twin(start), []
    caught_up.listeners.append(told_at_once.append)
    adopt(caught_up, twin(stepped))
    assert caught_up.record.to_sgf() == stepped.record.to_sgf()
    return told_steps, told_at_once, caught_up


def a_move(session: Session) -> str:
    game = session.game
    return game.move_name(game.legal_moves()[0])


def test_moves_gained_at_once_are_told_one_by_one_with_their_names_and_players() -> None:
    start = room_session("petrify")
    apply(start, Join(), "bob", AT)
    played = twin(start)
    commands: list[tuple[Command, str]] = []
    for by in ("ann", "bob", "ann"):
        move = a_move(played)
        apply(played, Play(move), by, AT)
        commands.append((Play(move), by))
    steps, at_once, _ = one_by_one_and_at_once(start, commands)
    assert at_once == steps
    assert [(c.change, c.by, c.move) for c in at_once] == [
        (Change.MOVE, by, command.move)  # type: ignore[attr-defined]
        for command, by in commands
    ]


def test_the_pie_rules_swap_changes_who_holds_each_colour_in_the_news() -> None:
    start = room_session("petrify")
    apply(start, Join(), "bob", AT)
    first = a_move(start)
    swapped = twin(start)
    apply(swapped, Play(first), "ann", AT)
    apply(swapped, Play("swap"), "bob", AT)
    answer = a_move(swapped)  # ann now plays the second colour: her move
    commands: list[tuple[Command, str]] = [
        (Play(first), "ann"),
        (Play("swap"), "bob"),
        (Play(answer), "ann"),
    ]
    steps, at_once, _ = one_by_one_and_at_once(start, commands)
    assert at_once == steps
    assert [c.by for c in at_once] == ["ann", "bob", "ann"]


def test_a_join_komi_a_side_and_a_resignation_are_told_as_they_came() -> None:
    start = room_session("linage")
    assert start.phase is Phase.KOMI
    commands: list[tuple[Command, str]] = [
        (Join(), "bob"),
        (SetKomi(3.5), "ann"),
        (ChooseSide(1), "bob"),
    ]
    chosen = twin(start)
    for command, by in commands:
        apply(chosen, command, by, AT)
    for _ in range(2):
        mover, move = chosen.person(chosen.game.turn), a_move(chosen)
        apply(chosen, Play(move), mover, AT)
        commands.append((Play(move), mover))
    commands.append((Resign(), "bob"))
    steps, at_once, caught_up = one_by_one_and_at_once(start, commands)
    assert at_once == steps
    assert [c.change for c in at_once] == [
        Change.PHASE,
        Change.PHASE,
        Change.PHASE,
        Change.MOVE,
        Change.MOVE,
        Change.END,
    ]
    assert caught_up.over and "bob resigned" in caught_up.ended_text()


def test_a_take_back_accepted_is_another_position_then_its_answer_by_whom() -> None:
    start = room_session("petrify")
    apply(start, Join(), "bob", AT)
    for by in ("ann", "bob"):
        apply(start, Play(a_move(start)), by, AT)
    apply(start, Takeback(Takeback.OFFER), "bob", AT)
    steps, at_once, caught_up = one_by_one_and_at_once(start, [(Takeback(Takeback.ACCEPT), "ann")])
    assert at_once == steps == [Changed(Change.STEP), Changed(Change.OFFER, by="ann")]
    assert caught_up.move_number() == 1 and caught_up.offers == {}


def test_nothing_to_tell_but_the_position_shown_again() -> None:
    start = room_session("petrify")
    apply(start, Join(), "bob", AT)
    _, at_once, _ = one_by_one_and_at_once(start, [])
    assert at_once == [Changed(Change.STEP)]
