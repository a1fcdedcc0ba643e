"""`serve --smtp HOST:PORT --smtp-from ADDRESS [--smtp-user NAME]` checked: the server's
way to send the players' notices by e-mail (`notify_send.Smtp`)."""

from __future__ import annotations

import os
import socket

from .limits import listen_address
from .notify_send import PASSWORD_VARIABLE, Smtp
from .notify_setting import MAILTO, SettingError, check_address


def smtp_of(
    smtp: str | None, sender: str | None, user: str | None, default_host: str
) -> Smtp | None:
    """The SMTP settings the options give (None: no e-mail); raises ValueError with one
    sentence for options that do not go together or cannot be read."""
    if smtp is None:
        if sender is not None or user is not None:
            raise ValueError("--smtp-from and --smtp-user go with --smtp HOST:PORT")
        return None
    try:
        host, port = listen_address(smtp, default_host)
    except ValueError as error:
        raise ValueError(f"--smtp: {error}") from None
    if port == 0:
        raise ValueError("--smtp: give the mail server's port (25, 587, ...), not 0")
    if sender is None:
        sender = f"abstracts-tui@{socket.getfqdn()}"
    try:
        check_address(MAILTO + sender)
    except SettingError as error:
        raise ValueError(f"--smtp-from: {error}") from None
    password = os.environ.get(PASSWORD_VARIABLE)
    if user is not None and not password:
        raise ValueError(f"--smtp-user: give the password in the variable {PASSWORD_VARIABLE}")
    return Smtp(host, port, sender, user, password if user is not None else None)
