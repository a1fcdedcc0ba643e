"""Speed of the app: `python -m abstracts_tui.tui.bench [--presses N] [--starts N]`.

Prints:
- key press to redrawn frame: the CPU time for a cursor key on a 10x10 Pilo board to be
  handled and the whole screen composed again (headless; the test pilot's idle waits,
  which are sleeps, are not counted);
- a typed move: the CPU time of `:`, a legal move's characters and Enter, each key
  handled and drawn, in an 80x24 terminal on the Partitions board (headless; what the
  SSH server spends on the mover's screen for a move typed over SSH, the frames' bytes
  and the test pilot's own waiting included);
- start-up to the first screen of the app, next to that of a bare Textual app in the same
  run, each a fresh Python process, taken alternately so load on the machine hits both:
  the wall time, and the process's CPU time, which other people's work on a shared
  machine sways less;
- Textual's own floor for the first two, measured the same way in the same run: a bare
  Textual app of 30 widgets (as many as the play screen), a bound key whose action does
  nothing to its whole frame, and four bound keys pressed at once (as `:`, two characters
  and Enter), each repainting one line of text;
- with `--analysis S`: the playouts per second of the app's analysis of the 10x10 Pilo
  board (the panel redrawn four times a second meanwhile), next to those of the same
  search alone in the same process, taken alternately, S seconds each.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..engine.search import Budget

FIRST_SCREEN = {
    "bare Textual app": (
        "from textual.app import App\n"
        "class Bare(App):\n"
        "    def on_mount(self):\n"
        "        self.call_after_refresh(self.exit)\n"
        "Bare().run(headless=True)\n"
    ),
    "abstracts-tui": (
        "import sys\n"
        "from pathlib import Path\n"
        "from abstracts_tui.tui.factory import build_app\n"
        "app = build_app(data=Path(sys.argv[1]))\n"
        "app.call_after_refresh(app.exit)\n"
        "app.run(headless=True)\n"
    ),
}


def key_to_frame(presses: int) -> tuple[float, float]:
    """(mean ms, median ms) of CPU from a cursor key press to the composed frame, 10x10 Pilo."""
    from ..game_setup import Setup
    from .factory import build_app
    from .textual_internals import compose_frame

    async def measure() -> list[float]:
        with tempfile.TemporaryDirectory() as data:
            app = build_app(Setup("pilo", 10), data=Path(data))
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                times = []
                for index in range(presses):
                    key = "right" if index % 20 < 10 else "left"
                    start = time.process_time()
                    await pilot.press(key)
                    compose_frame(app.screen)
                    times.append(time.process_time() - start)
                return times

    times = asyncio.run(measure())
    return statistics.mean(times) * 1e3, statistics.median(times) * 1e3


def textual_floor(presses: int, moves: int) -> tuple[float, float]:
    """(mean ms of CPU for a no-op key to its whole frame, mean ms for four keys that each
    repaint a line), in a bare Textual app of 30 widgets: what Textual itself costs."""
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.widgets import Static

    from .textual_internals import compose_frame

    class Bare(App[None]):
        BINDINGS = [Binding("x", "nothing"), Binding("colon,d,4,enter", "line")]

        def compose(self) -> ComposeResult:
            for number in range(29):
                yield Static(f"line {number}")
            self.last = Static("", id="last")
            yield self.last

        def action_nothing(self) -> None:
            pass

        def action_line(self) -> None:
            self.lines = getattr(self, "lines", 0) + 1
            self.last.update(f"line {self.lines}", layout=False)

    async def measure() -> tuple[float, float]:
        app = Bare()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            start = time.process_time()
            for _ in range(presses):
                await pilot.press("x")
                compose_frame(app.screen)
            key = (time.process_time() - start) / presses
            start = time.process_time()
            for _ in range(moves):
                await pilot.press("colon", "d", "4", "enter")
                await pilot.pause()
            return key * 1e3, (time.process_time() - start) / moves * 1e3

    return asyncio.run(measure())


def typed_move(moves: int) -> float:
    """Mean ms of CPU for a typed move (`:`, the move, Enter) at 80x24, Partitions."""
    import random

    from ..game_setup import Setup
    from .factory import build_app
    from .screens.play import PlayScreen

    async def measure() -> float:
        with tempfile.TemporaryDirectory() as data:
            app = build_app(Setup("partitions"), data=Path(data))
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.5)
                screen = app.screen
                assert isinstance(screen, PlayScreen)
                rng = random.Random(1)
                total = 0.0
                for _ in range(moves):
                    game = screen.session.game
                    move = game.move_name(rng.choice(list(game.legal_moves())))
                    start = time.process_time()
                    await pilot.press(":", *move, "enter")
                    await pilot.pause()
                    total += time.process_time() - start
                return total / moves * 1e3

    return asyncio.run(measure())


def analysis_speed(seconds: float, rounds: int) -> list[tuple[float, float]]:
    """(the app's analysis, the search alone) playouts per second, per round."""
    from ..engine.search import Search
    from ..game_setup import Setup
    from ..rules import new_game
    from .factory import build_app
    from .screens.play import PlayScreen

    async def in_app() -> float:
        with tempfile.TemporaryDirectory() as data:
            app = build_app(Setup("pilo", 10), data=Path(data))
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                await pilot.press("x")
                await pilot.pause(seconds)
                screen = app.screen
                assert isinstance(screen, PlayScreen)
                from .computer import Kind

                search = screen.searches.search(Kind.ANALYSIS)
                assert search is not None
                return float(search.playouts_per_second)

    found = []
    for index in range(rounds):
        app_rate = asyncio.run(in_app())
        alone = Search(new_game("pilo", size=10), index)
        alone.run(Budget(seconds=seconds))
        found.append((app_rate, alone.playouts_per_second))
    return found


def start_up(starts: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds from process start to the first screen, per program."""
    wall: dict[str, list[float]] = {name: [] for name in FIRST_SCREEN}
    cpu: dict[str, list[float]] = {name: [] for name in FIRST_SCREEN}
    with tempfile.TemporaryDirectory() as data:
        for _ in range(starts):
            for name, code in FIRST_SCREEN.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run([sys.executable, "-c", code, data], check=True)
                wall[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(
                    after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                )
    return {
        name: (statistics.median(wall[name]), statistics.median(cpu[name])) for name in FIRST_SCREEN
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--moves", type=int, default=40, help="typed moves to time")
    parser.add_argument("--analysis", type=float, metavar="S", help="also analysis, S s a run")
    parser.add_argument("--rounds", type=int, default=3, help="analysis runs of each")
    args = parser.parse_args(argv)
    if args.analysis:
        from ..engine.core_status import core_name

        for app_rate, alone in analysis_speed(args.analysis, args.rounds):
            print(
                f"analysis of 10x10 Pilo ({core_name()} core): in the app {app_rate:,.0f}/s, "
                f"the search alone {alone:,.0f}/s ({app_rate / alone:.2f}x)"
            )
    mean, median = key_to_frame(args.presses)
    print(f"key press to frame, 10x10 board: mean {mean:.2f} ms, median {median:.2f} ms CPU")
    typed = typed_move(args.moves)
    print(f"typed move (: move Enter), 80x24 Partitions: mean {typed:.1f} ms CPU")
    key, keys = textual_floor(args.presses, args.moves)
    print(
        f"a bare Textual app of 30 widgets: a no-op key to its frame {key:.2f} ms "
        f"(the app's cursor key {mean / key:.2f}x), four keys each repainting a line "
        f"{keys:.1f} ms (the app's typed move {typed / keys:.2f}x), mean CPU"
    )
    times = start_up(args.starts)
    bare_wall, bare_cpu = times["bare Textual app"]
    for name, (wall, cpu) in times.items():
        print(
            f"start-up to first screen, {name}: "
            f"{wall * 1e3:.0f} ms, {cpu * 1e3:.0f} ms CPU (medians)"
        )
    app_wall, app_cpu = times["abstracts-tui"]
    print(
        f"start-up ratio: {app_wall / bare_wall:.2f}x the bare app, "
        f"{app_cpu / bare_cpu:.2f}x in CPU time"
    )


if __name__ == "__main__":
    main()
