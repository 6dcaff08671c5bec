"""What a screen calls the game's moment, in Russian: «День 2 · голосование»,
«Ночь 1 · проверка Дона», and the countdown digits. Only what the table
hears announced: the step's role is public (the device wakes it by name),
who holds it is not."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine import Phase
from engine.state import State
from voices.words import ROLE_GENITIVE, ROUND_NAMES

if TYPE_CHECKING:
    from host_device.runtime.loop import Runtime


def ended(rt: Runtime) -> bool:
    """The game is over *and the table has heard it*: its result, its roles and «Игра окончена»
    are shown from the end of the words that say it, never before (issue 47)."""
    return rt.game.state.phase is Phase.GAME_OVER and rt.step_said


def shown_title(rt: Runtime) -> str:
    """:func:`title` as a screen shows it now: while the end is being said, the day it ends on."""
    s = rt.game.state
    return f"День {s.day}" if s.phase is Phase.GAME_OVER and not ended(rt) else title(s)


def title(s: State) -> str:
    """The day or night and its step."""
    role = ROLE_GENITIVE.get(s.step_role, "") if s.step_role is not None else ""
    match s.phase:
        case Phase.ROLES:
            return "Раздача ролей"
        case Phase.INTRO_MAFIA:
            return "Ночь знакомства · мафия договаривается"
        case Phase.INTRO_MEET:
            return f"Ночь знакомства · знакомство {role}"
        case Phase.NIGHT_HUNT:
            return f"Ночь {s.day} · охота мафии"
        case Phase.NIGHT_CHECK:
            return f"Ночь {s.day} · проверка {role}"
        case Phase.NIGHT_VISIT:
            return f"Ночь {s.day} · ход {role}"
        case Phase.INTRO_SPEECH:
            return "День спокойствия · знакомство"
        case Phase.GAME_OVER:
            return "Игра окончена"
    step = {
        Phase.MORNING: "утро",
        Phase.LAST_WORD: "последнее слово",
        Phase.SPEECH: "речи",
        Phase.VOTE_ANNOUNCE: "кандидаты",
        Phase.TIE_SPEECH: "оправдание (автокатастрофа)",
        Phase.DISCUSSION: "общее обсуждение",
        Phase.NOMINATION: "выдвижение кандидатов",
        Phase.JUSTIFICATION: "оправдание кандидатов",
        Phase.GOLDEN_ASK: "золотая минута?",
        Phase.GOLDEN_MINUTE: "золотая минута",
    }.get(s.phase)
    if step is None:  # the vote
        step = ROUND_NAMES[s.vote_round.kind] if s.vote_round is not None else "голосование"
    return f"День {s.day} · {step}"


def clock(seconds: float) -> str:
    """A countdown: 59.2 s left shows 1:00, 0.4 s shows 0:01."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"


def elapsed(t: float) -> str:
    """Time since the game began, to a tenth: 779.96 s is 13:00.0 (never 12:60.0)."""
    tenths = round(t * 10)
    return f"{tenths // 600:02d}:{tenths % 600 / 10:04.1f}"
