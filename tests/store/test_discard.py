"""A room called off before anybody joined it is deleted from the store, on SQLite and on
PostgreSQL: the archive keeps no empty room, and never loses a game somebody joined."""

from __future__ import annotations

from abstracts_tui.store import Finish, RoomSave, RoomSetup
from tests.store.test_stores import Opener, open_store

__all__ = ["open_store"]  # the fixture, used by name

PILO = RoomSetup("pilo", 8, creator="ann", rated=True)
CALLED_OFF = Finish("Void", None)


def test_a_room_nobody_joined_is_deleted_and_a_joined_one_never(open_store: Opener) -> None:
    store = open_store()
    store.save_room(RoomSave("empt", PILO, None, None, CALLED_OFF))
    store.save_room(RoomSave("void", PILO, "bob", "(;GA[pilo])", CALLED_OFF))
    store.save_room(RoomSave("wait", PILO, None, None))
    assert store.discard_room("empt")
    assert not store.discard_room("void")  # joined: kept, whatever it is asked
    assert not store.discard_room("zzzz")  # none such
    again = open_store()  # as another process, or the server restarted
    assert again.room("empt") is None and again.room("void") is not None
    assert [room.code for room in again.rooms(finished=True)] == ["void"]
    assert again.codes() == {"void", "wait"}
    # One waiting whose end was not saved yet (the newest save is the deletion) goes too.
    assert again.discard_room("wait") and again.room("wait") is None
