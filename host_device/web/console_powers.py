"""What the host's console may do, in one table: each kind of message it
sends, the modes it is taken in, when (the game's moment, the console's
own state), and, in host mode, what the table is shown when it is used.

In host mode whoever holds the console may be a player: it may move the
game on («Дальше»), pause it, answer the device's questions («Отмена»),
type the speaker's words when no speech model hears them (only while the
step listens), enter the best move while the victim's last word offers it
and none was heard, take back a foul (issue 39), name the seats and give
the extra points once the game has ended; «Весь стол» (``--panel web``, a
trial) shows it every seat. Every one of these that touches the game is
told to the table: the table page (the TV) shows «С пульта: …» (the
keys excepted: the device says what they do, the next step or «пауза»),
and the device says a best move it takes. It never presses a
seat by itself (a seat key), and a seat pressed from the «Весь стол» view
is not shown one by one (at night that would tell a shot), but the switch
is: the TV says, as long as it is on, that the console sees every seat.

In assist mode the console is the human host's: every kind is taken,
extra points at any time (his judgement of the game; public at its end)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine import Phase
from engine.steps import best_move_now, listening
from hardware.events import HOST_KEYS
from host_device.base.text import printable, shorten
from host_device.screens.views import Console
from voices.words import number

HOST, ASSIST = "host", "assist"
BOTH = frozenset({HOST, ASSIST})
HOST_MODE_ONLY = (  # whoever holds the console in host mode may be a player
    "в режиме устройства пульт — только «дальше» и «пауза»: место нажимает лишь его кнопка или его телефон"
)


@dataclass(frozen=True)
class Now:
    """What a console message is judged by: the mode, the game's moment, the console's state."""

    mode: str  # host | assist
    phase: Phase
    listens: bool  # the step takes the speaker's words (a speech, a nomination round, a best move)
    typed: bool  # no speech model: the console types the speaker's words (host mode)
    best_move_due: bool  # the victim's last word offers the best move
    best_move_given: bool  # and one was accepted already
    whole_table: bool  # --panel web: the «Весь стол» switch is offered
    whole_on: bool  # this connection's switch is on


def console_now(console: Console, whole_on: bool = False) -> Now:
    """The moment a console message is judged at: the game's state as the
    runtime left it last (a state is replaced whole, never changed, so it
    is read from any thread); ``whole_on``: the connection's switch."""
    game = console.runtime.game
    s = game.state
    due = best_move_now(game.preset, s)
    return Now(
        mode=HOST if console.assist is None else ASSIST,
        phase=s.phase,
        listens=listening(game.preset, s) is not None,
        typed=console.typed,
        best_move_due=due,
        best_move_given=due and bool(s.best_move),
        whole_table=console.whole_table,
        whole_on=whole_on,
    )


Check = Callable[[Now, Any], str | None]  # None: taken; else the refusal, in Russian
Shown = Callable[[Any], str]  # host mode: the line the table page shows


@dataclass(frozen=True)
class Power:
    modes: frozenset[str]
    when: Check | None = None
    shown: Shown | None = None  # None: nothing of the game changes (or the device says it itself)


def _key(now: Now, value: Any) -> str | None:
    return HOST_MODE_ONLY if now.mode == HOST and value not in HOST_KEYS else None


def _press(now: Now, value: Any) -> str | None:
    return None if now.whole_on else "кнопки мест с пульта — только при --panel web и включённом «Весь стол»"


def _whole(now: Now, value: Any) -> str | None:
    return None if now.whole_table else "«Весь стол» — только при --panel web"


def _text(now: Now, value: Any) -> str | None:
    if now.mode == ASSIST:
        return None
    if not now.typed:
        return "слова говорящего слышит устройство: с пульта их не набирают"
    return (
        None if now.listens else "слова с пульта — только пока говорящий может выставлять (днём, в его речь)"
    )


def _best_move(now: Now, value: Any) -> str | None:
    if now.mode == ASSIST:
        return None
    if not now.best_move_due:
        return "лучший ход — только в последнее слово убитого в первую ночь"
    return "лучший ход уже принят: с пульта его не заменить" if now.best_move_given else None


def _after_end(now: Now, value: Any) -> str | None:
    if now.mode == ASSIST or now.phase is Phase.GAME_OVER:
        return None
    return "доп. баллы с пульта в игре без ведущего — после конца игры"


def _seats(value: Any) -> str:
    return ", ".join(str(seat) for seat in value) if isinstance(value, list) else str(value)


def _extra(value: Any) -> str:
    points = value.get("points") if isinstance(value, dict) else None
    seat = value.get("seat") if isinstance(value, dict) else "?"
    steps = value.get("steps") if isinstance(value, dict) else None
    if steps in (1, -1):  # the «+0,1»/«−0,1» buttons: a step from what the record holds
        return f"доп. баллы месту {seat}: на шаг {'больше' if steps == 1 else 'меньше'}"
    return f"доп. баллы месту {seat}: {'нет' if points is None else number(points)}"


POWERS: MappingProxyType[str, Power] = MappingProxyType(
    {
        "key": Power(BOTH, _key),  # the device says what they do: the next step, «пауза»
        "seat": Power(frozenset({ASSIST})),  # a seat key of the host's: assist mode's commands
        "press": Power(BOTH, _press),  # the switch is shown, not each press (at night: a shot)
        "whole": Power(
            BOTH,
            _whole,
            lambda on: (
                "«Весь стол» включён: пульт видит все места, и роли тоже" if on else "«Весь стол» выключен"
            ),
        ),
        "text": Power(BOTH, _text, lambda text: f"набрано: «{shorten(printable(text).strip(), 120)}»"),
        "best_move": Power(BOTH, _best_move, lambda seats: f"лучший ход: {_seats(seats)}"),
        "withdraw_foul": Power(BOTH, None, lambda value: "фол снят"),
        # who sits where: the record's, not the game's; the change itself is shown (a tournament's seat
        # is changed only here: the table sees it), the name where names are public
        "name": Power(BOTH, None, lambda value: f"место {value.get('seat', '?')}: игрок изменён"),
        "extra": Power(BOTH, _after_end, _extra),
    }
)


def refusal(kind: str, value: Any, now: Now) -> str | None:
    """Why the console may not send this now (None: it may). An unknown kind is left to the reader."""
    power = POWERS.get(kind)
    if power is None:
        return None
    if now.mode not in power.modes:
        return HOST_MODE_ONLY
    return power.when(now, value) if power.when is not None else None


def shown(kind: str, value: Any, now: Now) -> str | None:
    """What the table page shows of a message taken from the console (host mode; None: nothing)."""
    power = POWERS.get(kind)
    if now.mode != HOST or power is None or power.shown is None:
        return None
    return f"С пульта: {power.shown(value)}"
