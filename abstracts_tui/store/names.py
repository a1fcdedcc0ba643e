"""Names as they are compared for ownership: one normal form, the skeleton.

A player's name is 1 to 24 ASCII letters, digits, '.', '_' and '-' (`server.auth.NAME`),
shown as it was typed. Which key a name belongs to is decided on its skeleton, so that
nobody can take a name that reads as another's (`ANN`, `ann.`, `Ann_` or `a-n-n` beside
`ann`; `b0b` beside `bob`; `I1ya` beside `llya`; `rnary` beside `mary`):

- letters are folded to lower case;
- the separators '.', '_' and '-' are left out;
- the look-alikes of Unicode's confusables (UTS #39) among these characters are one:
  `0` is `o`; `1` and `i` are `l` (with case folded, `I` and `l` are the pair UTS #39
  names); `m` is `rn`.

The table is `FOLDS`; it maps each character on its own, so the order it is applied in
does not matter. The stores compare skeletons in SQL (`sql_skeleton`), made from the same
table, as the names are read (no column holds them: stores made before names were
compared this way need no change); a test compares both on every store.
"""

from __future__ import annotations

from collections.abc import Iterable

FOLDS: dict[str, str] = {
    ".": "",
    "_": "",
    "-": "",
    "0": "o",
    "1": "l",
    "i": "l",
    "m": "rn",
}
"""What each character of a name (after folding to lower case) is in its skeleton; a
character not here is itself."""

_TABLE = str.maketrans(FOLDS)


def skeleton(name: str) -> str:
    """The form `name` is compared in: `skeleton("Ann_") == skeleton("ann")`."""
    lowered = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in name)
    return lowered.translate(_TABLE)


def sql_skeleton(column: str, *, postgres: bool = False) -> str:
    """`skeleton` of `column` as an SQL expression of SQLite, or with `postgres` of
    PostgreSQL. Both fold ASCII letters only, as `skeleton` does: SQLite's `lower()`
    knows no other, and PostgreSQL's (which would follow the database's locale) is
    not used."""
    if postgres:
        upper = "".join(chr(c) for c in range(ord("A"), ord("Z") + 1))
        expression = f"translate({column}, '{upper}', '{upper.lower()}')"
    else:
        expression = f"lower({column})"
    for char, folded in FOLDS.items():
        expression = f"replace({expression}, '{char}', '{folded}')"
    return expression


def look_alikes(kept: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Of `kept` (name, key), the names that share a skeleton but not a key, in groups
    (each sorted, the groups by their first name)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name, key in kept:
        groups.setdefault(skeleton(name), []).append((name, key))
    return sorted(
        sorted(name for name, _ in group)
        for group in groups.values()
        if len({key for _, key in group}) > 1
    )
