"""The one place the app is built: the `abstracts-tui` command, the SSH server and the
tests all get their app from here, so that what the tests drive is what users get."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .app import AbstractsApp, Policy
from .settings import Settings, load_settings

if TYPE_CHECKING:
    from ..game_setup import Setup
    from ..ssh.app import Command, ServerApp, Terminal
    from ..ssh.driver import Channel
    from ..ssh.rooms import Rooms


def build_app(
    setup: Setup | None = None,
    *,
    load: str | None = None,
    ascii: bool = False,
    data: Path | None = None,
    settings: Settings | None = None,
) -> AbstractsApp:
    """The app of `abstracts-tui`: the selection screen, or `setup`'s game started, or
    the record at `load` opened; games in progress kept in `data` (by default the
    user's data folder); `settings` by default from the user's settings file."""
    settings = settings if settings is not None else load_settings()
    return AbstractsApp(
        setup, load=load, ascii=ascii, data=data, policy=Policy(), settings=settings
    )


def build_server_app(
    *,
    user: str,
    rooms: Rooms,
    channel: Channel,
    terminal: Terminal,
    address: str,
    data: Path,
    command: Command | None = None,
) -> ServerApp:
    """The app of one SSH connection: the lobby at home, rooms, no files."""
    from ..ssh.app import ServerApp

    return ServerApp(
        user=user,
        rooms=rooms,
        channel=channel,
        terminal=terminal,
        address=address,
        data=data,
        command=command,
    )
