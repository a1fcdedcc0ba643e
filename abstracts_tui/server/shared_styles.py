"""Textual's parsed styles kept once for every session forked from the forkserver.

Each Textual app reads its styles (the app's, each screen's `.tcss` file, each widget's
default CSS) into a stylesheet of its own, and parses every source again whenever a
screen brings a new one (`Stylesheet.reparse` starts from an empty stylesheet, whose
cache of parsed sources is empty). In a session's process that is about 0.3 MiB of
rules in the lobby and 0.5 in a room, made again in every session, with the garbage of
parsing them besides. Here the parsed rules are kept in one table for the process,
filled by the forkserver's warm-up: a session forked after it finds the rules it needs
already there, shared with the forkserver (`warm.immortalize`) and every other session,
and parses only what the warm-up never read.

The rules of one source are what they were when parsed: Textual already hands the same
list to every parse of a stylesheet that asks for it again, and reads them only. A source
is parsed again under other CSS variables (another theme): they are in the key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.css.stylesheet import Stylesheet

LIMIT = 512
"""The most sources kept (the app's screens and widgets read about 60; a theme changed
reads them again under its own variables)."""

PARSED: dict[tuple[object, ...], Any] = {}
"""Parsed rules by source, position and variables, for every stylesheet of the process."""

PARAMETERS = ("self", "css", "read_from", "is_default_rules", "tie_breaker", "scope")
"""What `Stylesheet._parse_rules` takes, in the Textual this was written for."""

_shared = False


def share_parsed_styles() -> bool:
    """Make every stylesheet of this process take parsed sources from `PARSED` (and put
    its own there); whether that is so now. Fallback: where `Stylesheet._parse_rules`
    takes other arguments than it did in the Textual this was written for, each
    stylesheet parses its own, as Textual does."""
    global _shared
    if _shared:
        return True
    parse: Callable[..., Any] = Stylesheet._parse_rules
    code = getattr(parse, "__code__", None)
    if code is None or code.co_varnames[: code.co_argcount] != PARAMETERS:
        return False

    def _parse_rules(
        self: Stylesheet,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> Any:
        variables = tuple(sorted(self._variables.items()))
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
        rules = PARSED.get(key)
        if rules is None:
            rules = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(PARSED) < LIMIT:
                PARSED[key] = rules
        return rules

    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]
    _shared = True
    return True
