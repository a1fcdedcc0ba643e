"""Signing in to the rooms from a browser (`serve --web`): the names and passwords of SSH.

The rule is SSH's (`ssh.auth.auth_required`, for the address the web listens on): given
passwords are always asked for; without them, on loopback or with `--open`, a name is
enough. A server that takes keys only cannot be reached from a browser (a page has no SSH
key): `--web` is refused there. Passwords are checked by the server's `Guesses`, so that
one budget of wrong guesses per address holds for SSH and the web together, with the same
sentences.

A browser that signed in holds a random token in an HttpOnly cookie; the server keeps
which name each token is for, in memory (a restart signs everybody out), at most
`MAX_SIGNED_IN` of them, each for `SIGNED_IN_SECONDS`, or until the browser signs out
(the page's closed dialog offers it: its pages end, the cookie is cleared).
"""

from __future__ import annotations

import html
import secrets
import time
from collections import OrderedDict

from .ssh.auth import valid_name
from .ssh.guesses import Guesses, TooManyGuesses

COOKIE = "abstracts_tui_player"
SIGNED_IN_SECONDS = 7 * 24 * 3600.0
"""How long a browser stays signed in."""
MAX_SIGNED_IN = 10_000
"""Browsers signed in at once: beyond it, the oldest sign-in is forgotten (that browser
signs in again), so that a flood of sign-ins costs a bounded table."""
MAX_FORM = 4096
"""The longest sign-in form the server reads, in bytes."""
MAX_PASSWORD = 1024
"""The longest password checked (longer ones are wrong without being hashed)."""


class SignInRefused(Exception):
    """The name or password is refused (the text is the sentence the form shows)."""


def bad_name(name: str) -> str:
    """SSH's sentence for a name that cannot be a player's."""
    return f"{name[:40]!r} cannot be a player's name: use 1 to 24 letters, digits, '.', '_' or '-'."


class SignIns:
    """Who signed in, by their browser's token."""

    def __init__(self, guesses: Guesses, *, passwords: bool) -> None:
        self.guesses = guesses
        self.passwords = passwords
        """Whether a password is asked for (else a name is enough)."""
        self.names: OrderedDict[str, tuple[str, float]] = OrderedDict()
        """Token: (name, until when), oldest first."""

    async def sign_in(self, address: str, name: str, password: str) -> str:
        """A new token for `name`, once its password is checked (from `address`, within
        its budget of guesses); SignInRefused with the sentence to show otherwise."""
        if not valid_name(name):
            raise SignInRefused(bad_name(name))
        if self.passwords:
            try:
                right = len(password) <= MAX_PASSWORD and await self.guesses.check(
                    address, name, password
                )
            except TooManyGuesses as refusal:
                raise SignInRefused(
                    f"Too many wrong passwords from your address: {refusal}."
                ) from None
            if not right:
                raise SignInRefused("Wrong name or password.")
        token = secrets.token_hex(16)
        while len(self.names) >= MAX_SIGNED_IN:
            self.names.popitem(last=False)
        self.names[token] = (name, time.monotonic() + SIGNED_IN_SECONDS)
        return token

    def sign_out(self, token: str) -> str | None:
        """Forget `token` (its browser signs in again); the name it was for, if any."""
        found = self.names.pop(token, None)
        return None if found is None else found[0]

    def who(self, token: str) -> str | None:
        """The name the token is for, while it holds."""
        found = self.names.get(token)
        if found is None:
            return None
        name, until = found
        if time.monotonic() > until:
            del self.names[token]
            return None
        return name


def form_page(*, passwords: bool, name: str = "", refusal: str = "") -> str:
    """The sign-in page: a name (and a password where one is asked for), and why the last
    try was refused."""
    password = (
        '<label>Password <input name="password" type="password" '
        'autocomplete="current-password" required></label>'
        if passwords
        else "<p>This server asks for no password: your name is enough.</p>"
    )
    said = f'<p class="refused" role="alert">{html.escape(refusal)}</p>' if refusal else ""
    return FORM.format(name=html.escape(name), password=password, refused=said)


FORM = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>abstracts-tui: sign in</title>
    <link rel="icon" href="data:,">
    <style>
      body {{ margin: 0; min-height: 100vh; display: flex; align-items: center;
        justify-content: center; background: #0c181f; color: rgba(255, 255, 255, 0.95);
        font: 16px menlo, monospace; }}
      form {{ padding: 32px 48px; background: #12232d; display: flex;
        flex-direction: column; gap: 16px; max-width: 30em; }}
      label {{ display: flex; flex-direction: column; gap: 4px; }}
      input {{ font: inherit; padding: 8px; }}
      button {{ font: inherit; padding: 12px; color: inherit; background: #5e0ba7;
        border: none; cursor: pointer; }}
      .refused {{ color: #ff8a80; }}
    </style>
  </head>
  <body>
    <form method="post" action="signin">
      <h1>abstracts-tui</h1>
      <p>Sign in with your name on this server's SSH rooms.</p>
      {refused}
      <label>Name <input name="name" value="{name}" autocomplete="username"
        maxlength="24" required autofocus></label>
      {password}
      <button type="submit">Sign in</button>
    </form>
  </body>
</html>
"""
