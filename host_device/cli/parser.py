"""The commands' parser, in Russian: argparse's own words (``usage:``, the
groups' titles, ``-h``, every error) and an error in one line.

argparse looks each of its messages up, at the moment it says it, through
its module's ``_`` and ``ngettext`` (gettext, the ``messages`` domain, with
no Russian catalogue installed anywhere). A ``Parser`` puts :data:`WORDS`
there for the span of its own calls (built, parsing, writing its help) and
puts gettext back after, so every other parser in the process (pytest's,
the benchmarks') stays as it was. A message not in the catalogue comes out
as argparse wrote it: ``tests/host_device/cli/test_russian_lines.py`` reads
every message the running Python's argparse can say and fails on one that
is missing here.
"""

from __future__ import annotations

import argparse
import contextlib
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from host_device.base.text import one_line

EXIT_BAD_INPUT = 2

# argparse's messages of Python 3.11 to 3.14, as a club reads them (its
# placeholders kept: the arguments' names and values are filled in after)
WORDS: dict[str, str] = {
    # the help
    "usage: ": "использование: ",
    "positional arguments": "аргументы",
    "options": "параметры",
    "subcommands": "команды",
    "%(heading)s:": "%(heading)s:",
    " (default: %(default)s)": " (по умолчанию: %(default)s)",
    "show this help message and exit": "показать эту справку и выйти",
    "show program's version number and exit": "показать версию программы и выйти",
    # the errors
    "%(prog)s: error: %(message)s\n": "%(prog)s: ошибка: %(message)s\n",
    "%(prog)s: warning: %(message)s\n": "%(prog)s: внимание: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s: %(message)s",
    "unrecognized arguments: %s": "лишние аргументы: %s",
    "the following arguments are required: %s": "не хватает аргументов: %s",
    "one of the arguments %s is required": "нужен один из аргументов: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "нет варианта %(value)r (есть: %(choices)s)",
    "invalid choice: %(value)r, maybe you meant %(closest)r? (choose from %(choices)s)": (
        "нет варианта %(value)r; может быть, %(closest)r? (есть: %(choices)s)"
    ),
    "invalid %(type)s value: %(value)r": "не подходит значение %(value)r",
    "expected one argument": "нужно значение",
    "expected at most one argument": "нужно не больше одного значения",
    "expected at least one argument": "нужно хотя бы одно значение",
    "not allowed with argument %s": "нельзя вместе с %s",
    "ignored explicit argument %r": "лишнее значение %r",
    "ambiguous option: %(option)s could match %(matches)s": "%(option)s: подходит к нескольким: %(matches)s",
    "unexpected option string: %s": "неожиданный параметр: %s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "нет команды %(parser_name)r (есть: %(choices)s)"
    ),
    "can't open '%(filename)s': %(error)s": "не удалось открыть '%(filename)s': %(error)s",
    'argument "-" with mode %r': "«-» нельзя открыть в режиме %r",
    "argument '%(argument_name)s' is deprecated": "аргумент '%(argument_name)s' устарел",
    "option '%(option)s' is deprecated": "параметр '%(option)s' устарел",
    "command '%(parser_name)s' is deprecated": "команда '%(parser_name)s' устарела",
}
# the messages with a number: the three Russian forms (1, 2-4, 5-20)
PLURALS: dict[str, tuple[str, str, str]] = {
    "expected %s argument": ("нужно %s значение", "нужно %s значения", "нужно %s значений"),
}
# a programmer's mistakes in building a parser: said in a test, never to a club
PROGRAMMERS = frozenset(
    {
        ".__call__() not defined",
        "%r is not callable",
        "'required' is an invalid argument for positionals",
        "cannot have multiple subparser arguments",
        "cannot merge actions - two groups are named %r",
        "conflicting option string: %s",
        "conflicting subparser: %s",
        "conflicting subparser alias: %s",
        "dest= is required for options like %r",
        "invalid conflict_resolution value: %r",
        "invalid option string %(option)r: must start with a character %(prefix_chars)r",
        "mutually exclusive arguments must be optional",
    }
)


def say(message: str) -> str:
    return WORDS.get(message, message)


def say_n(singular: str, plural: str, n: int) -> str:
    forms = PLURALS.get(singular)
    if forms is None:
        return singular if n == 1 else plural
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    return forms[1] if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else forms[2]


@contextlib.contextmanager
def russian() -> Iterator[None]:
    """argparse speaks Russian inside this block (and as it was after)."""
    module = vars(argparse)
    saved = module["_"], module["ngettext"]
    module["_"], module["ngettext"] = say, say_n
    try:
        yield
    finally:
        module["_"], module["ngettext"] = saved


class Formatter(argparse.HelpFormatter):
    """Lines broken at spaces only: a path or a name with hyphens
    (``vosk-model-small-ru-0.22``) stays whole on its line."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )


class Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """A command's ``help`` (its line in the list) is also its own
    ``--help``'s description."""

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        text = kwargs.get("help")
        if text and text is not argparse.SUPPRESS:
            kwargs.setdefault("description", text[:1].upper() + text[1:] + ".")
        return super().add_parser(name, **kwargs)


class Parser(argparse.ArgumentParser):
    """argparse in Russian; an argument error is one line naming the
    argument and where to read more (exit 2)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        with russian():
            super().__init__(*args, **kwargs)
        self.register("action", "parsers", Commands)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        with russian():
            return super().parse_args(args, namespace)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        with russian():
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with russian():
            return super().format_usage()

    def format_help(self) -> str:
        with russian():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        line = one_line(message, 300)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: ошибка: {line} (см.: {self.prog} --help)\n")
