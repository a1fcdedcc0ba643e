"""One visitor's app for `abstracts-tui web` (`python -m abstracts_tui.web_visitor FOLDER`):
textual-serve runs it with its web driver, and the folder keeps the visitor's games."""

from __future__ import annotations

import sys
from pathlib import Path

from .ssh.files import own_folder
from .ssh.limits import ConfigError
from .tui.factory import build_web_app


def main() -> None:
    folder = Path(sys.argv[1])
    try:
        own_folder(folder)
    except ConfigError as error:
        sys.exit(f"abstracts-tui: {error}")
    build_web_app(folder).run()


if __name__ == "__main__":
    main()
