"""Every test runs without the user's own settings file (an app built by the tests is
the app with the default settings unless a test writes a file of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def no_user_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    missing: Path = tmp_path_factory.getbasetemp() / "no-settings.toml"
    monkeypatch.setenv("ABSTRACTS_TUI_CONFIG", str(missing))
