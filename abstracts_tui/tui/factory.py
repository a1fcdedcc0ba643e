"""The one place the app is built: the `abstracts-tui` command, the browser's visitors and
the tests get their app from here, so that what the tests drive is what users get. The
SSH server's app is this app with the lobby at home (`tui.rooms.app.ServerApp`, which the
server builds for each connection, and its tests reach through real SSH clients)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

from .app import AbstractsApp
from .policy import Policy
from .settings import Settings, load_settings

if TYPE_CHECKING:
    from ..game_setup import Setup
    from .hangup import Hangup


def build_app(
    setup: Setup | None = None,
    *,
    load: str | None = None,
    ascii: bool = False,
    data: Path | None = None,
    settings: Settings | None = None,
    hangup: Hangup | None = None,
) -> AbstractsApp:
    """The app of `abstracts-tui`: the selection screen, or `setup`'s game started, or
    the record at `load` opened; games in progress kept in `data` (by default the
    user's data folder); `settings` by default from the user's settings file. In a
    terminal of its own, `hangup` (installed) ends it with its terminal."""
    settings = settings if settings is not None else load_settings()
    settle_imports()
    return AbstractsApp(
        setup,
        load=load,
        ascii=ascii,
        data=data,
        policy=Policy(),
        settings=settings,
        hangup=hangup,
    )


_settled = False


def settle_imports() -> None:
    """Leave the objects made before the first app (the modules, classes and functions
    imported, which live as long as the process) out of the garbage collector's passes:
    building the first screen makes enough objects to start several passes, and each one
    walked them all again (about a sixth of the first screen's time). Once a process:
    what later apps leave behind stays collectable."""
    global _settled
    if not _settled:
        _settled = True
        gc.freeze()


WEB_REFUSAL = (
    "Loading a file is not available in the browser: the server's disk is not yours. "
    "ctrl+s downloads the game's record to your machine."
)


def build_web_app(data: Path) -> AbstractsApp:
    """The app of one visitor of `abstracts-tui web`: games in progress kept in the
    visitor's own folder `data`, records saved by downloading them, none loaded from the
    server's disk, and the default settings (the server's settings file is not theirs)."""
    policy = Policy(files=False, files_refusal=WEB_REFUSAL, download=True)
    return AbstractsApp(data=data, policy=policy, settings=Settings())
