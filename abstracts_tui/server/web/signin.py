"""Signing in to the rooms from a browser (`serve --web`): the names and passwords of SSH.

The rule is SSH's (`server.auth.auth_required`, for the address the web listens on): given
passwords are always asked for; without them, on loopback or with `--open`, a name is
enough. A server that takes keys only cannot be reached from a browser (a page has no SSH
key): `--web` is refused there. Passwords are checked by the server's `Guesses`, so that
one budget of wrong guesses per address holds for SSH and the web together, with the same
sentences.

A browser that signed in holds a random token in an HttpOnly cookie; the server keeps
which name each token is for, in memory (a restart signs everybody out), at most
`MAX_SIGNED_IN` of them, each for `SIGNED_IN_SECONDS`, or until the browser signs out
(the page's closed dialog offers it: its pages end, the cookie is cleared).

One address (IPv6: one /64) signs in at most `SIGN_IN_BURST` times at once, then
`SIGN_IN_RATE` times a second, and holds at most `SIGNED_IN_PER_ADDRESS` sign-ins: its
own oldest is forgotten to make room for its newest. When the server holds
`MAX_SIGNED_IN`, the oldest sign-in of the address that holds the most goes. So a flood
of sign-ins from one address never signs anybody else out.
"""

from __future__ import annotations

import html
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ...rates import TokenBucket
from ..auth import auth_required, valid_name
from ..guesses import Guesses, TooManyGuesses
from ..limits import ConfigError

if TYPE_CHECKING:
    from aiohttp import web

    from ..ssh.server import Server

COOKIE = "abstracts_tui_player"
SIGNED_IN_SECONDS = 7 * 24 * 3600.0
"""How long a browser stays signed in."""
MAX_SIGNED_IN = 10_000
"""Browsers signed in at once: beyond it, the oldest sign-in of the address that holds
the most is forgotten (that browser signs in again), so that a flood of sign-ins costs a
bounded table."""
SIGNED_IN_PER_ADDRESS = 100
"""Sign-ins one address (IPv6: one /64) holds at once: beyond it, its own oldest is
forgotten. A household or an office behind one address has a browser each."""
SIGN_IN_BURST = 10
SIGN_IN_RATE = 10 / 60
"""Sign-ins from one address: `SIGN_IN_BURST` at once, then `SIGN_IN_RATE` a second (one
every 6 s); beyond, the form says when to try again. Wrong passwords have their own,
stricter budget (`server.guesses`), shared with SSH."""
KEPT_RATES = 4096
"""Addresses whose sign-ins are counted at most: beyond it, those with their whole burst
left are forgotten first, then the oldest."""
MAX_FORM = 4096
"""The longest sign-in form the server reads, in bytes."""
MAX_PASSWORD = 1024
"""The longest password checked (longer ones are wrong without being hashed)."""
NEXT = re.compile(r"room/[a-z0-9]{1,16}|@/[A-Za-z0-9._-]{1,24}|leaderboard/[a-z0-9-]{1,32}")
"""The pages a sign-in may go on to (`next`, a path under the server's prefix): a room,
a profile or a leaderboard of this site, nothing else."""


FORM_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Cache-Control": "no-store",
}
"""The sign-in form's headers: nothing loaded, posted only to this site."""


def sign_in_needs_password(server: Server, host: str) -> bool:
    """Whether a browser signs in with a password, by SSH's rule for the address the web
    listens on; ConfigError when browsers could not sign in at all (keys only)."""
    config = server.config
    try:
        needed = auth_required(
            host,
            open=config.open,
            keys=config.authorized_keys is not None,
            passwords=bool(server.passwords),
        )
    except ConfigError as error:
        raise ConfigError(f"--web: {error}") from None
    if needed and not server.passwords:
        raise ConfigError(
            "--web: this server lets players in by their SSH keys only, and a browser has "
            "none: give --password-file too"
        )
    return needed


class SignInRefused(Exception):
    """The name or password is refused (the text is the sentence the form shows, with the
    HTTP status `status`)."""

    def __init__(self, sentence: str, status: int = 403) -> None:
        super().__init__(sentence)
        self.status = status


def bad_name(name: str) -> str:
    """SSH's sentence for a name that cannot be a player's."""
    return f"{name[:40]!r} cannot be a player's name: use 1 to 24 letters, digits, '.', '_' or '-'."


class SignIns:
    """Who signed in, by their browser's token."""

    def __init__(
        self,
        guesses: Guesses,
        *,
        passwords: bool,
        clock: Callable[[], float] = time.monotonic,
        barred: Callable[[str], Awaitable[str | None]] | None = None,
    ) -> None:
        self.guesses = guesses
        self.barred = barred
        """Why a name may not sign in at all (suspended), if it may not."""
        self.passwords = passwords
        """Whether a password is asked for (else a name is enough)."""
        self.clock = clock
        self.names: OrderedDict[str, tuple[str, float, str]] = OrderedDict()
        """Token: (name, until when, the address it signed in from), oldest first."""
        self.by_address: dict[str, OrderedDict[str, None]] = {}
        """Each address's tokens, oldest first."""
        self.rates: dict[str, TokenBucket] = {}
        """Each address's sign-ins, as a rate."""

    def rate(self, address: str) -> TokenBucket:
        bucket = self.rates.get(address)
        if bucket is None:
            if len(self.rates) >= KEPT_RATES:
                for other, kept in list(self.rates.items()):
                    kept.refill()
                    if kept.tokens >= kept.burst:
                        del self.rates[other]
                while len(self.rates) >= KEPT_RATES:
                    del self.rates[next(iter(self.rates))]
            bucket = TokenBucket(SIGN_IN_RATE, SIGN_IN_BURST, self.clock)
            self.rates[address] = bucket
        return bucket

    async def sign_in(self, address: str, name: str, password: str) -> str:
        """A new token for `name`, once its password is checked (from `address`, within
        its budget of sign-ins and of guesses); SignInRefused with the sentence to show
        otherwise."""
        if not valid_name(name):
            raise SignInRefused(bad_name(name))
        bucket = self.rate(address)
        if not bucket.take(1):
            wait = math.ceil((1 - bucket.tokens) / bucket.rate)
            raise SignInRefused(
                f"Too many sign-ins from your address: try again in {wait} seconds.", 429
            )
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
        if self.barred is not None and (why := await self.barred(name)) is not None:
            raise SignInRefused(why)
        token = secrets.token_hex(16)
        self.make_room(address)
        self.names[token] = (name, self.clock() + SIGNED_IN_SECONDS, address)
        self.by_address.setdefault(address, OrderedDict())[token] = None
        return token

    def make_room(self, address: str) -> None:
        """Forget sign-ins until `address` may hold one more: its own oldest beyond its
        share, then those expired, then the oldest of the address that holds the most."""
        own = self.by_address.get(address)
        while own and len(own) >= SIGNED_IN_PER_ADDRESS:
            self.forget(next(iter(own)))
        now = self.clock()
        while self.names and next(iter(self.names.values()))[1] < now:
            self.forget(next(iter(self.names)))
        while len(self.names) >= MAX_SIGNED_IN:
            most = max(self.by_address.values(), key=len)
            self.forget(next(iter(most)))

    def forget(self, token: str) -> str | None:
        """Forget `token`; the name it was for, if any."""
        found = self.names.pop(token, None)
        if found is None:
            return None
        name, _, address = found
        own = self.by_address.get(address)
        if own is not None:
            own.pop(token, None)
            if not own:
                del self.by_address[address]
        return name

    def sign_out(self, token: str) -> str | None:
        """Forget `token` (its browser signs in again); the name it was for, if any."""
        return self.forget(token)

    def who(self, token: str) -> str | None:
        """The name the token is for, while it holds."""
        found = self.names.get(token)
        if found is None:
            return None
        name, until, _ = found
        if self.clock() > until:
            self.forget(token)
            return None
        return name


def own_page(text: str) -> str:
    """`text` if it is a page a sign-in may go on to (`NEXT`), else "" (the lobby)."""
    return text if NEXT.fullmatch(text) else ""


def form_page(
    *,
    passwords: bool,
    name: str = "",
    refusal: str = "",
    action: str = "signin",
    next_page: str = "",
) -> str:
    """The sign-in page: a name (and a password where one is asked for), and why the last
    try was refused; posted to `action`, then on to `next_page` (`own_page`)."""
    password = (
        '<label>Password <input name="password" type="password" '
        'autocomplete="current-password" required></label>'
        if passwords
        else "<p>This server asks for no password: your name is enough.</p>"
    )
    said = f'<p class="refused" role="alert">{html.escape(refusal)}</p>' if refusal else ""
    after = (
        f'<input type="hidden" name="next" value="{html.escape(own_page(next_page))}">'
        if own_page(next_page)
        else ""
    )
    return FORM.format(
        name=html.escape(name),
        password=password,
        refused=said,
        action=html.escape(action),
        next=after,
    )


def form_response(text: str, status: int = 200) -> web.Response:
    """The sign-in form `text` (`form_page`) as an answer."""
    from aiohttp import web  # the web extra's, as `serve --web` has it

    return web.Response(text=text, status=status, content_type="text/html", headers=FORM_HEADERS)


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
    <form method="post" action="{action}">
      <h1>abstracts-tui</h1>
      <p>Sign in with your name on this server's SSH rooms.</p>
      {refused}
      <label>Name <input name="name" value="{name}" autocomplete="username"
        maxlength="24" required autofocus></label>
      {password}
      {next}
      <button type="submit">Sign in</button>
    </form>
  </body>
</html>
"""
