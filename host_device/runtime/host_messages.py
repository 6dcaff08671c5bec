"""What the host's screen tells him (assist mode): a short message for a
while, an input by its name (never who shot), the engine's refusals in
Russian, and why a key does nothing now."""

from __future__ import annotations

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
    Phase,
    Preset,
    Role,
    Shot,
    Tally,
    Visit,
    Vote,
    Withdraw,
)
from engine.steps import ALLOWS
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import HostMessage
from voices.forms import ROLE_WORDS
from voices.words import role_name

MESSAGE_S = 6.0  # a message stays on the host's screen this long, or until the next step

KEY_INPUTS: dict[str, type[Input]] = {  # a host key's input: the step must take inputs of this kind
    "foul": Foul,
    "nominate": Nominate,
    "withdraw": Withdraw,
    "golden": GoldenMinute,
    "count": Tally,
    "kill": Shot,
    "check": Check,
    "heal": Visit,
    "visit": Visit,
}
NOT_NOW = {  # what the host is told when the step does not take the key's input
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


def not_now(key: str, preset: Preset, phase: Phase) -> str | None:
    """Why a host key's input is refused in this step whatever its seats, or None: the step takes it."""
    kind = KEY_INPUTS.get(key)
    if kind is None:
        return None
    if kind is Foul and not preset.fouls:
        return NOT_NOW["foul"]
    return None if kind in ALLOWS[phase].inputs else NOT_NOW[key]


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
    "not_dealt": "роли ещё не розданы",
    "not_speaker": "это может только говорящий (игрок {speaker})",
    "not_candidate": "игрок {seat} сегодня не кандидат",
    "golden_used": "игрок {seat} уже брал золотую минуту в этой игре",
    "golden_asked": "игрок {seat} уже попросил золотую минуту",
    "no_fouls": "в этих правилах нет фолов",
    "foul_by": "фол даёт ведущий или устройство, а не «{by}»",
    "two_roles": "месту {seat} назначены две роли",
    "role_not_in_preset": "роли «{role}» нет в этих правилах",
    "role_count": "нужно ролей «{role}»: {want}, а отмечено {got}",
}


def in_russian(refusal: IllegalInput) -> str:
    """The engine's refusal for the host's screen: every code the engine has
    is said here (a test holds it)."""
    parts = {"seat": refusal.seat, **refusal.parts}
    if isinstance(parts.get("role"), str):
        parts["role"] = role_name(str(parts["role"]))
    return REASONS[refusal.code].format(**parts)


def describe(inp: Input) -> str:
    """An input as the host's screen names it (never who shot: that would name the mafia)."""
    match inp:
        case Nominate(seat=seat, target=target):
            return f"игрок {seat} выставляет игрока {target}"
        case Withdraw(seat=seat, target=target):
            return f"игрок {seat} снимает игрока {target}"
        case Foul(seat=seat, by=by, word=word) if word:  # what the device heard
            heard = "время" if word == "время" else f"«{word}»"
            return f"фол игроку {seat}: {heard}" + (" (устройство)" if by == "device" else "")
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

    def say(self, message: str) -> None:
        self.message = message
        self.message_at = (self.runtime.step, self.runtime.sched.now)
        self.runtime.note(HostMessage(t=self.runtime.sched.now, text=message))

    def shown(self) -> str:
        """The message, while it is fresh: for MESSAGE_S, and not past the step it was said in."""
        step, at = self.message_at
        fresh = step == self.runtime.step and self.runtime.sched.now - at < MESSAGE_S
        return self.message if fresh else ""

    def handle(self, inp: Input) -> bool:
        """The host's input, given to the runtime and said back: recorded, or refused and why."""
        ok = self.runtime.handle(inp, by_host=True)
        if not ok:
            self.say(f"не принято: {self.reason()}")
        elif not isinstance(inp, Advance):
            self.say(f"записано: {describe(inp)}")
        return ok

    def reason(self) -> str:
        """Why the runtime did not take the last input: the store, or the engine's refusal."""
        if self.runtime.unrecorded is not None:
            return "игра не записана (нет места)"
        refusal = self.runtime.refusal
        return "не сейчас" if refusal is None else in_russian(refusal)
