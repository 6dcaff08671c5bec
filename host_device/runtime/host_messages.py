"""What the host's screen tells him (assist mode): a short message for a
while, an input by its name (never who shot), the engine's refusals in
Russian, and why a key does nothing now."""

from __future__ import annotations

from typing import Any

from engine import (
    Advance,
    BestMove,
    Check,
    DealRoles,
    Foul,
    GoldenMinute,
    IllegalInput,
    Input,
    Nominate,
    Role,
    Shot,
    Tally,
    Visit,
    Vote,
    Withdraw,
)
from host_device.runtime.loop import Runtime
from voices.forms import ROLE_WORDS

MESSAGE_S = 6.0  # a message stays on the host's screen this long, or until the next step

PROBES: dict[str, Input] = {  # a key's input, asked of the engine with any seat: is it refused in this step?
    "foul": Foul(seat=1),
    "nominate": Nominate(seat=1, target=1),
    "withdraw": Withdraw(seat=1, target=1),
    "golden": GoldenMinute(seat=1),
    "count": Tally(count=0),
    "kill": Shot(seat=1, target=1),
    "check": Check(seat=1, target=1),
    "heal": Visit(seat=1, target=1),
    "visit": Visit(seat=1, target=1),
}
NOT_NOW = {  # what the host is told when the engine refuses it
    "foul": "в этих правилах нет фолов",
    "nominate": "выставлять и снимать можно только во время речи",
    "withdraw": "выставлять и снимать можно только во время речи",
    "golden": "золотую минуту берут во время оправданий",
    "count": "голоса вводятся во время голосования",
    "kill": "убийство вводится, когда мафия выходит на охоту",
    "check": "проверка вводится, когда просыпается проверяющий",
    "heal": f"лечение вводится, когда просыпается {ROLE_WORDS[Role.DOCTOR]}",
    "visit": f"визит вводится, когда просыпается {ROLE_WORDS[Role.LOVER]}",
}


REASONS = {  # the engine's refusals (IllegalInput.code) as the host's screen says them, from their parts
    "not_now": "сейчас нельзя",
    "not_a_seat": "места {number} нет (1…{seats})",
    "out_of_game": "игрок {number} выбыл",
    "already_nominated": "игрок {target} уже выставлен сегодня",
    "not_his_candidate": "игрок {target} — не кандидат говорящего",
    "already_voted": "уже голосовал в этом круге",
    "all_counted": "голоса всех живых уже учтены",
    "on_buttons": "за этого кандидата уже голосовали кнопками",
    "too_many_votes": (
        "голосов {count} — больше, чем может быть: живых {alive}, уже проголосовали {voted}, можно 0…{left}"
    ),
    "game_over": "игра окончена",
    "no_best_move": "лучший ход называет только убитый в первую ночь, в своём последнем слове",
    "best_move_three": "в лучшем ходе три места, а не {count}",
    "own_seat": "своё место в лучшем ходе не называют",
    "named_twice": "место {number} названо дважды",
}


def in_russian(refusal: IllegalInput) -> str:
    """The engine's refusal for the host's screen (the engine's own words where it has no Russian here)."""
    text = REASONS.get(refusal.code)
    return refusal.reason if text is None else text.format(**refusal.parts)


def describe(inp: Input) -> str:
    """An input as the host's screen names it (never who shot: that would name the mafia)."""
    match inp:
        case Nominate(seat=seat, target=target):
            return f"игрок {seat} выставляет игрока {target}"
        case Withdraw(seat=seat, target=target):
            return f"игрок {seat} снимает игрока {target}"
        case Foul(seat=seat):
            return f"фол игроку {seat}"
        case Tally(count=count):
            return f"голосов по рукам: {count}"
        case Vote(seat=seat):
            return f"голос игрока {seat}"
        case Shot():
            return "ночной выстрел"
        case Check():
            return "проверка"
        case Visit():
            return "ночной визит"
        case GoldenMinute(seat=seat):
            return f"золотая минута игрока {seat}"
        case BestMove(seat=seat, seats=seats):
            return f"лучший ход игрока {seat}: {', '.join(map(str, seats))}"
        case DealRoles():
            return "роли"
        case _:
            return "переход к следующему шагу"


class HostMessages:
    """The host's screen line: what he is told, kept for a while, and the
    inputs he gives, each said back as recorded or refused (and why)."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.message = ""
        self.message_at: tuple[int, float] = (-1, 0.0)  # (step, time) it was said
        self.refusal: IllegalInput | None = None  # the engine's last refusal of an input
        runtime.on_reject.append(self._refused)

    @property
    def game(self) -> Any:
        return self.runtime.game

    def say(self, message: str) -> None:
        self.message = message
        self.message_at = (self.runtime.step, self.runtime.sched.now)
        self.runtime.record("host_message", text=message)

    def shown_message(self) -> str:
        """The message, while it is fresh: for MESSAGE_S, and not past the step it was said in."""
        step, at = self.message_at
        fresh = step == self.runtime.step and self.runtime.sched.now - at < MESSAGE_S
        return self.message if fresh else ""

    def _handle(self, inp: Input) -> bool:
        ok = self.runtime.handle(inp, by_host=True)
        if not ok:
            self.say(f"не принято: {self._reason()}")
        elif not isinstance(inp, Advance):
            self.say(f"записано: {describe(inp)}")
        return ok

    def _refused(self, inp: Input, refusal: IllegalInput, where: dict[str, Any]) -> None:
        self.refusal = refusal

    def _reason(self) -> str:
        for entry in reversed(self.runtime.timeline):
            if entry["type"] == "rejected" and self.refusal is not None:
                return in_russian(self.refusal)
            if entry["type"] == "not_recorded":
                return "игра не записана (нет места)"
        return "не сейчас"
