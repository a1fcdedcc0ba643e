"""The compiled core is optional: without a working C compiler the install still
succeeds and the pure-Python engine plays (the program says how to get the fast one)."""

import platform

from setuptools import Extension, setup

CORE = "abstracts_tui/engine/core"
# Bit counts are the rules' commonest step: the instruction, not a library call, on x86-64
# (every x86-64 processor since 2008 has it).
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

setup(
    ext_modules=[
        Extension(
            "abstracts_tui.engine._core",
            sources=[f"{CORE}/core.c"],
            depends=[
                f"{CORE}/{name}"
                for name in ("bitboard.h", "rules.h", "playout.h", "search.h", "instance.h")
            ],
            extra_compile_args=["-O2", "-pthread", *POPCNT],
            extra_link_args=["-pthread"],
            optional=True,
        )
    ]
)
