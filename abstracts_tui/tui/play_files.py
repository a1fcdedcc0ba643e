"""The play screen's records: saving the game (to a file, or a download in a browser),
opening one, leaving for the selection screen or the lobby, the count in full."""

from __future__ import annotations

import io
from pathlib import Path

from .dialogs.reading import ReadingDialog
from .messages import LoadRequested, NewGameRequested
from .play_host import PlayHost
from .widgets.game_panel import count_text


def save(host: PlayHost) -> None:
    """Save the record where the player chooses (in a browser: download it)."""
    session, say = host.session, host.say
    default = f"{host.game.info.name}-{session.record.date or 'game'}.sgf"
    if host.seat.download:  # the browser saves it on the visitor's machine
        record = io.StringIO(session.record.to_sgf())
        host.app.deliver_text(record, save_filename=default, mime_type="application/x-go-sgf")
        say(f"Saved: your browser downloads {default}")
        return

    def chosen(path: str | None) -> None:
        if path is None:
            return
        try:
            session.save(path)
        except OSError as error:
            say(f"Not saved: {error.strerror or error} ({path})")
            return
        say(f"Saved to {Path(path).resolve()}")

    from .dialogs.save_record import SaveRecordDialog

    host.app.push_screen(SaveRecordDialog(Path.cwd(), default, ascii=host.ascii), chosen)


def load(host: PlayHost) -> None:
    """Open a record the player chooses (the recent ones listed first)."""
    from ..recent import RecentRecords
    from .dialogs.open_record import OpenRecordDialog

    def chosen(path: str | None) -> None:
        if path is not None:
            host.post_message(LoadRequested(path))

    data = getattr(host.app, "data", None)
    recent = RecentRecords(data).read() if isinstance(data, Path) else []
    host.app.push_screen(OpenRecordDialog(recent, Path.cwd(), ascii=host.ascii), chosen)


def new_game(host: PlayHost) -> None:
    """Back to the selection screen; an unfinished game stays in progress (ctrl+r there
    lists the games in progress to resume)."""
    session, shared = host.session, host.seat.shared
    if not shared:
        session.pause_clock()
    if not shared and host.game.moves and not session.over:
        host.app.notify(
            "This game is kept: Esc comes back to it, ctrl+r resumes it later.", markup=False
        )
    host.post_message(NewGameRequested())


def count(host: PlayHost) -> None:
    """The whole count in a box that scrolls: every patch, region or group, which the
    panel of a small terminal has not the room for."""
    game = host.game
    title = "How the game was counted" if game.is_over() else "The count as it stands"
    host.app.push_screen(ReadingDialog(title, count_text(game)))
