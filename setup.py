"""The compiled core is optional: without a working C compiler the install still
succeeds and the pure-Python engine plays (the program says how to get the fast one)."""

from setuptools import Extension, setup

CORE = "abstracts_tui/engine/core"

setup(
    ext_modules=[
        Extension(
            "abstracts_tui.engine._core",
            sources=[f"{CORE}/core.c"],
            depends=[
                f"{CORE}/{name}"
                for name in ("bitboard.h", "rules.h", "playout.h", "search.h", "instance.h")
            ],
            extra_compile_args=["-O2", "-pthread"],
            extra_link_args=["-pthread"],
            optional=True,
        )
    ]
)
