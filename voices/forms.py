"""Russian words for the values that fill a phrase's slots, in the form the
phrase needs: numbers from num2words, agreement from pymorphy3.

A *form* turns one slot value into words ("votes": 3 -> "три голоса"). Each
form also lists the values a game can need, so that a voice pack can hold
one clip per value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pymorphy3
from num2words import num2words

from engine import PRESETS, Role, Team
from engine.presets import MAX_SEATS


@cache
def morph() -> pymorphy3.MorphAnalyzer:
    """The Russian morphological analyser, loaded once: the phrases' agreement, the heard words' lemmas."""
    return pymorphy3.MorphAnalyzer()


def cardinal(n: int, gender: str = "m") -> str:
    """ "один", "одна" (gender "f"), "двадцать два"."""
    return str(num2words(n, lang="ru", gender=gender))


def agree(noun: str, n: int) -> str:
    """The noun in the form a count of n needs: голос, голоса, голосов."""
    parsed = morph().parse(noun)[0]
    agreed = parsed.make_agree_with_number(n)
    return str(agreed.word if agreed else noun)


def counted(n: int, noun: str, gender: str = "m") -> str:
    """ "один голос", "две минуты", "ноль голосов"."""
    return f"{cardinal(n, gender)} {agree(noun, n)}"


def ordinal(n: int, gender: str = "masc") -> str:
    """ "третье" (gender "neut"), "четвёртый"."""
    word = str(num2words(n, lang="ru", to="ordinal"))
    parsed = morph().parse(word)[0]
    inflected = parsed.inflect({gender, "nomn"})
    return str(inflected.word if inflected else word)


def duration(seconds: int) -> str:
    """ "минута", "две минуты", "тридцать секунд", "полторы минуты" (a host
    says «у вас минута», never «одна минута»)."""
    if seconds == 90:
        return "полторы минуты"
    if seconds % 60 == 0:
        minutes = seconds // 60
        return "минута" if minutes == 1 else counted(minutes, "минута", "f")
    return counted(seconds, "секунда", "f")


def yours(seconds: int) -> str:
    """The time given to a speaker: "ваша минута", "ваши тридцать секунд"."""
    if seconds == 60:
        return "ваша минута"
    return f"ваши {duration(seconds)}"


ROLE_WORDS = {  # capitalised where the rule texts capitalise them: Дон, Шериф, Комиссар
    Role.CIVILIAN: "мирный житель",
    Role.SHERIFF: "Шериф",
    Role.COMMISSAR: "Комиссар",
    Role.MAFIA: "мафия",
    Role.DON: "Дон",
    Role.DOCTOR: "доктор",
    Role.LOVER: "любовница",
}
TEAM_WORDS = {Team.RED: "мирных жителей", Team.BLACK: "мафии"}  # after "Победа"


def _timings() -> list[int]:
    said = (
        "speech_seconds",
        "tie_speech_seconds",
        "last_word_seconds",
        "agreement_seconds",
        "intro_speech_seconds",
        "discussion_seconds",
        "golden_minute_seconds",
    )
    return sorted({s for p in PRESETS.values() for s in (getattr(p, name) for name in said) if s})


@dataclass(frozen=True)
class Form:
    name: str
    words: Callable[[int | str], str]
    values: Callable[[], list[int | str]]


def _seats() -> list[int | str]:
    return list(range(1, MAX_SEATS + 1))


# The largest number the device says on its own: a tournament's table and round («Стол двадцать, игра
# тридцать»; `tournament create --rounds` takes up to this many rounds, and as many tables as players allow)
MAX_NUMBER = 100


# The per cents a player may not claim (000: «100 процентов, 90 процентов и т.д.»): from the lowest the
# rule names up to a hundred, and the usual hyperboles above it (docs/fouls.md). The device names what
# was said: «девяносто девять процентов».
CERTAIN_PERCENTS = (*range(90, 101), 150, 200, 300, 500, 1000)


def percent(n: int) -> str:
    """ "девяносто один процент", "сто процентов", "тысяча процентов": a per cent named in a remark."""
    return counted(n, "процент").removeprefix("одна ")  # num2words says "одна тысяча"


# What the device may name when it gives a foul itself (engine.inputs.Foul.word):
# each forbidden word of host_device/listening/data/intents_ru.toml ("word"; a
# test holds them equal), each per cent claimed, and "время" (a speech gone on
# after «Время!»).
HEARD_WORDS = (
    "честно",
    "клянусь",
    "клянусь богом",
    "клятва",
    "клятвенно",
    "божусь",
    "зуб даю",
    "даю слово",
    "голову на отсечение",
    "спорим",
    "пари",
    "ей богу",  # as said (a hyphen joins the two words for the phonemizer)
    "слава богу",
    "не дай бог",
    "боже мой",
    "боже",
    "господи",
    "господь",
    "бог",
    "боженьки",
    "вот те крест",
    "перекрещусь",
    "аминь",
    "дьявол",
    "кармическая связь",
    "карма",
    "чёрт возьми",
    "чёрт",
    "стопроцентно",
    "на все сто",
    "стопудово",
    *(percent(n) for n in CERTAIN_PERCENTS),
    "время",
)

FORMS: dict[str, Form] = {
    form.name: form
    for form in (
        Form("seat", lambda n: cardinal(int(n)), _seats),
        Form("number", lambda n: cardinal(int(n)), lambda: list(range(1, MAX_NUMBER + 1))),
        Form("votes", lambda n: counted(int(n), "голос"), lambda: list(range(MAX_SEATS + 1))),
        Form("players", lambda n: counted(int(n), "игрок"), _seats),
        Form("foul", lambda n: f"{ordinal(int(n), 'neut')} замечание", lambda: [1, 2, 3, 4]),
        Form("duration", lambda s: duration(int(s)), lambda: list(_timings())),
        Form("yours", lambda s: yours(int(s)), lambda: list(_timings())),
        Form("role", lambda r: ROLE_WORDS[Role(str(r))], lambda: [r.value for r in Role]),
        Form("team", lambda t: TEAM_WORDS[Team(str(t))], lambda: [t.value for t in Team]),
        Form("heard", str, lambda: list(HEARD_WORDS)),
    )
}
