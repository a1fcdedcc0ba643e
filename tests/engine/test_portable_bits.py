"""The compiled core's portable bit counts (core/platform.h), used where the compiler has
no builtins (MSVC): compiled here with CORE_PORTABLE_BITS and checked against Python's
own counts on words of every shape."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

PLATFORM_H = Path(__file__).resolve().parents[2] / "abstracts_tui/engine/core/platform.h"
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")

PROGRAM = r"""
#include <stdint.h>
#include <stdio.h>
#include "platform.h"
int main(void)
{
    unsigned long long x;
    while (scanf("%llu", &x) == 1)
        printf("%d %d %d\n", popcount64(x), ctz64(x), clz64(x));
    return 0;
}
"""


def words() -> list[int]:
    rng = random.Random(5)
    found = [1, 2**63, 2**64 - 1, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA]
    found += [1 << bit for bit in range(64)]
    found += [(1 << bit) - 1 for bit in range(1, 65)]
    found += [rng.getrandbits(64) | 1 << rng.randrange(64) for _ in range(2000)]
    found += [rng.getrandbits(rng.randrange(1, 65)) or 1 for _ in range(2000)]
    return found


@pytest.mark.skipif(COMPILER is None, reason="no C compiler on this machine")
@pytest.mark.parametrize("portable", [True, False], ids=["portable", "builtins"])
def test_bit_counts(portable: bool, tmp_path: Path) -> None:
    assert COMPILER is not None
    source = tmp_path / "bits.c"
    source.write_text(PROGRAM)
    binary = tmp_path / "bits"
    flags = ["-DCORE_PORTABLE_BITS"] if portable else []
    subprocess.run(
        [COMPILER, "-O2", *flags, f"-I{PLATFORM_H.parent}", str(source), "-o", str(binary)],
        check=True,
    )
    values = words()
    given = "\n".join(str(v) for v in values) + "\n"
    out = subprocess.run([str(binary)], input=given, capture_output=True, text=True, check=True)
    for value, line in zip(values, out.stdout.splitlines(), strict=True):
        expected = (
            bin(value).count("1"),
            (value & -value).bit_length() - 1,
            64 - value.bit_length(),
        )
        assert tuple(int(n) for n in line.split()) == expected, hex(value)
