"""Russian numbers and agreement in the forms the phrases use."""

import pytest
from num2words import num2words

from voices.forms import FORMS, MAX_NUMBER, agree, counted, duration, ordinal, percent, yours


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (0, "ноль голосов"),
        (1, "один голос"),
        (2, "два голоса"),
        (4, "четыре голоса"),
        (5, "пять голосов"),
        (11, "одиннадцать голосов"),
        (12, "двенадцать голосов"),
        (21, "двадцать один голос"),
        (22, "двадцать два голоса"),
        (16, "шестнадцать голосов"),
    ],
)
def test_votes_agree_with_their_number(n, words):
    assert FORMS["votes"].words(n) == words


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (30, "тридцать секунд"),
        (60, "минута"),
        (120, "две минуты"),
        (180, "три минуты"),
        (300, "пять минут"),
        (90, "полторы минуты"),
        (1, "одна секунда"),
        (2, "две секунды"),
        (10, "десять секунд"),
        (21, "двадцать одна секунда"),
        (45, "сорок пять секунд"),
    ],
)
def test_durations_are_feminine_and_agree(seconds, words):
    assert duration(seconds) == words


def test_the_speakers_time():
    assert yours(60) == "ваша минута"
    assert yours(30) == "ваши тридцать секунд"
    assert yours(120) == "ваши две минуты"


@pytest.mark.parametrize(
    ("n", "words"),
    [(1, "первое замечание"), (2, "второе замечание"), (3, "третье замечание"), (4, "четвёртое замечание")],
)
def test_fouls_are_neuter_ordinals(n, words):
    assert FORMS["foul"].words(n) == words


def test_seats_are_cardinals_one_to_sixteen():
    assert FORMS["seat"].values() == list(range(1, 17))
    assert [FORMS["seat"].words(n) for n in range(1, 17)] == [num2words(n, lang="ru") for n in range(1, 17)]
    assert FORMS["seat"].words(1) == "один" and FORMS["seat"].words(11) == "одиннадцать"


def test_roles_and_teams():
    assert [FORMS["role"].words(r) for r in ("civilian", "sheriff", "commissar", "mafia", "don")] == [
        "мирный житель",
        "Шериф",
        "Комиссар",
        "мафия",
        "Дон",
    ]
    assert FORMS["team"].words("red") == "мирных жителей" and FORMS["team"].words("black") == "мафии"


def test_every_preset_timing_has_words():
    assert set(FORMS["duration"].values()) == {15, 30, 60, 180}  # city: the mafia's meeting, the discussion
    assert set(FORMS["yours"].values()) == {15, 30, 60, 180}
    assert FORMS["duration"].words(180) == "три минуты" and FORMS["duration"].words(15) == "пятнадцать секунд"


def test_helpers():
    assert agree("минута", 3) == "минуты"
    assert counted(1, "минута", "f") == "одна минута"
    assert ordinal(3) == "третий" and ordinal(3, "femn") == "третья"


@pytest.mark.parametrize(
    ("table", "round_", "said"),
    [
        (17, 25, "Стол семнадцать, игра двадцать пять."),
        (20, 100, "Стол двадцать, игра сто."),
        (1, 1, "Стол один, игра один."),
    ],
)
def test_a_tournaments_table_and_round_are_said_up_to_a_hundred(table, round_, said):
    """A tournament has up to 100 rounds (`tournament create --rounds`) and as many tables: every
    number is said (the seats' form stops at 16, and «Стол семнадцать» was silently not said)."""
    from voices.catalogue import russian

    assert russian().text("tournament_table", {"seat": table, "count": round_}) == said
    assert FORMS["number"].values() == list(range(1, MAX_NUMBER + 1))


@pytest.mark.parametrize(
    ("n", "named"), [(90, "девяносто процентов"), (91, "девяносто один процент"), (1000, "тысяча процентов")]
)
def test_a_per_cent_is_named_as_said(n, named):
    assert percent(n) == named
