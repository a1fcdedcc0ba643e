"""The play screen's keys: its bindings, its modes, and which actions belong to which
mode or kind of game (the screen's `check_action` decides from these).

The help and the settings list these bindings by their ids.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from textual.app import App
from textual.binding import Binding, BindingType

from .keymaps import bound
from .widgets.board import BoardView
from .widgets.game_panel import COUNT_KEY


class Mode(Enum):
    """What the play screen is for now."""

    PLAY = "play"
    """The game is played: the computer players move, the clock runs."""
    ANALYSIS = "analysis"
    """Moves start variations, the computer players wait, the clock is held, and the
    position shown is searched continuously."""


ANALYSIS_ONLY = {"study"}
"""Actions of analysis mode: `study(command, ...)`, routed to `study_keys.StudyKeys`."""
PLAY_ONLY = {"hint", "new_game", "load"}
"""Actions left out of analysis mode, whose footer needs the room (x leaves it first)."""
OWN_GAME_ONLY = {"undo", "redo", "hint", "toggle_analysis", "setup", "save", "load", "seats"}
"""Actions a shared game has not: the position is everyone's, the server's disk nobody's."""
FILE_ACTIONS = {"save", "load"}
ROOM_ACTIONS = {
    "room('takeback')",
    "room('abort')",
    "room('resign')",
    "room('rematch')",
    "room('chat')",
    "room('draw')",
    "room('claim')",
    "room('claim_draw')",
}
"""Actions of a room's online play (`room_keys.RoomKeys`): on keys of actions a room has
not (undo, analysis, redo, a comment)."""
ROOM_WHEN = {
    "room('takeback')": "a player, after a move of theirs, until the game is over",
    "room('abort')": "a player, before each side has moved",
    "room('resign')": "a player, once each side has moved",
    "room('rematch')": "a player, once the game is over",
    "room('draw')": "a player, in a game that can end equal, until it is over",
}
"""When a room's key works, as the help says it of a key that does not work now."""
MOVE_ACTIONS = {"move_line", "pass_turn"}
"""Actions of somebody who plays (a watcher has none)."""

BINDINGS: list[BindingType] = [
    # Priority: the app runs it before it hands on the next key, so that keys typed
    # in one burst after ':' (pasted, or fast over SSH) reach the move line.
    Binding("colon", "move_line", "Type", id="play.move_line", key_display=":", priority=True),
    # The pie rule's answers where its question is not in sight (the compact view
    # without its panel, which the question lives in): ahead of the board's keys.
    Binding("s", "pie(True)", "Swap", id="play.pie_swap", show=False, priority=True),
    Binding("p,enter", "pie(False)", "Play on", id="play.pie_play_on", show=False, priority=True),
    Binding("p", "pass_turn", "Pass", id="play.pass"),
    # Where passing is not allowed the footer leaves `p` out; pressed, it says why.
    Binding("p", "refuse_pass", "Pass", id="play.no_pass", show=False),
    Binding("u,ctrl+z", "undo", "Undo", id="play.undo"),
    Binding("r,ctrl+y", "redo", "Redo", id="play.redo", show=False),
    Binding("b", "hint", "Hint", id="play.hint", show=False),
    Binding("C", "seats", "Who plays", id="play.seats", show=False),
    Binding("t", "toggle_score", "Score", id="play.score", show=False),
    Binding(COUNT_KEY, "count", "The count in full", id="play.count", show=False),
    Binding("x", "toggle_analysis", "Analysis", id="play.analysis"),
    Binding("i", "toggle_panel", "Panel", id="play.panel"),
    Binding("escape", "cancel", "Cancel", id="play.cancel", show=False),
    Binding("n", "new_game", "New", id="play.new"),
    Binding("n", "lobby", "Lobby", id="play.lobby"),  # in a shared game, for `New`
    Binding("ctrl+s", "save", "Save", id="play.save", key_display="^s"),
    Binding("ctrl+o", "load", "Load", id="play.load", key_display="^o"),
    Binding("question_mark,f1", "help", "Help", id="play.help", key_display="?"),
    Binding("f2", "app.settings", "Settings", id="play.settings", key_display="F2"),
    Binding("ctrl+e", "setup", "Set up", id="study.setup", show=False),
    Binding("y", "position", "Position", id="study.position", show=False),
    Binding(
        "left_square_bracket", "study('back')", "Back", id="study.back", key_display="[", show=False
    ),
    Binding(
        "right_square_bracket",
        "study('forward')",
        "Forward",
        id="study.forward",
        key_display="]",
        show=False,
    ),
    Binding("home", "study('to_start')", "Start", id="study.start", show=False),
    Binding("pageup", "study('leap', -10)", "Ten moves back", id="study.back_ten", show=False),
    Binding("pagedown", "study('leap', 10)", "Ten moves on", id="study.forward_ten", show=False),
    Binding("end", "study('to_end')", "End", id="study.end", show=False),
    Binding("g", "study('jump')", "Go to", id="study.jump", show=False),
    Binding(
        "number_sign",
        "study('graph')",
        "Graph: chance or lead in points",
        id="study.graph",
        key_display="#",
        show=False,
    ),
    Binding("v", "study('variation', 1)", "Variation", id="study.next_variation", show=False),
    Binding(
        "V",
        "study('variation', -1)",
        "Previous variation",
        id="study.previous_variation",
        show=False,
    ),
    Binding("m", "study('main_line')", "Back to the main line", id="study.main_line", show=False),
    Binding(
        "M", "study('promote')", "Make this line the main line", id="study.promote", show=False
    ),
    Binding("delete", "study('delete_variation')", "Delete", id="study.delete", show=False),
    Binding("semicolon", "study('comment')", "Comment", id="study.comment", key_display=";"),
    Binding(
        "percent_sign",
        "study('review')",
        "Review the line (again: stop)",
        id="study.review",
        key_display="%",
        show=False,
    ),
    Binding(
        "full_stop",
        "study('mistake', 1)",
        "The review's next mistake",
        id="study.next_mistake",
        show=False,
    ),
    Binding(
        "comma",
        "study('mistake', -1)",
        "The review's previous mistake",
        id="study.previous_mistake",
        show=False,
    ),
    # In the footer once there is a review (`check_action`).
    Binding(
        "exclamation_mark",
        "study('biggest_mistake')",
        "Worst move",
        id="study.biggest_mistake",
        key_display="!",
        tooltip="The review's biggest mistake; again: the next biggest",
    ),
    # A room's: each on a key whose own action a shared game has not (see
    # ROOM_ACTIONS), and last, so that the footer keeps its order elsewhere.
    Binding("u,ctrl+z", "room('takeback')", "Take back", id="room.takeback"),
    Binding("x", "room('abort')", "Abort", id="room.abort"),
    Binding("x", "room('resign')", "Resign", id="room.resign"),
    Binding("r", "room('rematch')", "Rematch", id="room.rematch"),
    Binding("semicolon", "room('chat')", "Chat", id="room.chat", key_display=";"),
    Binding("equals_sign", "room('draw')", "Draw", id="room.draw", key_display="="),
    Binding("W", "room('claim')", "Claim win", id="room.claim"),
    Binding("D", "room('claim_draw')", "Claim draw", id="room.claim_draw"),
]


def first_tip(app: App[Any], key: Callable[[str], str], hints: bool) -> str:
    """How to play, with the keys bound now in `app` (`key` names them) and only the keys
    that work here (`hints`: the hint's)."""
    ways = ["left", "right", "up", "down"]
    arrows = [bound(app, f"board.{way}", BoardView)[0] for way in ways] == ways
    moving = "Arrow keys" if arrows else " ".join(key(f"board.{way}") for way in ways)
    hint = f"; {key('play.hint')} hints" if hints else ""
    return (
        f"{moving} move the cursor, {key('board.activate')} plays there{hint}; "
        f"{key('play.help')} lists every key."
    )


def analysis_tip(key: Callable[[str], str], setup: bool, leave: bool) -> str:
    """The keys of analysis mode, as bound now (`setup`, `leave`: whether setting up and
    leaving analysis are possible here)."""
    set_up = f", {key('study.setup')} set up" if setup else ""
    leaving = f"; {key('play.analysis')} leaves" if leave else ""
    return (
        f"Analysis: {key('study.back')} {key('study.forward')} step, "
        f"{key('study.jump')} go to, {key('study.next_variation')} variations, "
        f"{key('study.comment')} comment, {key('study.position')} position{set_up}; "
        f"moves start variations{leaving}."
    )
