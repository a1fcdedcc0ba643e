"""One visitor's app for `abstracts-tui web`
(`python -m abstracts_tui.server.web.visitor FOLDER`): textual-serve runs it with its web
driver, and the folder keeps the visitor's games."""

from __future__ import annotations

import os
import sys
from pathlib import Path

NICENESS = 5
"""How much lower than the server's each visitor's app runs: the server relays every
page's bytes, so that an app busy with its own work (a screen of 500 x 200, the computer
thinking, a page's flood) leaves it the cores first, and the other pages their answers."""


def main() -> None:
    os.nice(NICENESS)  # first, before the app's modules load
    from ...tui.factory import build_web_app
    from ..files import own_folder
    from ..limits import ConfigError

    folder = Path(sys.argv[1])
    try:
        own_folder(folder)
    except ConfigError as error:
        sys.exit(f"abstracts-tui: {error}")
    build_web_app(folder).run()


if __name__ == "__main__":
    main()
