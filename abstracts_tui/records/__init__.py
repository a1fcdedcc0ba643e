"""Game records (SGF files with variations and comments)."""

from .record import GM_NUMBER, Record, RecordError, RecordNode, result_text
from .sgf import SgfError

__all__ = ["GM_NUMBER", "Record", "RecordError", "RecordNode", "SgfError", "result_text"]
