"""The `notify` command, the same from `ssh -T host notify ...`, line mode's lobby and the
full-screen lobby's notices dialog: shows or changes how a player is told of their games
while away (`notify_setting`), kept in the store (`store.notices`). Blocks (run it off
the event loop); raises StoreError when the store cannot be read or written."""

from __future__ import annotations

from ..store import Store
from ..store.notices import NoticeRow, keep_setting, setting
from .notify_setting import Quiet, Setting, SettingError, changed, said

WORDS_LIMIT = 3
"""The most words after `notify` (`quiet 22-7 +2` is three)."""


def read(store: Store, name: str) -> Setting:
    """Player `name`'s setting as kept."""
    row = setting(store, name)
    quiet = Quiet(*row.quiet) if row.quiet is not None else None
    return Setting(row.target, quiet)


class Mail:
    """Whether this server sends e-mail (`serve --smtp`): set once its notifier starts."""

    sent = False


def notify(store: Store, name: str, words: list[str]) -> tuple[str, bool]:
    """What `notify WORDS` by player `name` says, and whether it was taken (False: one
    sentence saying why not, and nothing changed)."""
    if len(words) > WORDS_LIMIT:
        return "Too many words: notify takes at most three (notify quiet 22-7 +2).", False
    before = read(store, name)
    try:
        after = changed(before, words)
    except SettingError as error:
        return str(error), False
    if after is None:
        return before.text(), True
    quiet = after.quiet
    keep_setting(
        store,
        name,
        NoticeRow(after.target, None if quiet is None else (quiet.start, quiet.end, quiet.offset)),
    )
    return said(before, after, mail=Mail.sent), True
