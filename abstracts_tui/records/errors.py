"""The one error of reading a record: every fault of its content is a `RecordError`
(a file that cannot be read at all is the disk's `OSError`)."""

from __future__ import annotations


class RecordError(ValueError):
    """A record that cannot be read: one sentence, after the line (and column) of the
    fault where it has one."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        where = ""
        if line is not None:
            where = f"line {line}, column {column}: " if column is not None else f"line {line}: "
        super().__init__(where + message)
        self.message = message
        self.line = line
        self.column = column
