"""The club's guide (docs/guide/) cannot drift from the device: every command
it names exists with the options it gives; its tables of pins and LED
signals are the code's; the phrases it quotes beside `say` are what `say`
prints; every sentence it quotes, and what it says the club hears, are
phrases of the catalogue, and what it says the club sees are lines the code
writes. (The keys table of assist
mode is checked in tests/host_device/runtime/test_assist.py.)"""

import argparse
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from engine import Role
from hardware.panel import PATTERN_WORDS as SIGNAL_WORDS
from hardware.pinmap import HEADER_PIN, default_pinmap
from host_device.cli.main import build_parser, main
from host_device.runtime.signals import ROLE_SIGNALS
from tests.helpers.paths import ROOT
from voices.forms import ROLE_WORDS

GUIDE = ROOT / "docs" / "guide"
PAGES = sorted(GUIDE.glob("*.md"))
RUN_OWN = ("test", "arm64-check")  # ./run's own commands, not host-device's


def text_of(name: str) -> str:
    return (GUIDE / name).read_text("utf-8")


def test_the_guide_has_its_pages():
    names = {p.name for p in PAGES}
    assert {
        "README.md",
        "box.md",
        "evening.md",
        "assist.md",
        "record.md",
        "club-database.md",
        "problems.md",
    } <= names


# --- every command named exists


PARSER = build_parser()
TOP = {
    name
    for action in PARSER._actions
    if isinstance(action, argparse._SubParsersAction)
    for name in action.choices
}
CALLED = re.compile(r"(?<![\w.-])(\./run|host-device)[ \t]+([a-z][^\n`»#]*)")
SPAN = re.compile(r"`([a-z][a-z0-9-]* [^`\n]*)`")


def named_commands(text: str) -> list[str]:
    """Each command as the guide writes it, from `./run X`, `host-device X`,
    or an inline code span that starts with a command's name (`games list`)."""
    found = [
        rest.strip().rstrip(").,;:")
        for how, rest in CALLED.findall(text)
        if not (how == "./run" and rest.split()[0] in RUN_OWN)
    ]
    found += [span for span in SPAN.findall(text) if span.split()[0] in TOP]
    return found


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def problems_of(command: str) -> list[str]:
    """Why ``command`` is not one the parser has: an unknown command or
    action, an option its command does not take."""
    words = shlex.split(command.replace("…", ""))
    parser, used = PARSER, []
    while words and subparsers(parser):
        word = words[0]
        if word.startswith("-"):
            break
        if word not in subparsers(parser):
            return [f"{' '.join([*used, word])}: no such command"]
        parser, used = subparsers(parser)[word], [*used, word]
        words = words[1:]
    if not used:
        return ["no command"]
    options = parser._option_string_actions
    wrong = []
    for word in words:
        if word in ("|", ";", "&&", ">"):
            break
        if word.startswith("--") and word.split("=")[0] not in options:
            wrong.append(f"{' '.join(used)}: no option {word}")
    return wrong


def test_the_guide_names_commands():
    named = [c for p in PAGES for c in named_commands(p.read_text("utf-8"))]
    assert len(named) > 100
    assert "run --box" in named and "games recover FILE" not in named


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_command_the_guide_names_exists_with_its_options(page: Path):
    wrong = [f"{c!r}: {why}" for c in named_commands(page.read_text("utf-8")) for why in problems_of(c)]
    assert wrong == []


def test_a_command_that_does_not_exist_is_caught():
    assert problems_of("games name 3 7 Вера") == ["games name: no such command"]
    assert problems_of("run --box --panel keyboard --colour red") == ["run: no option --colour"]
    assert problems_of("players merge Аня Вера") == []
    assert named_commands("`./run games list`, `games seat 3 7 Аня`, `t 0`, `./run test`") == [
        "games list",
        "games seat 3 7 Аня",
    ]


# --- the tables are the code's


def table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header row starts ``| header |``."""
    lines = text.split(f"| {header} |", 1)[1].splitlines()[2:]
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


HOST_BUTTONS = {"next": "ведущий, «Дальше»", "pause": "ведущий, «Пауза»", "undo": "ведущий, «Отмена»"}


def russian_label(what: str) -> str:
    words = what.split()
    if words[0] == "host":
        return HOST_BUTTONS[words[1]]
    return f"место {words[1]}, {'кнопка' if words[2] == 'button' else 'огонёк'}"


def wiring_rows(pinmap):
    """(what, BCM GPIO, header pin) for every connection of the pin map."""
    rows = []
    for n, (button, led) in enumerate(pinmap.seats, start=1):
        rows += [(f"seat {n} button", button, HEADER_PIN[button]), (f"seat {n} LED", led, HEADER_PIN[led])]
    return rows + [(f"host {k}", p, HEADER_PIN[p]) for k, p in pinmap.host]


def test_the_wiring_table_is_the_default_pin_map():
    shown = {row[0]: (row[1], row[2]) for row in table_rows(text_of("box.md"), "подключение")}
    expected: dict[str, list[str]] = {}
    for column, seats in enumerate((10, 12)):
        for what, gpio, pin in wiring_rows(default_pinmap(seats)):
            expected.setdefault(russian_label(what), ["—", "—"])[column] = f"GPIO{gpio} ({pin})"
    assert shown == {label: tuple(cells) for label, cells in expected.items()}


def test_the_deal_signals_are_the_leds_the_device_lights():
    shown = {row[0]: row[1] for row in table_rows(text_of("evening.md"), "роль")}
    assert shown == {ROLE_WORDS[role]: SIGNAL_WORDS[ROLE_SIGNALS[role]] for role in Role}


SAID = re.compile(r"^\./run (say [^#«\n]+?)\s+# «(.+)»$", re.M)


def test_the_phrases_quoted_beside_say_are_what_it_says(capsys):
    quoted = SAID.findall(text_of("box.md"))
    assert len(quoted) >= 2
    for command, text in quoted:
        assert main([*(word for word in command.split() if word != "--text"), "--text"]) == 0
        assert capsys.readouterr().out.strip() == text


# --- what the club hears and sees


def quotes(line: str) -> list[str]:
    """The outermost «…» quotes of a line (a quote may hold quotes)."""
    found, depth, start = [], 0, 0
    for i, char in enumerate(line):
        if char == "«":
            if depth == 0:
                start = i + 1
            depth += 1
        elif char == "»" and depth:
            depth -= 1
            if depth == 0:
                found.append(line[start:i])
    return found


def phrase_patterns() -> re.Pattern[str]:
    """Any sequence of the catalogue's phrases, a slot being any words."""
    data = tomllib.loads((ROOT / "voices" / "data" / "ru.toml").read_text("utf-8"))["phrases"]
    texts = [t for value in data.values() for t in (value.values() if isinstance(value, dict) else [value])]
    texts = [t for t in texts if re.sub(r"\{[^}]*\}", "", t).strip()]  # not a bare slot (the night's number)
    one = "|".join(re.sub(r"\\\{[^}]*\\\}", "[^.!?]+?", re.escape(t)) for t in texts)
    return re.compile(rf"(?:{one})(?: (?:{one}))*")


def items(text: str, label: str) -> list[str]:
    """The text of every «- **label:**» item, its wrapped lines joined."""
    found = []
    for match in re.finditer(rf"^- \*\*{label}:\*\* (.*?)(?=^- |^$|^#)", text, re.S | re.M):
        found.append(" ".join(match.group(1).split()))
    return found


def test_what_the_club_hears_is_the_catalogues():
    heard = [q for page in PAGES for item in items(page.read_text("utf-8"), "Слышно") for q in quotes(item)]
    assert len(heard) >= 8
    phrases = phrase_patterns()
    assert [q for q in heard if not phrases.fullmatch(q)] == []
    assert not phrases.fullmatch("Микрофон потерян.")


def test_every_sentence_the_guide_quotes_is_said_by_the_device():
    """A quoted sentence — «…» that starts with a capital and ends with . ! or ?
    — is one of the catalogue's phrases, or several in a row («Ведущий готов.
    Классика, десять игроков.»): the guide quotes the device as it speaks."""
    phrases = phrase_patterns()
    said = [
        q
        for page in PAGES
        for q in quotes(" ".join(page.read_text("utf-8").split()))
        if q[:1].isupper() and q.endswith((".", "!", "?"))
    ]
    assert len(said) >= 40 and "Ведущий готов. Классика, десять игроков." in said
    assert [q for q in said if not phrases.fullmatch(q)] == []


def product_text() -> str:
    """The strings the product writes, adjacent literals joined."""
    files = [
        *(ROOT / "host_device").rglob("*.py"),
        *(ROOT / "hardware").rglob("*.py"),
        *(ROOT / "host_device" / "web" / "static").glob("*.*"),
    ]
    text = "\n".join(f.read_text("utf-8") for f in files if f.suffix in (".py", ".js", ".html"))
    return re.sub(r"\"\s*\n\s*[fr]?\"", "", text)


def fragments(quote: str) -> list[str]:
    """The fixed words of a quoted line: the parts between numbers, «…»,
    ellipses and brackets."""
    parts = re.split(r"«[^»]*»|…|\d+|[();]", quote)
    return [p.strip(" ,.:") for p in parts if len(p.strip(" ,.:")) >= 4]


def test_what_the_club_sees_is_written_by_the_code():
    seen = [q for page in PAGES for item in items(page.read_text("utf-8"), "Видно") for q in quotes(item)]
    assert len(seen) >= 10
    source = product_text()
    assert [(q, f) for q in seen for f in fragments(q) if f not in source] == []
    assert "микрофон потерян: игра идёт дальше" in fragments("микрофон потерян: игра идёт дальше")
    assert "микрофон пропал" not in source
