"""Game records (SGF files with variations and comments)."""

from .errors import RecordError
from .record import GM_NUMBER, MAX_SIZE, Record, RecordNode, result_text
from .sgf import SgfError

__all__ = [
    "GM_NUMBER",
    "MAX_SIZE",
    "Record",
    "RecordError",
    "RecordNode",
    "SgfError",
    "result_text",
]
