"""The README's examples are true: its script is the example file, its
printed results are what the commands print, every `./run COMMAND` line
parses, and the phrases it quotes are what `say --text` prints."""

import json
import re
import shlex

import pytest

from host_device.cli.main import build_parser, main
from tests.helpers.paths import ROOT

README = (ROOT / "README.md").read_text("utf-8")
EXAMPLE = ROOT / "examples" / "classic-game.json"


def block_after(marker: str, lang: str = "json") -> str:
    start = README.index(marker)
    start = README.index(f"```{lang}\n", start) + len(lang) + 4
    return README[start : README.index("```", start)]


def test_the_script_format_example_is_the_example_file():
    shown = json.loads(block_after("## The script format"))
    example = json.loads(EXAMPLE.read_text("utf-8"))
    example.pop("comment")
    assert shown == example


def test_the_result_shown_is_what_play_prints(capsys):
    assert main(["play", str(EXAMPLE)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads(block_after("The result (`./run play examples/classic-game.json`")) == printed
    assert printed["ignored"] == [] and printed["out"][0] == {"seat": 5, "day": 1, "how": "vote"}


def test_the_timeline_lines_shown_are_in_the_timeline_simulate_writes(tmp_path, capsys, builtin_pack):
    out = tmp_path / "t.jsonl"
    assert main(["simulate", str(EXAMPLE), "--timeline", str(out)]) == 0
    written = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    shown = [
        json.loads(line) for line in block_after("writes every effect with its virtual time").splitlines()
    ]
    assert len(shown) >= 4
    for entry in shown:
        assert entry in written


def test_the_intents_example_prints_what_is_shown(capsys):
    block = block_after("### `host-device intents", "sh").splitlines()
    command, expected = block[0], block[1:]
    argv = shlex.split(command.removeprefix("$ ./run "))
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == expected


SAID = re.compile(r"^\./run (say \S+(?: \w+=\S+)*)\s+# «(.+)»$", re.M)


def test_the_phrases_quoted_beside_say_are_what_it_says(capsys):
    quoted = SAID.findall(README)
    assert quoted
    for command, text in quoted:
        assert main([*command.split(), "--text"]) == 0
        assert capsys.readouterr().out.strip() == text


def commands():
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip().removeprefix("$ ")
            if line.startswith("./run ") and not line.startswith("./run test"):
                yield line.removeprefix("./run ")


@pytest.mark.parametrize("command", sorted(set(commands())))
def test_every_command_shown_parses(command):
    argv = shlex.split(command.replace("[", "").replace("]", "").replace("...", ""))
    argv = [a for a in argv if a not in ("|", "KEY")]
    args = build_parser().parse_args(argv)  # an unknown command or option exits here
    assert callable(args.func)
