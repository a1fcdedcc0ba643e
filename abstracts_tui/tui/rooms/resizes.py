"""How often an app served over a channel (SSH's, or a browser's page) is laid out for
a new size of its terminal: the sizes themselves are bounded by the server
(`server.limits`, `server.web.limits`)."""

from __future__ import annotations

RESIZE_SECONDS = 0.1
RESIZE_CELLS = 10_000
"""The least time between two layouts for new sizes is `RESIZE_SECONDS` for every
`RESIZE_CELLS` cells of the new size (0.1 s up to 125x80, 1 s at 500x200): a window
dragged, or a client sending a thousand window changes (over SSH, or "resize" messages
from a browser's page), is laid out for the last size in each such time, not for every
size it went through. A layout costs the app's process time in proportion to the cells
(up to a tenth of a second at 500x200 on a small machine), which it shares with the
other sessions and the server: so one client's resizes take about a tenth of a core."""


def layout_spacing(width: int, height: int) -> float:
    """The least seconds between a layout and the next, for a new size of `width` x
    `height` (see `RESIZE_CELLS`)."""
    return RESIZE_SECONDS * max(1.0, width * height / RESIZE_CELLS)
