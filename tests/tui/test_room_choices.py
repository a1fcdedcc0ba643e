"""The room creation screen's last choices, kept in the person's folder on the server:
read back as written, and whatever cannot be used (damaged, too long, a link, a value
this version does not know) passed over for the screen's own defaults."""

from __future__ import annotations

import json
from pathlib import Path

from abstracts_tui.tui.rooms.choices import (
    FILE_NAME,
    READ_LIMIT,
    RoomChoices,
    keep_choices,
    read_choices,
)


def test_the_choices_kept_are_read_back(tmp_path: Path) -> None:
    chosen = RoomChoices(
        "pilo", 8, None, None, "5m+3s", True, True, colour="second", rating_range="±200"
    )
    keep_choices(tmp_path, chosen)
    assert read_choices(tmp_path) == chosen
    assert (tmp_path / FILE_NAME).stat().st_mode & 0o777 == 0o600


def test_what_cannot_be_used_is_passed_over(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    assert read_choices(tmp_path) == RoomChoices()  # none kept yet
    path.write_text("{not json")
    assert read_choices(tmp_path) == RoomChoices()
    path.write_text(json.dumps({"game": "chess", "colour": "second"}))
    assert read_choices(tmp_path) == RoomChoices()
    path.write_text(" " * READ_LIMIT + "{}")
    assert read_choices(tmp_path) == RoomChoices()
    fields = {"game": "pilo", "size": 99, "clock": "5 parsecs", "colour": "blue"}
    path.write_text(json.dumps({**fields, "rating_range": "±5", "rated": "yes", "open": 1}))
    assert read_choices(tmp_path) == RoomChoices("pilo")
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"game": "pilo"}))
    path.unlink()
    path.symlink_to(elsewhere)  # not followed
    assert read_choices(tmp_path) == RoomChoices()
