"""The one door for names and ids (host_device/base/names.py), and the guard for text a
spreadsheet would run (issue 46 items 3, 5 and 9)."""

import unicodedata

import pytest

from host_device.base.names import (
    MAX_NAME,
    BadName,
    player_id,
    player_name,
    spreadsheet_cell,
    terminal,
    tournament_name,
)

UUID = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"
# what a file, the club's database or a phone may hold where a name should be
HOSTILE = {
    "escape": "\x1b[2J\x1b[31mАня",
    "title": "\x1b]0;чужой заголовок\x07Аня",
    "newline": "Аня\nhost-device: ошибка: всё стёрто",
    "nul": "Аня\x00Бо",
    "rlo": "\u202eянА",
    "zero-width": "\u200bА\u200dня\ufeff",
    "separator": "Аня\u2028Боря",
}


def no_controls(text: str) -> bool:
    return all(unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in text)


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_name_with_escapes_or_invisible_marks_is_kept_clean(name):
    kept = player_name(name)
    assert no_controls(kept) and kept == " ".join(kept.split()) and 0 < len(kept) <= MAX_NAME


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Аня\ud800", "не текст UTF-8"),
        ("я" * 20_000, f"длиннее {MAX_NAME} знаков"),
        ("я" * (MAX_NAME + 1), f"длиннее {MAX_NAME} знаков"),
        ("\x1b\x07\u200b \n", "пустое"),
        (None, "не текст"),
    ],
)
def test_a_name_that_cannot_be_kept_is_one_line(name, said):
    with pytest.raises(BadName, match=said) as caught:
        player_name(name, "имя игрока")
    assert "\n" not in str(caught.value) and no_controls(str(caught.value)) and len(str(caught.value)) < 200


def test_an_id_is_a_uuid_and_nothing_else():
    assert player_id(UUID) == UUID and player_id(UUID.upper()) == UUID
    for bad in ("../../../../etc/passwd", "", UUID + "\n", "x" * 20_000, "\x1b[2J", UUID[:-1], 7):
        with pytest.raises(BadName, match="не идентификатор игрока") as caught:
            player_id(bad)
        assert no_controls(str(caught.value)) and len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Кубок\x1b[2J", "U\\+001B"),
        ("Кубок\x07", "U\\+0007"),
        ("\u202eКубок", "U\\+202E"),
        ("Куб\u200bок", "U\\+200B"),
        ("Кубок\ud800", "U\\+D800"),
        ("Кубок 2025/26", "знак «/» нельзя"),
        ("Кубок\\1", "знак «\\\\» нельзя"),
        ("..", "из одних точек"),
        ("К" * 61, "длиннее 60 знаков"),
        ("К" * 20_000, "длиннее 60 знаков"),
        ("  ", "нет названия"),
    ],
)
def test_a_tournament_name_a_box_cannot_keep_or_serve_is_refused_in_one_line(name, said):
    with pytest.raises(BadName, match=said) as caught:
        tournament_name(name)
    assert "\n" not in str(caught.value) and no_controls(str(caught.value))


def test_a_tournament_name_is_its_words_and_may_hold_what_a_url_quotes():
    assert tournament_name("  Осенний   кубок #1 ?%&.  ") == "Осенний кубок #1 ?%&."
    assert tournament_name("...") == "..."


@pytest.mark.parametrize(
    "cell",
    [
        "=1+1",
        "+SUM(A1)",
        "-2+3",
        "@HYPERLINK(x)",
        "\tx",
        "\rx",
        "\n=1+1",
        "\x00=1",
        " =1+1",
        "   @SUM(A1)",
        "\u00a0=1",
        "\u3000=1",
        "\u200b=1",
        "\ufeff=1",
        "\u202e=1",
        "＝cmd|' /C calc'!A0",
        "＋1",
        "－1",
        "＠SUM(A1)",
        "﹦1",
        "\u2212 2+3",
        " \u200b ＝1",
    ],
)
def test_a_cell_a_spreadsheet_would_run_starts_with_an_apostrophe(cell):
    assert spreadsheet_cell(cell) == "'" + cell


def test_plain_text_and_numbers_stay_as_they_are():
    for cell in ("Аня", "", "a=b", "1+1", "-1", "0.5", "-0,5", "'=1", "Аня =1"):
        assert spreadsheet_cell(cell) == cell
    assert spreadsheet_cell(-3) == -3 and spreadsheet_cell(None) is None


def test_what_a_terminal_is_given_has_no_control_character():
    for name in HOSTILE.values():
        assert no_controls(terminal(name)) and "\n" not in terminal(name)
    assert terminal("\ud800") == "\ufffd" and terminal("Аня") == "Аня"
