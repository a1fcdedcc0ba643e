"""The compiled core is optional: without a working C compiler the install still
succeeds and the pure-Python engine plays (the program says how to get the fast one).

It is built on Python's limited API (the stable ABI of 3.11 and later), so one wheel per
platform, tagged cp311-abi3, serves every Python from 3.11."""

import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORE = "abstracts_tui/engine/core"
LIMITED_API = "0x030B0000"  # Python 3.11


STRIP_AT_LINK = ["-s"]
"""Linker options that leave the symbol table and the debug sections out of the core on
Linux (GCC and Clang pass `-s` to the linker as `--strip-all`): Python's own compiler
options bring `-g`, which made the core 1.5 MB where 0.3 MB does the same work. A
developer who needs the symbols (a debugger, a profiler) removes the option for that build."""


class BuildExt(build_ext):
    """Each compiler its own options: GCC and Clang with POSIX threads, MSVC with its
    C11 atomics (still called experimental by MSVC) and Windows threads. The core is
    stripped as it is linked on Linux only, where it is built and tested here: macOS's
    and Windows' linkers have options of their own, untried (MSVC keeps its debug
    information in a separate file anyway)."""

    def build_extensions(self) -> None:
        msvc = self.compiler.compiler_type == "msvc"
        for extension in self.extensions:
            if msvc:
                extension.extra_compile_args = ["/O2", "/std:c11", "/experimental:c11atomics"]
                extension.extra_link_args = []
            else:
                # Bit counts are the rules' commonest step: the instruction, not a library
                # call, on x86-64 (every x86-64 processor since 2008 has it).
                x86 = platform.machine().lower() in ("x86_64", "amd64")
                popcnt = ["-mpopcnt"] if x86 and platform.system() != "Darwin" else []
                extension.extra_compile_args = ["-O2", "-pthread", *popcnt]
                strip = STRIP_AT_LINK if sys.platform.startswith("linux") else []
                extension.extra_link_args = ["-pthread", *strip]
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "abstracts_tui.engine._core",
            sources=[f"{CORE}/core.c"],
            depends=[
                f"{CORE}/{name}"
                for name in (
                    "engine.h",
                    "bitboard.h",
                    "rules.h",
                    "playout.h",
                    "search.h",
                    "instance.h",
                    "platform.h",
                )
            ],
            define_macros=[("Py_LIMITED_API", LIMITED_API)],
            py_limited_api=True,
            optional=True,
        )
    ],
    cmdclass={"build_ext": BuildExt},
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
