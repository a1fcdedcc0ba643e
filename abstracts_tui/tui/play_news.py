"""What the play screen's status line says of a change of the game: a move, komi, a side,
the clock, a room's events, the autosave's trouble. Plain functions of the session and
what changed, and `News`, which says them on one screen."""

from __future__ import annotations

from collections.abc import Callable

from ..play.sentences import komi_words, played_words, side_words, time_up_words
from ..rooms.events import Event, KomiSet, MovePlayed, SideChosen, Stamped, Swapped
from ..rooms.play import kept_again_text, not_kept_text
from ..session import Change, Changed, Phase, Session
from .keymaps import key_of
from .play_host import PlayHost


def move_news(
    session: Session,
    changed: Changed,
    *,
    analysing: bool,
    thought: float | None,
    kept: str,
    words: str | None = None,
) -> str:
    """The move said as line mode says it, and whose turn it is now: `Blue (Ann) plays
    c3. Orange to move (Bob).`, for every screen showing the game; `thought`: how long
    the computer thought over the move if it played it; `kept`: where a game that ends so
    is kept; `words`: the move's sentence where it is already said (a room's event)."""
    game = session.game
    if words is None:
        name = changed.move or session.node.move or ""
        # In a variation whoever sits here moves for either side: the colour alone.
        person = None if analysing and changed.mover is not None else changed.by
        words = played_words(session, name, changed.mover, person, thought)
    if game.is_over():
        outcome = game.outcome()
        assert outcome is not None
        ended = f"{words} Game over. {session.turn_text()}: {outcome.reason}"
        return f"{ended.rstrip('.')}.{kept}" if kept else ended
    return f"{words} {session.turn_text()}."


def computer_moved(session: Session, changed: Changed) -> bool:
    """Whether `changed` is a move the computer played (it is said with its time)."""
    return bool(changed.by and session.level(changed.by))


def phase_news(session: Session, changed: Changed) -> str:
    """`Ann sets komi to 4.`, `Bob takes Orange. Blue to move (Ann).`"""
    game = session.game
    if session.phase is Phase.SIDE:
        return komi_words(changed.by or session.people[0], game.options.komi)
    if session.phase is Phase.PLAY and changed.by is not None:
        side = side_words(changed.by, game, 0 if session.person(0) == changed.by else 1)
        return f"{side} {session.turn_text()}."
    return ""


def room_event_news(
    session: Session, event: Event, moved: Callable[[Changed, str], str]
) -> str | None:
    """A room's move, komi or side in the screen's words (a move's by `moved`, with the
    event's sentence); None for the room's other events, which online play says."""
    match event:
        case MovePlayed(by=by, colour=colour, move=move, words=words):
            return moved(Changed(Change.MOVE, colour, by, move), words)
        case Swapped(by=by, words=words):
            return moved(Changed(Change.MOVE, None, by, "swap"), words)
        case KomiSet(by=by, komi=komi):
            return komi_words(by, komi)
        case SideChosen(by=by, colour_name=colour):
            return f"{by} takes {colour}. {session.turn_text()}."
    return None


def kept_words(recent_key: str, save_key: str | None) -> str:
    """Where a game that ended is kept (the recent games, `recent_key` on the home screen)
    and how to save it (`save_key`, None where files are not written)."""
    save = f"; {save_key} saves it as a record" if save_key is not None else ""
    return f" It is kept in the recent games ({recent_key} on the home screen){save}."


def saving_news(problem: str | None, held: bool, save_key: str | None) -> str:
    """What the status line says once when the game stops being saved (`problem`; a room's
    clocks `held` meanwhile; `save_key` saves a copy, None where files are not written),
    or is saved again (`problem` None)."""
    if problem is None:
        return kept_again_text(held)
    # A room's problem says itself what becomes of moves; a player who may write files is
    # told how to keep a copy meanwhile.
    after = f" Play goes on; {save_key} saves a copy elsewhere." if save_key else ""
    return f"{not_kept_text(problem, held)}{after}"


class News:
    """The sentences of one play screen (`host`) on what changed."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def of(self, changed: Changed) -> str | None:
        """What to say of a change of the session; None: nothing (a room's news comes as
        its events, `room_events`, its game's change before them)."""
        host = self.host
        if host.online is not None:
            return None
        if changed.change is Change.MOVE:
            return self.move(changed)
        if changed.change is Change.PHASE:
            return phase_news(host.session, changed)
        if changed.change is Change.FLAG:
            return f"{time_up_words(host.session)}{self.kept()}"
        return None

    def move(self, changed: Changed, words: str | None = None) -> str:
        """`Blue (Ann) plays c3. Orange to move (Bob).`, the computer's with its time
        (`words`: the move's sentence, where a room's event says it)."""
        host = self.host
        thought = host.thought if computer_moved(host.session, changed) else None
        if thought is not None:
            host.thought = None
        kept = self.kept() if host.game.is_over() else ""
        return move_news(
            host.session,
            changed,
            analysing=host.analysing,
            thought=thought,
            kept=kept,
            words=words,
        )

    def kept(self) -> str:
        """Where a game that ended here is kept and how to save it; the empty text in a
        room or a variation of analysis."""
        from .screens.select import SelectScreen

        host = self.host
        if host.online is not None or host.analysing or host.session.autosave_path is None:
            return ""
        recent = key_of(host.app, "select.recent", SelectScreen)
        return kept_words(recent, host.key("play.save") if host.seat.files else None)

    def saving(self) -> tuple[str | None, object]:
        """Why the game is not being saved (None while it is) and where it is: a room's
        as its keeper says, else the session's own autosave."""
        host = self.host
        if host.online is not None:
            return host.online.saving()
        return host.session.save_problem, host.session.autosave_path

    def room_events(self, events: list[Stamped]) -> None:
        """Each of the room's events as the screen says it: the moves, komi and sides in
        the screen's words, the rest as online play says it."""
        online = self.host.online
        if online is None:
            return
        for stamped in events:
            news = room_event_news(self.host.session, stamped.event, self.move)
            if news is None:
                online.heard(stamped.event)
            else:
                self.host.say(news)
