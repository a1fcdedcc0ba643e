"""Which search core is in use: `--version`, the protocol's `version`, and the one line
at start when the compiled core is missing (the real command in a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.engine.compiled_support import needs_core

# The command as it starts when the compiled core was not built: importing it fails.
WITHOUT_CORE = (
    "import sys; sys.modules['abstracts_tui.engine._core'] = None; "
    "from abstracts_tui.cli import main; main()"
)


def run(
    *args: str, core: str | None = None, code: str | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ABSTRACTS_TUI_")}
    if core is not None:
        env["ABSTRACTS_TUI_CORE"] = core
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "abstracts_tui"]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, timeout=60, env=env, input=stdin
    )


@needs_core
def test_version_names_the_compiled_core() -> None:
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == "abstracts-tui 0.1.0, compiled search core"
    assert done.stderr == ""


@needs_core
def test_the_python_core_can_be_chosen() -> None:
    done = run("--version", core="python")
    assert "pure-Python search core (ABSTRACTS_TUI_CORE=python)" in done.stdout
    answers = run("engine", core="python", stdin="version\nquit\n").stdout
    assert answers.startswith("= 0.1.0, pure-Python search core")


def test_without_the_compiled_core_one_line_says_how_to_get_it() -> None:
    done = run("engine", code=WITHOUT_CORE, stdin="version\nnewgame egotzi size=5\ngenmove\n")
    assert done.returncode == 0
    (line,) = done.stderr.splitlines()
    assert "the fast engine (compiled core) is not built" in line
    assert "install a C compiler" in line and "reinstall" in line
    answers = done.stdout.split("\n\n")
    assert answers[0] == "= 0.1.0, pure-Python search core (the compiled core is not built)"
    assert answers[2].startswith("= ")  # the pure-Python engine still plays
    version = run("--version", code=WITHOUT_CORE)
    assert "the compiled core is not built" in version.stdout
