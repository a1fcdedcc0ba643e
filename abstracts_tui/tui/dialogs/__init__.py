"""Modal dialogs: the pie rule, komi, choosing sides, file paths and yes/no questions.

Each is a `ModalScreen`; push it with a callback (or `push_screen_wait`) to get the answer.
"""

from __future__ import annotations

from .confirm import ConfirmDialog
from .komi import KomiDialog
from .path import PathDialog
from .pie import PieDialog
from .side import SideDialog

__all__ = ["ConfirmDialog", "KomiDialog", "PathDialog", "PieDialog", "SideDialog"]
