"""The Russian names a player or host reads on a screen or in a protocol:
rules, modes, teams, rounds, roles in the genitive; and the one style of
the numbers the club reads (:func:`number`). (What the device says is in
voices/data/ru.toml; the roles' own names are voices.forms.ROLE_WORDS.)"""

from __future__ import annotations

import datetime

from engine import CITY, CLASSIC, EVENT, Role, Team
from engine.state import RoundKind
from voices.forms import ROLE_WORDS, TEAM_WORDS

PRESET_NAMES = {CLASSIC.name: "классика", EVENT.name: "ивент", CITY.name: "город"}
MODE_NAMES = {"host": "автоведущий", "assist": "с ведущим", "simulate": "симуляция"}
TEAM_NAMES = {Team.RED: "мирные", Team.BLACK: "мафия"}
WINS = {Team.RED: "победа мирных", Team.BLACK: "победа мафии"}
WINNER = {team: f"Победа {words}" for team, words in TEAM_WORDS.items()}  # a game's end, as said
ROLE_GENITIVE = {
    Role.DON: "Дона",
    Role.SHERIFF: "Шерифа",
    Role.COMMISSAR: "Комиссара",
    Role.MAFIA: "мафии",
    Role.DOCTOR: "доктора",
    Role.LOVER: "любовницы",
}
ROUND_NAMES = {
    RoundKind.MAIN: "голосование",
    RoundKind.REVOTE: "переголосование",
    RoundKind.ALL: "все голосуемые покидают игру?",
}


def role_name(role: Role | str) -> str:
    return ROLE_WORDS[Role(role)]


def preset_name(name: str) -> str:
    return PRESET_NAMES.get(name, name)


def number(value: float, places: int = 2, trim: bool = True) -> str:
    """A number as the club reads it, the one style of every page, plot, line
    and sheet: a decimal comma and the minus sign (2,5; 1; −0,5). ``places``
    decimals, their trailing zeros dropped unless ``trim`` is False (a rating
    keeps its tenth: 1010,0)."""
    text = f"{value:.{places}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if not text.strip("-0."):  # no −0
        text = text.lstrip("-")
    return text.replace(".", ",").replace("-", "−")


def percent(share: float) -> str:
    """A share as a whole percent, with the space Russian typography puts before the sign (67 %)."""
    return f"{round(100 * share)}\u00a0%"


def local_time(stored: str) -> str:
    """A stored UTC time as this machine's local date and time, to the minute
    (a damaged one as it is; one that is not even text as «?»)."""
    if not isinstance(stored, str):
        return "?"
    try:
        return datetime.datetime.fromisoformat(stored).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stored
