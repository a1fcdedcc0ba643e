"""The compiled core without Python (core/engine.h), built here as a small program,
`tests/engine/native/tree_check.c`, in four ways:
- with the system's C compiler, as the Python module is built;
- with ThreadSanitizer, which stops the program at the first data race among the
  threads that share the tree (the statistics are lock-free atomics: a plain read or
  write of a field another thread changes would be a race);
- with the portable bit counts, which compilers without builtins (MSVC) use;
- for Windows with MinGW-w64, run under Wine: the Windows thread layer of
  core/platform.h, which nothing else here runs.

Each build searches a position of every game with more threads than cores, in two
runs, and checks every count of the tree (as `test_shared_tree.py` does through
Python). With one thread each build must find, move for move, the very statistics the
Python module finds with the same seed: one core, the same search, on every platform.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from abstracts_tui.engine.compiled import position_args
from abstracts_tui.engine.terms import (
    DEFAULT_AMAF_FROM,
    DEFAULT_BIAS,
    DEFAULT_EXPLORATION,
    DEFAULT_REF,
)
from abstracts_tui.rules import new_game
from tests.engine.compiled_support import needs_core

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "abstracts_tui/engine/core"
SOURCE = Path(__file__).resolve().parent / "native/tree_check.c"
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
MINGW = shutil.which("x86_64-w64-mingw32-gcc")
WINE = next(
    (
        path
        for path in (shutil.which("wine"), shutil.which("wine64"), "/usr/lib/wine/wine64")
        if path and os.access(path, os.X_OK)
    ),
    None,
)

THREADS = 4 * (os.cpu_count() or 1) + 3
"""More threads than cores, so that threads are interrupted mid-walk."""

CASES = [
    ("egotzi", 5, 64 * 1024 * 1024),  # the solver at work
    ("linage", 7, 512 * 1024),  # the memory bound reached under way
    ("petrify", 6, 2 * 1024 * 1024),
    ("pilo", 6, 2 * 1024 * 1024),
    ("partitions", 5, 2 * 1024 * 1024),
]


@dataclass(frozen=True)
class Build:
    """A built tree_check, or why it could not be built here."""

    run: list[str] | None
    env: dict[str, str]
    playouts: int
    skip: str = ""


def compile_check(out: Path, compiler: str, flags: list[str]) -> str:
    """Compile tree_check.c to `out`; the compiler's complaint, or "" when built."""
    done = subprocess.run(
        [compiler, "-std=c11", *flags, f"-I{CORE}", str(SOURCE), "-o", str(out), "-lm"],
        capture_output=True,
        text=True,
    )
    return "" if done.returncode == 0 else done.stderr.strip()[-2000:]


def make_build(kind: str, folder: Path) -> Build:
    """Unoptimised builds (-O0): each compiles in seconds instead of a quarter of a
    minute, and the checks ask for no speed (the Python module's tests run the -O2
    build)."""
    env = dict(os.environ)
    if kind == "windows":
        if MINGW is None or WINE is None:
            return Build(None, env, 0, "MinGW-w64 and Wine are not both here (CI installs them)")
        exe = folder / "tree_check.exe"
        complaint = compile_check(exe, MINGW, ["-O0", "-static"])
        assert not complaint, complaint  # MinGW-w64 here: the core must build for Windows
        env.update(WINEDEBUG="-all", WINEPREFIX=str(folder / "wine"))
        return Build([WINE, str(exe)], env, 6000)
    if COMPILER is None:
        return Build(None, env, 0, "no C compiler on this machine")
    binary = folder / f"tree_check_{kind}"
    flags = {
        "native": ["-O0", "-pthread"],
        "portable": ["-O0", "-pthread", "-DCORE_PORTABLE_BITS"],
        "tsan": ["-O0", "-g", "-fsanitize=thread", "-pthread"],
    }[kind]
    complaint = compile_check(binary, COMPILER, flags)
    if complaint and kind == "tsan":
        return Build(None, env, 0, f"the C compiler here has no ThreadSanitizer: {complaint}")
    assert not complaint, complaint
    env["TSAN_OPTIONS"] = "halt_on_error=1 exitcode=66"
    return Build([str(binary)], env, 3000 if kind == "tsan" else 6000)


KINDS = ["native", "tsan", "portable", "windows"]


class Builds:
    """Each build made when a test first asks for it (a test worker builds only the
    kinds its tests need)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: dict[str, Build] = {}

    def __getitem__(self, kind: str) -> Build:
        if kind not in self.made:
            self.made[kind] = make_build(kind, self.folder)
        return self.made[kind]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    return Builds(tmp_path_factory.mktemp("tree_check"))


def checked(build: Build, name: str, size: int, max_bytes: int, threads: int, playouts: int) -> str:
    """Run the build on the start of `name`; its output, which must say "ok"."""
    if build.run is None:
        pytest.skip(build.skip)
    game, size_, pie, komi, boards, levels, turn, passes, last, swap = position_args(
        new_game(name, size=size)
    )

    def hexes(values: tuple[bytes, ...]) -> str:
        return ",".join(value.hex() for value in values) or "-"

    position = [game, size_, pie, komi, turn, passes, last, swap, hexes(boards), hexes(levels)]
    search = [threads, playouts, max_bytes, 7]
    terms = [DEFAULT_REF, DEFAULT_BIAS, DEFAULT_EXPLORATION, DEFAULT_AMAF_FROM]
    done = subprocess.run(
        [*build.run, *(str(value) for value in (*position, *search, *terms))],
        capture_output=True,
        text=True,
        env=build.env,
        timeout=300,
    )
    if "ThreadSanitizer: unexpected memory mapping" in done.stderr:
        pytest.skip("ThreadSanitizer cannot run under this kernel's address layout")
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    assert done.stdout.startswith("ok: "), done.stdout
    return done.stdout


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "size", "max_bytes"), CASES)
def test_the_counts_add_up_with_more_threads_than_cores(
    builds: Builds, kind: str, name: str, size: int, max_bytes: int
) -> None:
    build = builds[kind]
    out = checked(build, name, size, max_bytes, THREADS, build.playouts)
    assert f"{THREADS} threads" in out


def python_root(name: str, size: int, max_bytes: int, playouts: int) -> str:
    """The root's statistics after the Python module's one-thread search of seed 7, in
    the same two runs as tree_check's, written as tree_check writes them."""
    from abstracts_tui.engine.compiled import module, position_of

    searcher = module().Searcher(
        position_of(new_game(name, size=size)),
        7,
        1,
        1,
        DEFAULT_REF,
        DEFAULT_BIAS,
        DEFAULT_EXPLORATION,
        DEFAULT_AMAF_FROM,
        max_bytes,
        1,
        1,
    )
    searcher.run(playouts // 2, 0.0)
    searcher.run(playouts - playouts // 2, 0.0)
    moves = [f"{move}:{visits}:{round(wins * 2)}" for move, visits, wins, _, _ in searcher.stats()]
    return " ".join(["root", *moves])


@needs_core
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "size", "max_bytes"), CASES)
def test_one_thread_finds_what_the_python_module_finds(
    builds: Builds, kind: str, name: str, size: int, max_bytes: int
) -> None:
    out = checked(builds[kind], name, size, max_bytes, 1, 2000)
    root = out.splitlines()[1]
    assert root == python_root(name, size, max_bytes, 2000)
    assert sum(int(move.split(":")[1]) for move in root.split()[1:]) == 2000
