"""What a client sends an app crosses to it as the app needs it (`session_thread.AppInput`,
on the server's loop): every key, in order; of a storm of window changes in one turn of
the loop, the last size once."""

from __future__ import annotations

import asyncio

from abstracts_tui.server.session_thread import AppInput


class Driver:
    """An app's driver as `AppInput` reaches it: notes what arrives."""

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []
        self.keys: list[str] = []

    def feed(self, text: str) -> None:
        self.keys.append(text)

    def resize(self, width: int, height: int) -> None:
        self.sizes.append((width, height))


def test_a_storm_of_sizes_in_one_turn_crosses_once_as_its_last_size() -> None:
    async def run() -> Driver:
        app_input, driver = AppInput((80, 24)), Driver()
        app_input.attach(driver, asyncio.get_running_loop())
        for number in range(120):  # what one read of a storm holds
            app_input.resize((500 - number, 200 - number % 50))
        app_input.resize((120, 40))
        app_input.feed("a")
        app_input.feed("b")
        for _ in range(3):
            await asyncio.sleep(0)
        app_input.resize((100, 30))  # a later turn: a size of its own
        for _ in range(3):
            await asyncio.sleep(0)
        return driver

    driver = asyncio.run(run())
    assert driver.sizes == [(120, 40), (100, 30)]
    assert driver.keys == ["a", "b"]


def test_a_size_given_before_the_app_has_its_driver_is_handed_over_with_it() -> None:
    async def run() -> Driver:
        app_input, driver = AppInput((80, 24)), Driver()
        app_input.start()
        app_input.resize((132, 43))
        app_input.feed("x")
        app_input.attach(driver, asyncio.get_running_loop())
        for _ in range(3):
            await asyncio.sleep(0)
        return driver

    driver = asyncio.run(run())
    assert driver.sizes == [(132, 43)]
    assert driver.keys == ["x"]
