"""The package's long description as the package index shows it: read from the plain
install's metadata, it must show whole there (no image or link relative to the
repository, which the index does not have) and say how to install the package by name."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.installed.conftest import Product

pytestmark = pytest.mark.installed

TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)|(?:src|href)\s*=\s*[\"']([^\"']*)", re.IGNORECASE)
"""A Markdown link's or image's target, or an HTML `src` or `href`."""


def long_description(product: Product) -> tuple[str, str]:
    """The installed package's description and its content type."""
    done = subprocess.run(
        [
            product.python,
            "-c",
            "import importlib.metadata as m\n"
            "meta = m.metadata('abstracts-tui')\n"
            "print(meta['Description-Content-Type'])\n"
            "print(meta['Description'] or meta.get_payload())\n",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        cwd=product.outside,
    )
    assert done.returncode == 0, done.stderr
    kind, _, text = done.stdout.partition("\n")
    return text, kind


def relative_targets(text: str) -> list[str]:
    """Every link or image target of a Markdown text that is not an absolute address."""
    targets = [first or second for first, second in TARGET.findall(text)]
    return [target for target in targets if not re.match(r"https?://", target)]


@pytest.mark.quick
def test_the_long_description_shows_whole_on_the_package_index(product: Product) -> None:
    text, kind = long_description(product)
    assert kind.startswith("text/markdown")
    assert relative_targets(text) == []
    assert "pip install abstracts-tui" in text
    assert "abstracts-tui serve" in text and "--lines" in text and "abstracts-tui web" in text


def test_a_relative_image_or_link_is_found() -> None:
    text = "![board](screenshots/petrify.svg) [keys](#keys) [site](https://example.org/)"
    assert relative_targets(text) == ["screenshots/petrify.svg", "#keys"]
    assert relative_targets('<img src="docs/a.png"> <a href="https://x.org/">x</a>') == [
        "docs/a.png"
    ]
