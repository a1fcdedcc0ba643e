"""mkdocs's hooks for the docs site (mkdocs.yml names this file).

A table cell's code with a pipe in it is written `a\\|b`, as GitHub reads it; Python-
Markdown's tables would show the backslash. The hook gives such code to the page as HTML,
the pipe as an entity, so that both show `a|b`.
"""

from __future__ import annotations

import html
import re
from typing import Any

CODE_WITH_PIPE = re.compile(r"`([^`\n]*\\\|[^`\n]*)`")


def piped_code(match: re.Match[str]) -> str:
    """A code span with escaped pipes as inline HTML."""
    return "<code>" + html.escape(match[1].replace("\\|", "|")).replace("|", "&#124;") + "</code>"


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Each table row's code spans with escaped pipes, made HTML."""
    return "\n".join(
        CODE_WITH_PIPE.sub(piped_code, line) if line.startswith("|") else line
        for line in markdown.split("\n")
    )
