"""Abuse handling on the server: `mute`, `block`, `report`, the admins' `reports`,
`suspend` and `unsuspend` (answered over `ssh -T host ...` and in line mode's lobby),
the limit on aborts, and what one session's person no longer sees or may do.

- `mute NAME`: NAME's chat lines are hidden from you, in every room and front end;
- `block NAME`: muted too, and the two of you never play: neither joins a room the other
  made (an open challenge accepted is a room joined), and neither sees the other's open
  challenges;
- `report NAME REASON`: kept for the admins (`serve --admin NAME`), one per person
  reported per day, the reason at most `REASON_LIMIT` characters;
- `reports`, `suspend NAME [DAYS] REASON`, `unsuspend NAME`: the admins' only. A
  suspended name cannot sign in (told until when), and its open challenges are neither
  listed nor joined;
- aborts: at most `ABORTS_PER_DAY` in 24 hours per person, counted from the store.

Every function here blocks on the store: the server calls them off its loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field

from ..printable import NAME_LIMIT, printable
from ..rooms.claims import gone_since, other_player, presence_refusal
from ..rooms.room import Room
from ..rooms.rooms import Rooms
from ..store import Store, StoreError
from ..store.moderation import (
    BLOCK,
    FOREVER,
    MUTE,
    NOBODY,
    Moderation,
    Relations,
    Report,
    Suspension,
)
from .auth import valid_name

COMMANDS = ("mute", "unmute", "block", "unblock", "report", "reports", "suspend", "unsuspend")
USAGE = """\
  ssh -T {address} mute NAME      hide NAME's chat from you (unmute NAME: show it again)
  ssh -T {address} block NAME     also never play NAME (unblock NAME); no NAME: those you block
  ssh -T {address} report NAME REASON  tell the server's admins about NAME
  ssh -T {address} reports        the reports (admins only)
  ssh -T {address} suspend NAME [DAYS] REASON  NAME cannot sign in (admins; unsuspend NAME)
"""

DAY = 86_400.0
REASON_LIMIT = 300
"""The longest reason of a report or a suspension, in characters."""
REPORTS_SHOWN = 200
"""How many of the last reports `reports` lists."""
ABORTS_PER_DAY = 10
"""How many games one person may abort in 24 hours."""
DAYS_LIMIT = 3650
"""The longest suspension given in days."""


@dataclass(frozen=True)
class Said:
    """What a command prints on the standard output and error, and its exit status."""

    output: str = ""
    error: str = ""
    status: int = 0


def refused(sentence: str, status: int = 2) -> Said:
    return Said(error=f"abstracts-tui: {sentence}\n", status=status)


def answer(
    store: Store, words: list[str], viewer: str, admins: frozenset[str], now: float | None = None
) -> Said:
    """The answer to `words` (a command of COMMANDS and its arguments) asked by `viewer`;
    raises StoreError if the store cannot be read or written."""
    moderation = Moderation.of(store)
    if moderation is None:
        return refused("this server's store keeps no mutes, blocks or reports.", 1)
    at = time.time() if now is None else now
    command, arguments = words[0], words[1:]
    if command in ("reports", "suspend", "unsuspend") and viewer not in admins:
        return refused(f"only the server's admins can use {command}.", 1)
    if command == "reports":
        if arguments:
            return refused("reports takes no argument.")
        return reports(moderation)
    if not arguments:
        if command in ("mute", "block"):
            return listed(moderation.relations(viewer), command)
        return refused(f"{command} needs a player's name: {command} NAME.")
    name, rest = arguments[0], arguments[1:]
    if not valid_name(name):
        return refused(f"'{printable(name, NAME_LIMIT)}' is not a player's name.")
    if command == "report":
        return report(moderation, viewer, name, " ".join(rest), at)
    if command == "suspend":
        return suspend(moderation, viewer, name, rest, at)
    if rest:
        return refused(f"{command} takes one name: {command} NAME.")
    if command == "unsuspend":
        if moderation.unsuspend(name):
            return Said(f"{name} may sign in again.\n")
        return refused(f"{name} is not suspended.", 1)
    if name == viewer:
        return refused(f"you cannot {command} yourself.")
    return relate(moderation, viewer, name, command, at)


def listed(relations: Relations, command: str) -> Said:
    names = relations.muted if command == "mute" else relations.blocked
    return Said("".join(f"{name}\n" for name in sorted(names)))


def relate(moderation: Moderation, viewer: str, name: str, command: str, at: float) -> Said:
    """mute, unmute, block or unblock `name` for `viewer`."""
    on = not command.startswith("un")
    kind = MUTE if command.endswith("mute") else BLOCK
    changed = moderation.relate(viewer, name, kind, on, at)
    if kind == MUTE:
        done = (
            f"{name}'s chat is hidden from you." if on else f"{name}'s chat is shown to you again."
        )
        already = f"{name} is muted already." if on else f"{name} is not muted."
    else:
        done = (
            f"{name} is blocked: their chat is hidden, and you do not play each other."
            if on
            else f"{name} is no longer blocked."
        )
        already = f"{name} is blocked already." if on else f"{name} is not blocked."
    return Said(f"{done if changed else already}\n")


def report(moderation: Moderation, viewer: str, name: str, reason: str, at: float) -> Said:
    reason = reason.strip()
    if not reason:
        return refused("say why: report NAME REASON.")
    if len(reason) > REASON_LIMIT:
        return refused(f"a reason is at most {REASON_LIMIT} characters ({len(reason)} given).")
    if name == viewer:
        return refused("you cannot report yourself.")
    kept = moderation.report(Report(viewer, name, printable(reason, REASON_LIMIT), at), at - DAY)
    if not kept:
        return refused(f"you reported {name} in the last 24 hours already.", 1)
    return Said(f"{name} is reported to the server's admins. Thank you.\n")


def reports(moderation: Moderation) -> Said:
    """The last reports, the newest first, as tab-separated lines under a header."""
    lines = ["date (UTC)\treporter\treported\treason"]
    for found in moderation.reports(REPORTS_SHOWN):
        day = time.strftime("%Y-%m-%d %H:%M", time.gmtime(found.at))
        reason = found.reason.replace("\t", " ")
        lines.append(f"{day}\t{found.reporter}\t{found.reported}\t{reason}")
    return Said("".join(line + "\n" for line in lines))


def suspend(moderation: Moderation, admin: str, name: str, rest: list[str], at: float) -> Said:
    """`suspend NAME [DAYS] REASON`: without DAYS, until an admin lifts it."""
    until = FOREVER
    if rest and rest[0].isdigit():
        days = int(rest[0])
        if not 1 <= days <= DAYS_LIMIT:
            return refused(f"a suspension is of 1 to {DAYS_LIMIT} days ({days} given).")
        until, rest = at + days * DAY, rest[1:]
    reason = " ".join(rest).strip()
    if not reason:
        return refused("say why: suspend NAME [DAYS] REASON.")
    if len(reason) > REASON_LIMIT:
        return refused(f"a reason is at most {REASON_LIMIT} characters ({len(reason)} given).")
    if name == admin:
        return refused("you cannot suspend yourself.")
    suspension = Suspension(name, until, printable(reason, REASON_LIMIT), admin)
    moderation.suspend(suspension, at)
    return Said(f"{name} is suspended {suspension.until_text()}.\n")


def sign_in_refusal(store: Store, name: str, now: float | None = None) -> str | None:
    """Why `name` may not sign in (suspended), in one sentence; None when they may."""
    moderation = Moderation.of(store)
    if moderation is None:
        return None
    found = moderation.suspension(name, time.time() if now is None else now)
    return None if found is None else found.refusal()


def abort_refusal(store: Store, name: str, now: float | None = None) -> str | None:
    """Why `name` may not abort a game now (`ABORTS_PER_DAY` in the last 24 hours), in one
    sentence saying when they may again; None when they may."""
    moderation = Moderation.of(store)
    if moderation is None:
        return None
    at = time.time() if now is None else now
    aborted = moderation.aborts(name, at - DAY)
    if len(aborted) < ABORTS_PER_DAY:
        return None
    again = aborted[-ABORTS_PER_DAY] + DAY
    when = time.strftime("%H:%M UTC", time.gmtime(again))
    return (
        f"You have aborted {ABORTS_PER_DAY} games in 24 hours: you may abort again at "
        f"{when}; resign instead, or play on."
    )


@dataclass
class Standing:
    """What one session's person mutes and blocks and who is suspended, as last read
    from the store (read again each time a room is entered or shown, and the lobby
    listed): what the desk hides from them."""

    store: Store
    name: str
    relations: Relations = NOBODY
    suspended: frozenset[str] = field(default_factory=frozenset)

    async def refresh(self) -> None:
        """Read the person's relations and the suspensions again (off the loop); while
        the store cannot be read (a database lost), the last ones read stay."""
        with contextlib.suppress(StoreError):  # the store's own news says it is lost
            self.relations, self.suspended = await asyncio.to_thread(self._read)

    def _read(self) -> tuple[Relations, frozenset[str]]:
        moderation = Moderation.of(self.store)
        if moderation is None:
            return NOBODY, frozenset()
        suspended = frozenset(s.name for s in moderation.suspended(time.time()))
        return moderation.relations(self.name), suspended

    def hides_chat(self, by: str) -> bool:
        """Whether the chat lines of `by` are hidden from the person."""
        return self.relations.hides(by)

    def hides_challenge(self, creator: str) -> bool:
        """Whether an open challenge made by `creator` is not listed to the person."""
        return creator in self.suspended or self.relations.apart(creator)

    def join_refusal(self, creator: str) -> str | None:
        """Why the person may not join a room made by `creator`; None when they may."""
        if creator in self.suspended:
            return f"{creator} is suspended"
        if self.relations.apart(creator):
            return f"you and {creator} do not play each other (a block)"
        return None


async def suspension_sentence(store: Store, name: str) -> str | None:
    """Why `name` may not sign in, read off the loop (`sign_in_refusal`; a store that
    cannot be read suspends nobody); None when they may."""
    try:
        return await asyncio.to_thread(sign_in_refusal, store, name)
    except StoreError:
        return None


async def suspended(store: Store, name: str) -> str | None:
    """What an SSH session of `name` is told and ends with when the name is suspended;
    None when it is not."""
    refusal = await suspension_sentence(store, name)
    return None if refusal is None else f"abstracts-tui: {refusal}\r\n"


PERSONAL = ("mute", "unmute", "block", "unblock", "report")
"""The commands of line mode's lobby (an admin's are given over `ssh -T` only)."""


def personal(store: Store, name: str, words: list[str]) -> str:
    """The answer to one of `PERSONAL` typed by `name` in line mode's lobby, in the
    lobby's words (a sentence, or the names muted or blocked)."""
    if not words or words[0].lower() not in PERSONAL:
        return f"Type one of {', '.join(PERSONAL)}."
    try:
        said = answer(store, [words[0].lower(), *words[1:]], name, frozenset())
    except StoreError as error:
        return f"Not done: the server cannot read its store now ({error})."
    if said.error:
        sentence = said.error.removeprefix("abstracts-tui: ").strip()
        return f"Not done: {sentence}"
    if words[0].lower() in ("mute", "block") and len(words) == 1:
        names = said.output.split()
        kind = "mute" if words[0].lower() == "mute" else "block"
        return f"You {kind} {', '.join(names)}." if names else f"You {kind} nobody."
    return said.output.strip()


async def claim_refusal(rooms: Rooms, room: Room, user: str) -> str | None:
    """Why `user` may not claim `room`'s game now because the other player has not been
    gone long enough (`rooms.claims`), from who is connected and the room's events; None
    when they may, or when the rule refuses it anyway (the room's check says why)."""
    session = room.session
    if user not in session.people:
        return None
    events = await rooms.events_since(room, 0)
    other = other_player(session, user)
    connected = rooms.presences.people(room.code)
    return presence_refusal(session, user, connected, gone_since(events, other), time.time())
