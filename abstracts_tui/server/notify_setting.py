"""How a player is told of their games while not connected: the `notify` command's words,
checked, and what it says back.

A player's setting is a target (an `http://` or `https://` URL, posted to as ntfy takes
it; a Gotify URL, posted to as Gotify takes it; or `mailto:ADDRESS`) and quiet hours
(notices wait while they last). Every refusal is one sentence; nothing here reads or
writes the store.
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, replace
from email.errors import HeaderParseError
from email.headerregistry import Address

URL_LIMIT = 300
"""The longest target a player may give (an URL, or mailto: and an address)."""
ADDRESS_LIMIT = 254
"""The longest e-mail address (RFC 5321's path, less its brackets)."""
GOTIFY = "gotify:"
"""The prefix that says a URL is a Gotify server's (its path `/message` says it too)."""
MAILTO = "mailto:"

USAGE = (
    "notify alone shows how you are told; notify URL (http or https: ntfy, or Gotify's "
    "/message?token=...), notify mailto:ADDRESS, notify off, notify quiet 22-7 [+HH], "
    "notify quiet off."
)


class SettingError(ValueError):
    """Words the `notify` command refuses; the message is the sentence said."""


@dataclass(frozen=True)
class Quiet:
    """Hours in which notices wait: from `start` to `end` o'clock (`end` not included;
    past midnight when `end` <= `start`), at `offset` minutes from UTC."""

    start: int
    end: int
    offset: int = 0

    def holds(self, utc_seconds: float) -> float:
        """How many seconds from `utc_seconds` (a Unix time) the quiet hours still last:
        0 when they do not hold then."""
        local = (utc_seconds + self.offset * 60) % 86400
        start, end = self.start * 3600, self.end * 3600
        if start == end:
            return 0.0
        inside = start <= local < end if start < end else local >= start or local < end
        if not inside:
            return 0.0
        return (end - local) % 86400

    def text(self) -> str:
        """`22-7 UTC`, `22-7 UTC+02:00`."""
        zone = "UTC"
        if self.offset:
            sign = "+" if self.offset > 0 else "-"
            hours, minutes = divmod(abs(self.offset), 60)
            zone += f"{sign}{hours:02d}:{minutes:02d}"
        return f"{self.start}-{self.end} {zone}"


@dataclass(frozen=True)
class Setting:
    """A player's notices: where they go (None: nowhere) and their quiet hours."""

    target: str | None = None
    quiet: Quiet | None = None

    def text(self) -> str:
        """What `notify` alone says."""
        if self.target is None:
            said = "You get no notices: notify URL or notify mailto:ADDRESS sets where they go."
        else:
            said = f"Notices go to {shown_target(self.target)}."
        if self.quiet is not None:
            said += f" Quiet hours {self.quiet.text()}: notices wait until they end."
        return said


def shown_target(target: str) -> str:
    """The target as said back: an URL's query (a Gotify token) is not repeated."""
    if target.startswith(MAILTO):
        return target
    parts = urllib.parse.urlsplit(target.removeprefix(GOTIFY))
    shown = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    if parts.query:
        shown += " (its query not repeated)"
    return f"{GOTIFY}{shown}" if target.startswith(GOTIFY) else shown


def is_gotify(target: str) -> bool:
    """Whether `target` is posted to as Gotify takes it (JSON), not as ntfy (text)."""
    if target.startswith(GOTIFY):
        return True
    return urllib.parse.urlsplit(target).path.rstrip("/").endswith("/message")


def check_url(text: str) -> str:
    """`text` as a target URL (`gotify:` kept); raises SettingError with one sentence."""
    url = text.removeprefix(GOTIFY)
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise SettingError("A notice URL has no spaces or control characters.")
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        raise SettingError(
            "That is not an URL: give http://HOST/PATH or https://HOST/PATH."
        ) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise SettingError("Notices go only to http:// or https:// URLs (or mailto:ADDRESS).")
    if not parts.hostname:
        raise SettingError("That URL names no host: give http://HOST/PATH or https://HOST/PATH.")
    if parts.username is not None or parts.password is not None:
        raise SettingError("A notice URL carries no user or password: use a token in its path.")
    if port == 0:
        raise SettingError("That URL's port is 0: give one from 1 to 65535.")
    return text


def check_address(text: str) -> str:
    """`mailto:ADDRESS` with an address that parses; raises SettingError."""
    address = text[len(MAILTO) :]
    if len(address) > ADDRESS_LIMIT:
        raise SettingError(f"An e-mail address has at most {ADDRESS_LIMIT} characters.")
    if not re.fullmatch(r"[^@\s<>,;:\"()\[\]\\]+@[A-Za-z0-9.-]+", address):
        raise SettingError(f"'{address}' is not an e-mail address (NAME@DOMAIN).")
    try:
        parsed = Address(addr_spec=address)
    except (HeaderParseError, ValueError, IndexError):
        raise SettingError(f"'{address}' is not an e-mail address (NAME@DOMAIN).") from None
    if not parsed.domain or ".." in parsed.domain or parsed.domain.startswith((".", "-")):
        raise SettingError(f"'{address}' is not an e-mail address (NAME@DOMAIN).")
    return MAILTO + address


def check_target(text: str) -> str:
    """A target `notify TARGET` may set; raises SettingError with one sentence."""
    if len(text) > URL_LIMIT:
        raise SettingError(f"A notice target has at most {URL_LIMIT} characters.")
    if text.lower().startswith(MAILTO):
        return check_address(MAILTO + text[len(MAILTO) :])
    return check_url(text)


def check_quiet(words: list[str]) -> Quiet | None:
    """`22-7` and an optional UTC offset (`+2`, `-05:30`) as quiet hours; `off`: none."""
    if words == ["off"]:
        return None
    if not 1 <= len(words) <= 2:
        raise SettingError("Give quiet hours as notify quiet 22-7 (UTC), or 22-7 +2, or off.")
    hours = re.fullmatch(r"(\d{1,2})-(\d{1,2})", words[0])
    if hours is None:
        raise SettingError(f"'{words[0][:20]}' is not hours FROM-TO, such as 22-7.")
    start, end = int(hours[1]), int(hours[2])
    if start > 23 or end > 23:
        raise SettingError("Quiet hours are whole hours from 0 to 23.")
    if start == end:
        raise SettingError("Quiet hours need two different hours, such as 22-7.")
    offset = 0
    if len(words) == 2:
        zone = re.fullmatch(r"(?:UTC)?([+-])(\d{1,2})(?::?(\d\d))?", words[1], re.IGNORECASE)
        if zone is None or int(zone[2]) > 14 or int(zone[3] or 0) > 59:
            raise SettingError(
                f"'{words[1][:20]}' is not an offset from UTC, such as +2, -5 or +05:30."
            )
        offset = (int(zone[2]) * 60 + int(zone[3] or 0)) * (1 if zone[1] == "+" else -1)
    return Quiet(start, end, offset)


def changed(setting: Setting, words: list[str]) -> Setting | None:
    """The setting after `notify WORDS` (None: `notify` alone, which changes nothing);
    raises SettingError with one sentence for words it refuses."""
    if not words:
        return None
    if words[0] == "quiet":
        return replace(setting, quiet=check_quiet(words[1:]))
    if len(words) > 1:
        raise SettingError(f"Too many words: {USAGE}")
    if words[0] == "off":
        return replace(setting, target=None)
    if words[0] in ("help", "-h", "--help"):
        raise SettingError(USAGE)
    return replace(setting, target=check_target(words[0]))


def said(before: Setting, after: Setting, *, mail: bool) -> str:
    """What a change of setting says back (`mail`: whether the server sends e-mail)."""
    if after.target != before.target:
        if after.target is None:
            return "No more notices: notify URL or notify mailto:ADDRESS sets them again."
        text = (
            f"Notices go to {shown_target(after.target)}: your move in a game you are not "
            "connected to, a challenge of yours accepted, a game's end."
        )
        if after.target.startswith(MAILTO) and not mail:
            text += " This server sends no e-mail now (it was started without --smtp)."
        return text
    if after.quiet is None:
        return "No quiet hours: notices go at any hour."
    return f"Quiet hours {after.quiet.text()}: notices wait until they end."
