"""host_device/text.py: a value as a message quotes it, cut to a length."""

import ast
from pathlib import Path

import pytest

from host_device.text import MARK, one_line, shorten

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("value", "limit", "shown"),
    [
        ("short", 10, "short"),
        ("exactly10!", 10, "exactly10!"),
        ("eleven char", 10, "eleven ch" + MARK),
        (12345, 3, "12" + MARK),
        (ValueError("bad"), 10, "bad"),
        (10**5000, 24, "(a number of about 5000 digits)"),  # str() of it would raise
    ],
    ids=["short", "at-limit", "cut", "number", "error", "huge-number"],
)
def test_a_value_is_cut_to_its_limit_with_a_mark(value, limit, shown):
    assert shorten(value, limit) == shown
    assert len(shorten(value, limit)) <= max(limit, len(shown))


def test_one_line_joins_the_lines_and_cuts():
    assert one_line("a\n  b\tc") == "a b c"
    assert one_line("x" * 500) == "x" * 399 + MARK
    assert one_line("word " * 10, 9) == "word wor" + MARK


@pytest.mark.parametrize(
    ("module", "allowed"),
    [("host_device/text.py", set()), ("host_device/addresses.py", {"engine.errors"})],
)
def test_the_low_modules_import_only_the_standard_library(module, allowed):
    tree = ast.parse((ROOT / module).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    project = {m for m in imported if m.split(".")[0] in ("engine", "host_device", "hardware", "voices")}
    assert project == allowed
