"""What the plain install is: the package on this Python, without any extra, with what a
user reads about it (its metadata), and the source distribution and the wheel a release
is made of."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.installed.conftest import Product

pytestmark = pytest.mark.installed

EXTRA_MODULES = {
    "abstracts_tui.store.live_postgres": "psycopg",
    "abstracts_tui.store.postgres": "psycopg",
    "abstracts_tui.server.web.guard": "aiohttp",
    "abstracts_tui.server.web.internals": "textual_serve",
    "abstracts_tui.server.web.links": "aiohttp",
    "abstracts_tui.server.web.page_session": "aiohttp",
    "abstracts_tui.server.web.room_page": "aiohttp",
    "abstracts_tui.server.web.rooms": "aiohttp",
    "abstracts_tui.server.web.visitors": "aiohttp",
}
"""The modules of the `postgres` and `web` extras, and the package whose absence stops them."""


def python(product: Product, program: str) -> str:
    done = subprocess.run(
        [product.python, "-c", program],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        cwd=product.outside,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.quick
def test_it_is_the_plain_install_from_the_clone(product: Product) -> None:
    where = python(product, "import abstracts_tui; print(abstracts_tui.__file__)")
    assert where.startswith(str(product.venv))  # its own copy: not editable, not the clone
    for package in ("psycopg", "textual_serve", "aiohttp", "pytest"):
        assert not product.has(package), f"{package} is in the plain install"


@pytest.mark.quick
def test_every_module_imports_and_only_the_extras_need_them(product: Product) -> None:
    found = python(
        product,
        "import importlib, pkgutil, abstracts_tui\n"
        "for module in pkgutil.walk_packages(abstracts_tui.__path__, 'abstracts_tui.'):\n"
        "    if not module.name.endswith('__main__'):\n"
        "        try:\n"
        "            importlib.import_module(module.name)\n"
        "        except ImportError as error:\n"
        "            print(module.name, error.name)\n",
    )
    failed = dict(line.split(" ") for line in found.splitlines())
    assert failed == EXTRA_MODULES


@pytest.mark.quick
def test_the_metadata_names_this_python_and_the_project(product: Product) -> None:
    found = python(
        product,
        "import sys, importlib.metadata as m\n"
        "meta = m.metadata('abstracts-tui')\n"
        "print('%d.%d' % sys.version_info[:2])\n"
        "print('\\n'.join(meta.get_all('Classifier')))\n"
        "print('Author:', meta['Author'] or meta['Author-email'])\n"
        "print('Keywords:', meta['Keywords'])\n",
    )
    version, *lines = found.splitlines()
    assert f"Programming Language :: Python :: {version}" in lines
    assert "Typing :: Typed" in lines and "Topic :: Games/Entertainment :: Board Games" in lines
    # True of the package only: Textual is not curses, and the tests run on Linux alone.
    assert "Environment :: Console :: Curses" not in lines
    assert [line for line in lines if line.startswith("Operating System")] == [
        "Operating System :: POSIX :: Linux"
    ]
    assert any(line.startswith("Author: ") and "abstracts-tui" in line for line in lines)
    assert any(line.startswith("Keywords: ") and "territory games" in line for line in lines)


def test_the_sdist_has_the_sources_and_installs(product: Product, tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(product.source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (sdist,) = tmp_path.glob("abstracts_tui-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {
        "abstracts_tui/engine/core/core.c",
        "docs/rules.md",
        "LICENSE",
        "README.md",
        "CHANGELOG.md",
    } <= names
    assert not any(name.startswith(("tests/", "scripts/")) for name in names)
    venv = tmp_path / "venv"
    subprocess.run([product.python, "-m", "venv", str(venv)], check=True, timeout=300)
    installed = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(sdist)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert installed.returncode == 0, installed.stderr
    version = subprocess.run(
        [str(venv / "bin" / "abstracts-tui"), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert version.returncode == 0 and version.stdout.startswith("abstracts-tui ")


def section_names(elf: bytes) -> set[str]:
    """The names of the sections of a 64-bit little-endian ELF file (Linux's shared
    objects on x86-64 and aarch64), read from its section headers."""
    assert elf[:6] == b"\x7fELF\x02\x01", "not a 64-bit little-endian ELF file"
    (table,) = struct.unpack_from("<Q", elf, 0x28)
    size, count, names_index = struct.unpack_from("<HHH", elf, 0x3A)
    headers = [elf[table + index * size : table + (index + 1) * size] for index in range(count)]
    (names_at,) = struct.unpack_from("<Q", headers[names_index], 0x18)
    names = set()
    for header in headers:
        start = names_at + struct.unpack_from("<I", header, 0)[0]
        names.add(elf[start : elf.index(b"\0", start)].decode("ascii"))
    return names


def test_the_wheel_has_the_built_core_alone_stripped(product: Product, tmp_path: Path) -> None:
    # A copy to build from: the sdist's test builds from the clone at the same time.
    source = tmp_path / "source"
    shutil.copytree(product.source, source, ignore=shutil.ignore_patterns(".git"))
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = tmp_path.glob("abstracts_tui-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        sources = [name for name in names if name.endswith((".c", ".h"))]
        assert not sources, "the wheel carries the core's C sources"
        cores = [
            name
            for name in names
            if name.startswith("abstracts_tui/engine/_core.") and name.endswith((".so", ".pyd"))
        ]
        if shutil.which("cc") is None:
            pytest.skip("no C compiler here: the wheel has no compiled core to look at")
        (core,) = cores
        if sys.platform.startswith("linux"):
            # Stripped at link (setup.py): no symbol table, no debugging information.
            found = section_names(archive.read(core))
            assert ".text" in found
            assert not {name for name in found if name == ".symtab" or name.startswith(".debug")}
