"""The README stays short and starts where it should: at most 250 lines,
the club's guide linked first, a Quick start of exactly two commands. Every
relative link in the README and in docs/ leads to a file that exists (and,
into a Markdown page, to a heading it has), and every `./run` line of their
shell blocks parses."""

import re
import shlex
from pathlib import Path

import pytest

from host_device.cli.main import build_parser
from tests.helpers.paths import ROOT

README = ROOT / "README.md"
PAGES = sorted([README, *(ROOT / "docs").rglob("*.md")])
QUICK_START = ["./run demo --speed 10", "./run test"]


def text_of(page: Path) -> str:
    return page.read_text("utf-8")


def test_the_readme_is_at_most_250_lines():
    assert len(text_of(README).splitlines()) <= 250


def test_the_quick_start_is_exactly_the_two_commands():
    section = text_of(README).split("## Quick start\n")[1].split("\n## ")[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    commands = [line.split("#")[0].strip() for line in blocks[0].splitlines() if line.strip()]
    assert commands == QUICK_START


def test_the_first_link_is_the_clubs_guide():
    first = re.search(r"\]\(([^)]+)\)", text_of(README))
    assert first is not None and first.group(1) == "docs/guide/README.md"
    assert "Руководство для клуба (по-русски)" in text_of(README).split(first.group(0))[0]


# --- links


def prose(text: str) -> str:
    """The page without its code: fenced blocks and inline code hold no links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation gone, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(
        r"^#{1,6} (.+)$", re.sub(r"^```.*?^```", "", text_of(page), flags=re.S | re.M), re.M
    ):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", prose(text_of(page))) if not re.match(r"[a-z]+:", t)]


def test_the_pages_link_to_each_other():
    """The check below reads links at all: the README and the guide's contents have them."""
    assert "docs/commands.md" in links(README)
    assert {"box.md", "evening.md", "assist.md", "record.md", "club-database.md", "problems.md"} <= set(
        links(ROOT / "docs" / "guide" / "README.md")
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading_there(page):
    for link in links(page):
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{page.relative_to(ROOT)}: {link}: no such file"
        if anchor and target.suffix == ".md":
            assert anchor in anchors(target), f"{page.relative_to(ROOT)}: {link}: no such heading"


def test_a_broken_link_and_a_broken_anchor_are_seen(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# Заголовок: `run --box`\n\n[a](missing.md) [b](#нет) [c](#заголовок-run---box)\n", "utf-8"
    )
    assert links(page) == ["missing.md", "#нет", "#заголовок-run---box"]
    assert anchors(page) == {"заголовок-run---box"}


# --- commands in shell blocks


def shown_commands():
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", text_of(page), re.S):
            for line in block.splitlines():
                line = line.split("  #")[0].strip().removeprefix("$ ")
                if line.startswith("./run ") and not line.startswith(("./run test", "./run arm64-check")):
                    yield line.removeprefix("./run ")


def test_the_shell_blocks_hold_commands():
    assert {"demo --speed 10", "games list", "run --box"} <= set(shown_commands())


@pytest.mark.parametrize("command", sorted(set(shown_commands())))
def test_every_command_shown_parses(command):
    argv = shlex.split(command.replace("[", "").replace("]", "").replace("...", ""))
    argv = [a for a in argv if a not in ("|", "KEY")]
    args = build_parser().parse_args(argv)  # an unknown command or option exits here
    assert callable(args.func)
