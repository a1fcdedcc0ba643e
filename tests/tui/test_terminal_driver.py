"""The terminal app's driver on a terminal that goes away (a pseudo-terminal closed): its
input ends as a hangup, its output is dropped without an error; and the same where
Textual's private parts it uses are not where they were (tests/cli/test_terminal_close.py
closes real terminals under the real command)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import tty
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual import events
from textual.message import Message

from abstracts_tui.tui import textual_internals
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.terminal import TerminalDriver, TerminalOutput


class KeysKept(TerminalDriver):
    """The driver, keeping the keys it reads instead of posting them to an app that is
    not running."""

    keys: list[str]

    def process_message(self, message: Message) -> None:
        if isinstance(message, events.Key):
            self.keys.append(message.key)


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[KeysKept]:
    """A driver of the app, made as Textual makes it (on the app's loop); its signal
    handlers (ctrl+z) are put back afterwards."""
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTSTP, signal.SIGCONT)}

    async def made() -> KeysKept:
        return KeysKept(build_app(data=tmp_path))

    made_driver = asyncio.run(made())
    made_driver.keys = []
    yield made_driver
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def read_keys(driver: KeysKept, close: bool) -> bool:
    """Type `ab` on a pseudo-terminal that the driver reads, then close the terminal (its
    window goes) or disable the driver's input (the app quits): whether the driver's input
    said the terminal ended (within 5 s); either way its reading stops."""
    controller, terminal = os.openpty()
    tty.setraw(terminal)  # keys as typed, as the driver sets its terminal
    driver.fileno = terminal
    ended = threading.Event()
    reader = threading.Thread(target=textual_internals.read_terminal, args=(driver, ended.set))
    reader.start()
    try:
        os.write(controller, b"ab")
        for _ in range(50):
            if len(driver.keys) == 2:
                break
            ended.wait(0.1)
        if close:
            os.close(controller)
            ended.wait(5)
        else:
            driver.exit_event.set()
        reader.join(5)
    finally:
        driver.exit_event.set()
        reader.join(5)
        os.close(terminal)
        if not close:
            os.close(controller)
    assert not reader.is_alive()
    assert driver.keys == ["a", "b"]
    return ended.is_set()


def test_a_closed_terminal_ends_the_input_as_a_hangup(driver: KeysKept) -> None:
    assert read_keys(driver, close=True)


def test_the_input_stops_when_the_app_quits(driver: KeysKept) -> None:
    assert not read_keys(driver, close=False)


def test_without_textual_s_parser_the_plain_one_reads_the_keys_and_the_hangup(
    driver: KeysKept, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where Textual's parser has moved, the keys are read by `PlainKeys`, and a closed
    terminal still ends the input as a hangup."""
    monkeypatch.setitem(sys.modules, "textual._xterm_parser", None)
    assert read_keys(driver, close=True)


def test_output_to_a_closed_terminal_is_dropped_and_said_once() -> None:
    controller, terminal = os.openpty()
    gone: list[bool] = []
    output = TerminalOutput(terminal, "utf-8", "strict", lambda: gone.append(True))
    output.write("before\n")
    assert os.read(controller, 100).endswith(b"before\r\n")
    os.close(controller)
    for _ in range(3):
        assert output.write("after: the terminal is gone\n") == len("after: the terminal is gone\n")
    output.flush()
    os.close(terminal)
    assert gone == [True]


def test_the_driver_s_output_is_replaced_only_where_textual_keeps_it(driver: KeysKept) -> None:
    """Textual's Linux driver keeps the file its writer thread writes to where
    `set_driver_output` looks; a driver without it keeps its own output."""
    output = TerminalOutput(2, "utf-8", "strict", print)
    assert textual_internals.set_driver_output(driver, output)
    changed = SimpleNamespace()
    assert not textual_internals.set_driver_output(changed, output)  # type: ignore[arg-type]
    assert vars(changed) == {}
