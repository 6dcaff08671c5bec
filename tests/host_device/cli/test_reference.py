"""docs/commands.md is what the parsers say: written again from them, it is
the same file; and it names every command and action there is."""

from host_device.cli import reference
from host_device.cli.main import build_parser
from tests.helpers.paths import ROOT


def test_the_command_reference_is_written_from_the_parsers():
    written = (ROOT / "docs" / "commands.md").read_text("utf-8")
    assert written == reference.markdown(), f"docs/commands.md is out of date: run {reference.COMMAND}"


def test_the_reference_has_a_section_for_every_command_and_action():
    text = reference.markdown()
    words = [w for w, _, _ in reference.commands(build_parser())]
    assert ("games", "export") in words and ("club", "send") in words and ("run",) in words
    for command in words:
        assert f"\n## `host-device {' '.join(command)}`\n" in text, command
        assert f"](#{reference.anchor(command)})" in text, command


def test_the_reference_leaves_hidden_arguments_out_and_marks_required_ones():
    text = reference.markdown()
    assert "--die-after" not in text and "--catalogue" not in text
    assert "| `--to ФАЙЛ.svg` | куда сохранить схему (обязательно) |" in text
    assert "[--nickname ПРОЗВИЩЕ | --no-nickname]" in text
    assert "```\nhost-device service status\n```" in text  # no arguments: the synopsis is the command


def test_every_synopsis_names_its_command():
    text = reference.markdown()
    for words, _, _ in reference.commands(build_parser()):
        section = text.split(f"\n## `host-device {' '.join(words)}`\n")[1]
        assert section.split("```\n")[1].startswith(f"host-device {' '.join(words)}"), words


def test_main_writes_the_file_it_is_given(tmp_path, capsys):
    target = tmp_path / "commands.md"
    assert reference.main([str(target)]) == 0
    assert target.read_text("utf-8") == reference.markdown()
    assert "справочник команд записан" in capsys.readouterr().out
