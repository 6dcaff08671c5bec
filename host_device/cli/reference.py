"""docs/commands.md, the command reference, written from the parsers
themselves: every command and action, its synopsis, what it does and each
argument, in the words of its ``--help`` (Russian). It cannot drift:
``tests/host_device/cli/test_reference.py`` writes it again and fails when
the file differs.

    .venv/bin/python -m host_device.cli.reference    # writes docs/commands.md
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

from host_device.base.files import write_text
from host_device.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "docs" / "commands.md"
COMMAND = ".venv/bin/python -m host_device.cli.reference"
WIDTH = 100  # the synopsis' lines, whatever the terminal
NBSP = "\u00a0"

HEAD = f"""\
# Справочник команд

<!-- Written by `{COMMAND}` from the parsers (host_device/cli/); do not edit. -->

Этот файл написан программой из описаний самих команд, тех же, что печатает
`host-device КОМАНДА --help`, и не расходится с ними: его не правят руками,
а после изменения команды пишут заново — `{COMMAND}`
(тест `tests/host_device/cli/test_reference.py` сверяет файл с командами).

`./run КОМАНДА …` — то же, что `host-device КОМАНДА …`. Как пользоваться
коробкой и командами за столом и в клубе — в
[руководстве для клуба](guide/README.md).
"""


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    """Every command and action under ``parser``, depth first: its words
    after ``host-device``, its parser, and its line in its parent's list."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield (*path, name), sub, helps.get(name, "")
                yield from commands(sub, (*path, name))


def shown(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The arguments a reader is told of (not -h, not the hidden ones, not the actions' list)."""
    return [
        a
        for a in parser._actions
        if a.help is not argparse.SUPPRESS
        and not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
    ]


def metavar(action: argparse.Action) -> str:
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices is not None:
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    return action.dest.upper()


def invocation(action: argparse.Action) -> str:
    """How the argument is written: ``--to ФАЙЛ``, ``--all``, ``ИГРА``, ``[КЛЮЧ …]``."""
    name = metavar(action)
    if action.option_strings:
        options = ", ".join(action.option_strings)
        return options if action.nargs == 0 else f"{options} {name}"
    if action.nargs == "?":
        return f"[{name}]"
    if action.nargs == "*":
        return f"[{name} …]"
    if action.nargs == "+":
        return f"{name} [{name} …]"
    return name


def synopsis(words: tuple[str, ...], parser: argparse.ArgumentParser) -> str:
    """The command as it is typed, its options first and its positionals after, wrapped at WIDTH."""
    parts: list[str] = []
    done: set[int] = set()
    actions = shown(parser)
    for action in [a for a in actions if a.option_strings] + [a for a in actions if not a.option_strings]:
        if id(action) in done:
            continue
        group = next((g for g in parser._mutually_exclusive_groups if action in g._group_actions), None)
        members = [a for a in group._group_actions if a in actions] if group else [action]
        done.update(id(a) for a in members)
        text = " | ".join(invocation(a) for a in members)
        if action.option_strings and not (action.required or (group and group.required)):
            text = f"[{text}]"
        parts.append(text)
    parts += [f"{a.metavar} …" for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    prog = " ".join(("host-device", *words))
    lines = textwrap.wrap(
        " ".join(part.replace(" ", NBSP) for part in parts),  # an argument is never cut in two
        WIDTH,
        initial_indent=prog + " ",
        subsequent_indent=" " * (len(prog) + 1),
        break_on_hyphens=False,
        break_long_words=False,
    )
    return "\n".join(lines or [prog]).replace(NBSP, " ")  # a command with no arguments is its name


def cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def anchor(words: tuple[str, ...]) -> str:
    """GitHub's anchor of the heading ``## `host-device WORDS` ``."""
    return "-".join(("host-device", *words))


def section(words: tuple[str, ...], parser: argparse.ArgumentParser, summary: str) -> str:
    lines = [f"## `{' '.join(('host-device', *words))}`", ""]
    description = parser.description or summary
    if description:
        lines += [textwrap.fill(" ".join(description.split()), 78, break_on_hyphens=False), ""]
    lines += ["```", synopsis(words, parser), "```", ""]
    arguments = shown(parser)
    if arguments:
        lines += ["| аргумент | что это |", "|---|---|"]
        for action in arguments:
            what = cell(action.help or "")
            if action.required and action.option_strings:
                what = f"{what} (обязательно)" if what else "обязательно"
            lines.append(f"| `{cell(invocation(action))}` | {what} |")
        lines.append("")
    subcommands = [(w, s) for w, _, s in commands(parser, words) if len(w) == len(words) + 1]
    if subcommands and words:  # the commands themselves are listed at the top
        lines += ["Действия:", ""]
        lines += [f"- [`{w[-1]}`](#{anchor(w)}) — {cell(s)}" for w, s in subcommands]
        lines.append("")
    return "\n".join(lines)


def markdown() -> str:
    """The whole reference."""
    parser = build_parser()
    everything = list(commands(parser))
    index = ["## Команды", ""] + [
        f"{'  ' * (len(words) - 1)}- [`{' '.join(words)}`](#{anchor(words)}) — {cell(summary)}"
        for words, _, summary in everything
    ]
    parts = [HEAD, "\n".join(index) + "\n", section((), parser, "")]
    parts += [section(words, sub, summary) for words, sub, summary in everything]
    return "\n".join(parts).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else TARGET
    write_text(target, markdown())
    print(f"{target}: справочник команд записан")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
