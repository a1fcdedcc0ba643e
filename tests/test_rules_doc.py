"""The rules document, docs/rules.md: it is the only rule book the repository cites, and
every section of it that the README, the code or the tests cite exists.

A citation names sections by their headings, a section inside another after a colon, on
one line: `docs/rules.md, Petrify: blocks` is the heading "Blocks" inside "Petrify". A link
to an anchor of docs/rules.md must lead to a heading too.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"

# Spelled in two parts so that this file does not itself cite the old file.
OLD_RULINGS = ("RULINGS" + ".md").lower().encode()

CITATION = re.compile(r"docs/rules\.md, ([^\n)\];`\"']*)")
LINK = re.compile(r"docs/rules\.md#([\w-]+)")
OWN_LINK = re.compile(r"\]\(#([\w-]+)\)")
HEADING = re.compile(r"(#{1,6}) +(.+?) *$")

SKIPPED_DIRS = {"__pycache__", "build", "dist", "node_modules"}


def repository_files() -> list[Path]:
    """Every file of the repository, without version control, caches and virtual
    environments (dot folders other than `.ci` and `.github` are all of those)."""
    found = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [
            name
            for name in dirs
            if name not in SKIPPED_DIRS
            and (not name.startswith(".") or name in (".ci", ".github"))
            and not name.endswith(".egg-info")
            and not (Path(folder, name) / "pyvenv.cfg").exists()
        ]
        found += [Path(folder, name) for name in names]
    return sorted(found)


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    parents: tuple[str, ...]
    """The titles of the headings it lies in, outermost first."""
    anchor: str


def slug(title: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading, before de-duplication."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def headings(text: str) -> list[Heading]:
    """The headings of a Markdown text, outside fenced code blocks."""
    found: list[Heading] = []
    open_titles: list[tuple[int, str]] = []
    anchors: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        match = HEADING.fullmatch(line)
        if fenced or not match:
            continue
        level, title = len(match[1]), match[2]
        while open_titles and open_titles[-1][0] >= level:
            open_titles.pop()
        base = slug(title)
        count = anchors.get(base, 0)
        anchors[base] = count + 1
        anchor = base if count == 0 else f"{base}-{count}"
        found.append(Heading(level, title, tuple(t for _, t in open_titles), anchor))
        open_titles.append((level, title))
    return found


def section_problem(cited: str, sections: list[Heading]) -> str | None:
    """Why the cited section names no heading of the document, or None if it names one."""
    parts = [part.strip().lower() for part in cited.split(":")]
    if not all(parts):
        return "no section named (a citation names its section on the same line)"

    def inside(heading: Heading) -> bool:
        # The outer names must appear among the heading's parents, in order.
        parents = iter(parent.lower() for parent in heading.parents)
        return all(any(part == parent for parent in parents) for part in parts[:-1])

    matches = [h for h in sections if h.title.lower() == parts[-1] and inside(h)]
    if not matches:
        return "no such heading in docs/rules.md"
    if len(matches) > 1:
        return "more than one heading has this name: name its game too, e.g. 'Linage: scoring'"
    return None


def line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def citations() -> list[tuple[str, str, str]]:
    """Every citation of docs/rules.md: (where, `section` or `anchor`, what it names)."""
    found = []
    for path in repository_files():
        text = path.read_bytes().decode("utf-8", errors="replace")
        for match in CITATION.finditer(text):
            cited = match[1].split(". ")[0].rstrip(" .,")
            found.append((f"{relative(path)}:{line_of(text, match.start())}", "section", cited))
        links = list(LINK.finditer(text))
        if path == DOC:
            links += OWN_LINK.finditer(text)
        for match in links:
            found.append((f"{relative(path)}:{line_of(text, match.start())}", "anchor", match[1]))
    return found


def test_no_file_cites_the_old_rulings_file() -> None:
    files = repository_files()
    names = {relative(path) for path in files}
    assert {"README.md", "docs/rules.md", "abstracts_tui/rules/base.py"} <= names
    citing = [relative(path) for path in files if OLD_RULINGS in path.read_bytes().lower()]
    assert citing == [], (
        f"these files cite the old rulings file; cite docs/rules.md and its sections: {citing}"
    )


def test_every_cited_section_of_the_rules_document_exists() -> None:
    sections = headings(DOC.read_text(encoding="utf-8"))
    anchors = {heading.anchor for heading in sections}
    found = citations()
    problems = []
    for where, kind, cited in found:
        if kind == "anchor":
            if cited not in anchors:
                problems.append(f"{where}: #{cited}: no heading of docs/rules.md has this anchor")
        elif (problem := section_problem(cited, sections)) is not None:
            problems.append(f"{where}: '{cited}': {problem}")
    assert problems == []
    # The README, the rules code and the tests all cite the document.
    places = {where.split("/")[0].split(":")[0] for where, _, _ in found}
    assert {"README.md", "abstracts_tui", "tests"} <= places


def test_a_citation_of_a_missing_or_ambiguous_section_is_refused() -> None:
    sections = headings(DOC.read_text(encoding="utf-8"))
    assert section_problem("Petrify: blocks", sections) is None
    assert section_problem("Notation: the hex board", sections) is None
    assert section_problem("Petrify and Pilo scoring", sections) is None
    assert section_problem("Petrify: pushes", sections) == "no such heading in docs/rules.md"
    assert section_problem("Mounds", sections) == "no such heading in docs/rules.md"
    assert "more than one heading" in (section_problem("Scoring", sections) or "")
    assert "no section named" in (section_problem("Petrify:", sections) or "")
    assert "no section named" in (section_problem("", sections) or "")
