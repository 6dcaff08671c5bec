"""--preset is one flag whose choices are the presets' table
(engine/presets.py), and no preset name is typed anywhere else in the
product: a rule set added or renamed there is offered by every command, the
box's menu, the demo and the players' card, or fails here."""

import ast

import pytest

from engine.presets import PRESETS
from host_device.appliance.controls import RULES, Choice
from host_device.cli.main import build_parser
from host_device.cli.reference import commands
from host_device.session.demo import PRESET_SCRIPTS
from tests.helpers.paths import ROOT
from voices.words import PRESET_NAMES

# Where a preset's name may still be written, and why. engine/ is the table itself.
TYPED_ELSEWHERE = {
    ("host_device/config.py", "city"): "the config file's [city] section: a name of the file's format",
    (
        "host_device/store/reading.py",
        "city",
    ): "store/ is another engineer's (issue 36): to be read from the table",
}
PRODUCT = ("voices", "hardware", "host_device")


def with_preset():
    parser = build_parser()
    return [
        (words, sub) for words, sub, _ in commands(parser) if any(a.dest == "preset" for a in sub._actions)
    ]


def test_every_preset_flag_offers_the_presets_table():
    found = with_preset()
    assert {words for words, _ in found} == {("run",), ("demo",), ("card",)}
    for words, sub in found:
        (flag,) = [a for a in sub._actions if a.dest == "preset"]
        assert flag.option_strings == ["--preset"] and tuple(flag.choices) == tuple(PRESETS), words
        for name in PRESETS:
            assert f"{name} — {PRESET_NAMES[name]}" in flag.help, words


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_rule_set_is_parsed_by_every_preset_flag(name):
    parser = build_parser()
    for words, _ in with_preset():
        assert (
            parser.parse_args(
                [*words, "--preset", name, *(["--to", "c.html"] if words == ("card",) else [])]
            ).preset
            == name
        )
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--preset", name.upper()])


def test_the_box_menu_the_demo_and_the_names_cover_the_table():
    assert tuple(PRESETS) == RULES and Choice().preset in PRESETS
    assert set(PRESET_SCRIPTS) == set(PRESETS) and set(PRESET_NAMES) == set(PRESETS)
    for script in PRESET_SCRIPTS.values():
        assert script.is_file(), script


def typed_preset_names():
    for folder in PRODUCT:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Constant) and node.value in PRESETS:
                    yield str(path.relative_to(ROOT)), node.value, node.lineno


def test_no_preset_name_is_typed_outside_the_presets_table():
    found = [
        (where, name, line)
        for where, name, line in typed_preset_names()
        if (where, name) not in TYPED_ELSEWHERE
    ]
    assert found == [], "read the name from engine.presets (PRESETS, CLASSIC.name, …), not a string"
