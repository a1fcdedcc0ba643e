"""The README's links: each file it links to is in the repository, and each anchor is a
heading of that file (as GitHub makes anchors). The docs site's own links are checked by
`mkdocs build --strict` in CI; the README is not a page of it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_rules_doc import headings

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

LINK = re.compile(r"\]\(([^)\s]+)\)")


def broken_links(text: str, base: Path) -> list[str]:
    """The relative links of a Markdown text that lead to no file, or to no heading."""
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = base / path if path else None
        if file is not None and not file.exists():
            broken.append(target)
            continue
        if anchor:
            linked = file.read_text(encoding="utf-8") if file is not None else text
            if anchor not in {heading.anchor for heading in headings(linked)}:
                broken.append(target)
    return broken


def test_every_link_of_the_readme_leads_somewhere() -> None:
    text = README.read_text(encoding="utf-8")
    assert "docs/commands.md" in text and "docs/playing.md#settings" in text
    assert broken_links(text, ROOT) == []


def test_a_link_to_nothing_is_found() -> None:
    text = "# Top\n[a](docs/playing.md#no-such-part) [b](docs/none.md) [c](#top) [d](#none)"
    assert broken_links(text, ROOT) == ["docs/playing.md#no-such-part", "docs/none.md", "#none"]
