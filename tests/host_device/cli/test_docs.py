"""The developer pages' examples are true: docs/scripts.md's script is the
example file and its printed result and timeline lines are what `play` and
`simulate` print; docs/listening.md's `intents` example prints what it shows."""

import json
import shlex

import pytest

from host_device.cli.main import main
from tests.helpers.paths import ROOT

SCRIPTS = (ROOT / "docs" / "scripts.md").read_text("utf-8")
LISTENING = (ROOT / "docs" / "listening.md").read_text("utf-8")
EXAMPLE = ROOT / "examples" / "classic-game.json"


def block_after(page: str, marker: str, lang: str = "json") -> str:
    start = page.index(marker)
    start = page.index(f"```{lang}\n", start) + len(lang) + 4
    return page[start : page.index("```", start)]


def test_the_script_format_example_is_the_example_file():
    shown = json.loads(block_after(SCRIPTS, "## The script format"))
    example = json.loads(EXAMPLE.read_text("utf-8"))
    example.pop("comment")
    assert shown == example


def test_the_result_shown_is_what_play_prints(capsys):
    assert main(["play", str(EXAMPLE)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads(block_after(SCRIPTS, "The result (`./run play examples/classic-game.json`")) == printed
    assert printed["ignored"] == [] and printed["out"][0] == {"seat": 5, "day": 1, "how": "vote"}


@pytest.mark.slow
def test_the_timeline_lines_shown_are_in_the_timeline_simulate_writes(tmp_path, capsys, builtin_pack):
    out = tmp_path / "t.jsonl"
    assert main(["simulate", str(EXAMPLE), "--timeline", str(out)]) == 0
    written = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    shown = [
        json.loads(line)
        for line in block_after(SCRIPTS, "writes every effect with its virtual time").splitlines()
    ]
    assert len(shown) >= 4
    for entry in shown:
        assert entry in written


def test_the_intents_example_prints_what_is_shown(capsys):
    block = block_after(LISTENING, "## Trying the patterns: `intents`", "sh").splitlines()
    command, expected = block[0], block[1:]
    argv = shlex.split(command.removeprefix("$ ./run "))
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == expected
