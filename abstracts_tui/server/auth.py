"""Who may connect: the loopback rule, password files, authorized keys and the host key.

Anyone may connect to a server on loopback (it is the machine's own users); anywhere else
a password or a listed key is needed unless the operator says `--open`. A person is known
by their SSH user name; where keys are used, the first key a name logs in with is kept for
that name (in the server's store), so nobody else with a listed key can take the name
(and its seats) later, nor one that looks like it (`KeyBook`); a key keeps a few names.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path

import asyncssh

from ..printable import NAME_LIMIT, printable
from ..store import Store, StoreError
from .files import RefusedFile, read_own_file, set_aside, write_private_once
from .limits import ConfigError

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,23}")
"""User names the server accepts: they name seats, and folders in the data directory."""
HASH_NAME = "pbkdf2_sha256"
ITERATIONS = 600_000
"""PBKDF2-SHA256 at the count OWASP gives for it (2023). Chosen over scrypt: scrypt's
memory hardness needs 16 to 128 MiB a check at the strengths recommended for it, which a
small server checking logins for many people at once should not spend; PBKDF2 needs
none, is in every Python, and keeps the form of the hashes already in password files
(`pbkdf2_sha256$200000$...` hashes stay valid: the count is part of each hash). One check
costs 0.14 to 0.27 s of one core on the project's 2-core machine, as busy as it gets."""
HASH_PATTERN = re.compile(
    rf"{HASH_NAME}\$([1-9][0-9]{{3,7}})\$((?:[0-9a-f]{{2}}){{8,64}})\$([0-9a-f]{{64}})"
)
"""A hash as `hash_password` writes it: the count (1,000 to 99,999,999), salt and digest."""
DUMMY_HASH = f"{HASH_NAME}${ITERATIONS}${'00' * 16}${'00' * 32}"
"""What a name without a password is checked against, so that it takes as long as one with."""


def is_loopback(host: str) -> bool:
    """Whether `host` is an address only this machine can reach."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name or a wildcard may be reached from anywhere


def auth_required(host: str, *, open: bool, keys: bool, passwords: bool) -> bool:
    """Whether clients must authenticate; raises ConfigError when they must but cannot.

    Given keys or passwords are always used. Without them: loopback and `--open` let
    anyone in; any other address is refused, since a game server open to a network by
    mistake would let anyone take anyone's name.
    """
    if keys or passwords:
        return True
    if open or is_loopback(host):
        return False
    raise ConfigError(
        f"{host} is not a loopback address: give --authorized-keys FILE and/or "
        "--password-file FILE, or --open to let anyone in"
    )


def valid_name(name: str) -> bool:
    return NAME.fullmatch(name) is not None


# -- passwords -------------------------------------------------------------------------


def hash_password(password: str, *, iterations: int = ITERATIONS) -> str:
    """A salted PBKDF2 hash, as a password file holds it after `name:`."""
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    return f"{HASH_NAME}${iterations}${salt.hex()}${digest.hex()}"


def check_password(stored: str, password: str) -> bool:
    """Whether `password` matches a hash made by `hash_password` (in constant time)."""
    found = HASH_PATTERN.fullmatch(stored)
    if found is None:
        return False
    iterations, salt, digest = found.groups()
    given = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(given.hex(), digest)


def check_login(passwords: Mapping[str, str], name: str, password: str) -> bool:
    """Whether `name` may log in with `password`. A name with no password is checked
    against a dummy hash of the same count, so that the time taken does not tell
    which names have one."""
    stored = passwords.get(name)
    matches = check_password(DUMMY_HASH if stored is None else stored, password)
    return stored is not None and matches


def read_password_file(path: Path) -> dict[str, str]:
    """`name:hash` lines (blank lines and `#` comments skipped); raises ConfigError."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path} cannot be read: {error}") from None
    passwords = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, colon, stored = line.partition(":")
        if not colon or not valid_name(name) or not HASH_PATTERN.fullmatch(stored):
            raise ConfigError(
                f"{path}, line {number}: expected NAME:{HASH_NAME}$COUNT$SALT$DIGEST "
                "(made by abstracts-tui passwd NAME)"
            )
        passwords[name] = stored
    return passwords


def read_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The public keys allowed in, from an OpenSSH authorized_keys file; raises
    ConfigError, with the file named, for one that cannot be read or holds no key."""
    try:
        return asyncssh.read_authorized_keys(str(path))
    except OSError as error:
        raise ConfigError(f"{path} cannot be read: {error.strerror or error}") from None
    except (ValueError, asyncssh.KeyImportError) as error:
        raise ConfigError(
            f"{path} holds no public key that can be read ({error}): expected lines of "
            "OpenSSH's authorized_keys format, such as a ~/.ssh/id_ed25519.pub"
        ) from None


def set_password(path: Path, name: str, stored: str) -> bool:
    """Give `name` the hash `stored` in the password file at `path`: its line replaced, or
    added at the end (a new file is readable by its owner only; the rest of the file is
    kept as it is). Whether the name had a line. Raises ConfigError, and changes nothing,
    if the file cannot be read as a password file or cannot be written."""
    from ..files import describe, write_atomic

    lines: list[str] = []
    if os.path.lexists(path):
        read_password_file(path)  # a file it would make unreadable is left alone
        lines = path.read_text(encoding="utf-8").splitlines()
    had = False
    kept = []
    for line in lines:
        if line.strip().partition(":")[0] == name:
            if not had:
                kept.append(f"{name}:{stored}")
            had = True
        else:
            kept.append(line)
    if not had:
        kept.append(f"{name}:{stored}")
    try:
        write_atomic(path, "".join(line + "\n" for line in kept), mode=0o600)
    except OSError as error:
        raise ConfigError(f"{path} cannot be written: {describe(error)}") from None
    return had


def weak_hashes(passwords: Mapping[str, str]) -> list[str]:
    """The names whose hashes have fewer iterations than new ones get."""
    return sorted(
        name for name, stored in passwords.items() if int(stored.split("$")[1]) < ITERATIONS
    )


# -- keys ----------------------------------------------------------------------------------


class KeyBook:
    """The keys user names are kept for, in the server's store: the first key a name
    logs in with keeps it, and any name that looks like it (`store.names.skeleton`:
    `ANN`, `ann.` and `Ann_` are `ann`); a key keeps at most `most` names.

    Both methods block (they ask the store): the server calls them off its event loop.
    """

    def __init__(self, store: Store, most: int) -> None:
        self.store = store
        self.most = most

    def refusal(self, name: str, fingerprint: str) -> str | None:
        """Why `name` may not log in with this key, as one sentence to the person; None
        if it may: its own name (or one that looks like it), or a new name while the
        key has fewer than `most`. A name no player may have is left for the session
        to refuse (it is never kept)."""
        if not valid_name(name):
            return None
        kept = self.store.name_key(name)
        if kept == fingerprint:
            return None
        if kept is not None:
            return taken(name)
        names = self.store.key_names(fingerprint)
        if len(names) >= self.most:
            return too_many(names, self.most)
        return None

    def keep(self, name: str, fingerprint: str) -> str | None:
        """Keep this key for `name` if it is new (checked again: another login may have
        come first); None if it is the key's, else why not, as `refusal` says it."""
        if not valid_name(name):
            return None
        kept = self.store.keep_name(name, fingerprint, self.most)
        if kept == fingerprint:
            return None
        if kept is not None:
            return taken(name)
        return too_many(self.store.key_names(fingerprint), self.most)

    def look_alikes_note(self) -> str | None:
        """What the log says at the start about the names kept for different keys that
        look alike (kept before names were compared so), if there are any."""
        groups = self.store.look_alikes()
        if not groups:
            return None
        shown = "; ".join(
            ", ".join(printable(name, NAME_LIMIT) for name in group)
            for group in groups[:SHOWN_GROUPS]
        )
        more = f" and {len(groups) - SHOWN_GROUPS} more" if len(groups) > SHOWN_GROUPS else ""
        return (
            "names that look alike are kept for different keys, as they were before names "
            f"were compared by their look ({shown}{more}): each keeps its key, and no other "
            "name like them can be taken"
        )


SHOWN_GROUPS = 10
"""The most sets of look-alike names the log line at the start lists."""


def taken(name: str) -> str:
    return (
        f"the name {name} is kept for another key (names that differ only in case, in '.', "
        "'_' or '-', or in 0/o, 1/l/i or m/rn are one name): choose another"
    )


def too_many(names: list[str], most: int) -> str:
    shown = ", ".join(names[:most]) + (", ..." if len(names) > most else "")
    return (
        f"this key has {len(names)} names already ({shown}), the most one key may have: "
        "log in as one of them"
    )


def import_names(path: Path, store: Store) -> None:
    """Put the names and keys of `names.json` (where earlier versions kept them) in the
    store, then move the file to `imported/` beside it. Raises ConfigError if it cannot
    be read: not to be set aside like a bad room, since without it anybody could take
    any name."""
    if not os.path.lexists(path):
        return
    try:
        keys = json.loads(read_own_file(path, 16 * 1024 * 1024).decode("utf-8"))
    except (OSError, RefusedFile, ValueError, RecursionError) as error:
        raise ConfigError(f"{path} cannot be read ({error}): repair or remove it") from None
    if not isinstance(keys, dict) or not all(
        isinstance(name, str) and valid_name(name) and isinstance(key, str)
        for name, key in keys.items()
    ):
        raise ConfigError(f"{path} is not a table of names and keys: repair or remove it")
    try:
        for name, key in sorted(keys.items()):
            store.keep_name(name, key, alike=False)  # as they were: look-alikes included
        set_aside(path.parent, [path.name], "imported")
    except (StoreError, OSError) as error:
        raise ConfigError(f"{path} cannot be imported into the store: {error}") from None


def host_key(data: Path) -> asyncssh.SSHKey:
    """The server's host key, made on the first start and kept (readable by the owner only)."""
    path = data / "host_key"
    if os.path.lexists(path):
        try:
            return asyncssh.import_private_key(read_own_file(path, 64 * 1024))
        except (OSError, RefusedFile, asyncssh.KeyImportError) as error:
            raise ConfigError(f"{path} cannot be the host key: {error}") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    write_private_once(path, key.export_private_key())
    return key
