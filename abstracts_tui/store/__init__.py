"""The server's store: rooms and the archive of finished games, names and their keys,
ratings.

- `base`: the `Store` interface and the rows it deals in;
- `schema`: the tables, made and changed by numbered migrations;
- `sqlite`: `SqliteStore`, the store in one SQLite file.
"""

from ..ratings import RatingPoint, Tally
from .base import (
    Finish,
    PlayerRating,
    RoomSave,
    RoomSetup,
    Store,
    StoredRoom,
    StoreError,
)
from .sqlite import SqliteStore

STORE_FILE = "server.db"
"""The SQLite store's file in the server's data folder."""

__all__ = [
    "STORE_FILE",
    "Finish",
    "PlayerRating",
    "RatingPoint",
    "RoomSave",
    "RoomSetup",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoredRoom",
    "Tally",
]
