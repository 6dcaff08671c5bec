"""host_device/base/text.py: a value as a message quotes it, cut to a length."""

import pytest

from host_device.base.text import MARK, one_line, shorten


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


def test_printable_text_has_no_control_characters_and_encodes():
    from host_device.base.text import encodable, printable

    typed = "a\x1b[31mb\nc\td\x07\u202ee\ud800f"
    assert printable(typed) == "a [31mb c d e\ufffdf"
    assert printable("выставляю игрока номер 7") == "выставляю игрока номер 7"
    assert encodable("ок\ud800", "utf-8") == "ок?" and encodable("ок", "ascii") == "??"
    assert encodable("ок", "no-such-encoding") == "??"


def test_a_spreadsheet_cell_never_starts_a_formula_and_a_number_stays_a_number():
    from host_device.base.names import spreadsheet_cell

    assert spreadsheet_cell("=1+1") == "'=1+1" and spreadsheet_cell("@SUM(A1)") == "'@SUM(A1)"
    assert spreadsheet_cell("-2+3") == "'-2+3" and spreadsheet_cell("\tx") == "'\tx"
    assert spreadsheet_cell("-1") == "-1" and spreadsheet_cell("0.5") == "0.5" and spreadsheet_cell(-3) == -3
    assert spreadsheet_cell("Аня") == "Аня" and spreadsheet_cell("") == ""


def test_a_line_separator_typed_outside_is_no_line_break_on_the_terminal():
    from host_device.base.text import printable

    assert printable("Аня\u2028Боря\u2029!") == "Аня Боря !"


def test_columns_are_as_wide_as_their_widest_cell_with_no_trailing_space():
    from host_device.base.text import columns

    assert columns([("№", "имя", "ник"), ("12", "Аня", "")]) == ["№   имя  ник", "12  Аня"]
    assert columns([]) == []
