"""The text of a record file: its bytes read in the charset its root's `CA` names.

FF[4] reads text as ISO-8859-1 (Latin-1) when no `CA` is given; abstracts-tui writes
`CA[UTF-8]`. A file without `CA` whose bytes are UTF-8 (as most files typed by hand are)
is read as UTF-8, any other one as Latin-1. A UTF-8 byte-order mark is skipped.
"""

from __future__ import annotations

import codecs

from ..rules import shown
from . import sgf
from .errors import RecordError

UTF8_BOM = codecs.BOM_UTF8


def charset(data: bytes) -> str | None:
    """The charset the root of a record's `data` names (None: no `CA`, or no root to
    read: reading the text says what is wrong with it)."""
    # Latin-1 maps each byte to one character, so the syntax reads in any charset
    # whose bytes below 128 are ASCII, as FF[4] asks of a record's charset.
    items = sgf.read(data.decode("latin-1"))
    try:
        next(items)
        root = next(items)
    except (RecordError, StopIteration):
        return None
    if not isinstance(root, sgf.SgfNode):
        return None
    name = root.get("CA")
    return name.strip() if name is not None else None


def decoded(data: bytes) -> str:
    """The text of a record file's `data`; raises RecordError for a charset not known or
    bytes that are not in it (naming the line)."""
    data = data.removeprefix(UTF8_BOM)
    name = charset(data)
    if name is None:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("latin-1")  # FF[4]'s charset when none is named
    try:
        return data.decode(codecs.lookup(name).name)
    except LookupError:  # no such codec, or not one of text (rot13, base64)
        raise RecordError(
            f"the charset CA[{shown(name)}] is not one this program reads", 1
        ) from None
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise RecordError(f"the file is not {shown(name)} text, as its CA says", line) from None
