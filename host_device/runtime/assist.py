"""Assist mode: a human host leads, the device times, announces, hears and counts.

The host's keys (the keyboard, and the panel's three host buttons: next,
pause, undo) arrive as presses with a key name. A seat key (a seat's button,
or its digit on the keyboard) is the table's press, as in host mode, unless
a host key is waiting for a seat: "f" then 3 is a foul for seat 3. Every key
either does something or leaves a short message on the host's screen saying
why not; no key is ignored silently.

The host starts every step ("next"), gives fouls, confirms or rejects the
nominations the device heard, may add or withdraw the speaker's nomination,
enters the votes as counts when the table has no buttons, enters the night's
result (a kill, or nothing for a miss; a check if he wants it recorded), runs
free timers and undoes his last steps back to the start of the day.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import (
    Advance,
    Check,
    DealRoles,
    Foul,
    GoldenMinute,
    IllegalInput,
    Input,
    Nominate,
    Phase,
    Role,
    Shot,
    Tally,
    Visit,
    Vote,
    Withdraw,
)
from engine.outputs import Output, VoteCounted
from engine.roles import BLACK_ROLES
from engine.steps import NIGHT_CALLS
from host_device.config import AssistSettings
from host_device.runtime.loop import Runtime
from voices.forms import ROLE_WORDS, cardinal
from voices.words import ROLE_GENITIVE

# (key name, keyboard key, what it does): the help screen, the README and the checks read this one table
KEYS: tuple[tuple[str, str, str, str], ...] = (  # (name, key, short label, what it does)
    ("next", "n", "дальше", "следующий шаг: речь, голосование, ночь, утро"),
    ("pause", "p", "пауза", "пауза / продолжить"),
    ("undo", "u", "отмена", "отмена последнего шага (не раньше начала дня)"),
    ("foul", "f", "фол", "фол: f, затем место"),
    ("nominate", "v", "выставить", "выставить от имени говорящего: v, затем место"),
    ("withdraw", "w", "снять", "снять кандидатуру говорящего: w, затем место"),
    ("confirm", "y", "принять", "принять услышанное выставление"),
    ("reject", "x", "отклонить", "отклонить услышанное выставление"),
    ("count", "g", "голоса", "голоса по рукам: g, число, Enter"),
    ("kill", "k", "убит", "ночью: убит игрок — k, затем место (промах — просто n)"),
    ("check", "c", "проверка", "ночью: проверка — c, затем место"),
    ("heal", "d", "лечение", "город, ночью: доктор лечит — d, затем место"),
    ("visit", "l", "визит", "город, ночью: любовница навещает — l, затем место"),
    ("golden", "z", "золотая", "город: золотая минута кандидата — z, затем место"),
    ("timer", "t", "таймер", "таймер: t, затем номер (0 — остановить)"),
    ("roles", "r", "роли", "вид ведущего: показать / скрыть роли"),
    ("help", "h", "справка", "эта справка"),
    ("enter", "Enter", "ввод", "записать число голосов или группу ролей"),
    ("cancel", "Esc", "сброс", "отменить начатую команду"),
)
NAMES = tuple(key[0] for key in KEYS)
CHARS = {key[0]: key[1] for key in KEYS}  # key name -> the keyboard key
SHORT = {key[0]: key[2] for key in KEYS}  # key name -> its short label
SEAT_KEYS_HELP = "1…9, 0, -, = — места 1…12 (кнопки стола; после f, v, w, k, c — место)"
CITY_KEYS = ("heal", "visit", "golden")
WAITS_FOR_SEAT = ("foul", "nominate", "withdraw", "kill", "check", "heal", "visit", "golden")
PREFIXES = (*WAITS_FOR_SEAT, "count", "timer")
SEAT_DIGITS = {seat: str(seat % 10) for seat in range(1, 11)}  # seat keys 1..9, 0 as digits


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


def runtime_settings(assist: AssistSettings, **base: Any) -> dict[str, Any]:
    """The runtime's Settings fields for assist mode: the device ends a step
    by itself only in the vote windows on buttons and a night on buttons."""
    auto = set()
    if assist.votes == "buttons":
        auto.add(Phase.VOTE)
    if assist.night == "buttons":
        auto |= NIGHT_CALLS.keys()
    return {**base, "auto": frozenset(auto), "table_ends_speech": False, "confirm": not assist.auto_accept}


@dataclass
class RoleEntry:
    """The host types the roles before the introduction night: the black
    seats, then the Don among them, then each red role (the screen shows
    what he selects only to him)."""

    steps: list[tuple[Role | None, int]]
    index: int = 0
    selected: set[int] = field(default_factory=set)
    roles: dict[int, Role] = field(default_factory=dict)

    @classmethod
    def for_preset(cls, preset: Any) -> RoleEntry:
        black = sum(n for role, n in preset.roles if role in BLACK_ROLES)
        specials = [(role, n) for role, n in preset.roles if role is not Role.MAFIA]
        return cls([(None, black), *sorted(specials, key=lambda step: step[0] not in BLACK_ROLES)])

    @property
    def step(self) -> tuple[Role | None, int]:
        return self.steps[self.index]

    def prompt(self) -> str:
        role, count = self.step
        if role is None:
            what = f"{players(count)} чёрных игроков" if count > 1 else "чёрного игрока"
            if any(r is Role.DON for r, _ in self.steps):
                what += " (мафию и дона)"
        else:
            what = ROLE_GENITIVE[role] if role in ROLE_GENITIVE else ROLE_NAMES[role]
            what += " среди чёрных" if role in BLACK_ROLES else ""
        chosen = ", ".join(map(str, sorted(self.selected))) or "—"
        return f"Роли: отметьте {what}; выбрано: {chosen}; Enter — дальше"

    def confirm(self) -> str | None:
        """The group is taken (None) or the reason it is not."""
        role, count = self.step
        black = {seat for seat, r in self.roles.items() if r in BLACK_ROLES}
        refusal = None
        if len(self.selected) != count:
            refusal = f"нужно мест: {count}, отмечено: {len(self.selected)}"
        elif role in BLACK_ROLES and not self.selected <= black:
            refusal = f"{ROLE_NAMES[role]} должен быть среди чёрных"
        elif role is not None and role not in BLACK_ROLES and self.selected & set(self.roles):
            refusal = "это место уже чёрное или занято другой ролью"
        if refusal is not None:
            self.selected = set()  # a fresh selection: the wrong seats never stay marked
            return refusal
        self.roles.update(dict.fromkeys(self.selected, Role.MAFIA if role is None else role))
        self.selected = set()
        self.index += 1
        return None

    @property
    def done(self) -> bool:
        return self.index == len(self.steps)

    def deal(self) -> DealRoles:
        return DealRoles(roles=tuple(sorted(self.roles.items())))


ROLE_NAMES = ROLE_WORDS  # the Russian role names the device speaks, on the host's screen too
MESSAGE_S = 6.0  # a message stays on the host's screen this long, or until the next step


def players(n: int) -> str:
    """A count of players after «отметьте»: "двух", "трёх", "четырёх", "пять"."""
    return {2: "двух", 3: "трёх", 4: "четырёх"}.get(n, cardinal(n))


class Assist:
    def __init__(
        self,
        runtime: Runtime,
        settings: AssistSettings | None = None,
        role_entry: bool = True,
    ) -> None:
        self.runtime = runtime
        self.settings = settings or AssistSettings()
        preset = runtime.game.preset
        self.timers: list[tuple[str, int]] = [
            ("60 с", 60),
            ("30 с", 30),
            ("договорка", preset.agreement_seconds),
            *((f"{s} с", s) for s in self.settings.timers),
        ]
        self.roles = RoleEntry.for_preset(preset) if role_entry else None
        self.pending: str | None = None  # a host key waiting for its seat or number
        self.digits = ""
        self.message = ""
        self.message_at: tuple[int, float] = (-1, 0.0)  # (step, time) it was said
        self.zero_warned: tuple[int, int] | None = None  # (step, window) where "next" would record 0 hands
        self.typed_counts: dict[int, int] = {}  # this round's hands typed, by candidate
        self.vote_note = ""  # what the round's count did with the typed hands, said after it
        self.show_roles = False
        self.show_help = False
        self.transcript = ""
        self.last_counts: tuple[tuple[int, int], ...] = ()
        self.on_deal: Callable[[DealRoles], Any] = lambda dealt: runtime.handle(dealt)
        self.refusal: IllegalInput | None = None  # the engine's last refusal of an input
        runtime.observers.append(self._observe)
        runtime.on_reject.append(self._refused)

    @property
    def game(self) -> Any:
        return self.runtime.game

    def _observe(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, VoteCounted):
                self.last_counts = output.counts
                typed, self.typed_counts = self.typed_counts, {}
                last, counted = output.counts[-1]
                if last in typed and typed[last] != counted:  # the non-voters went to the last candidate
                    self.vote_note = (
                        f"за игрока {last} введено {typed[last]}, засчитано {counted}: "
                        "голоса не голосовавших отданы последней кандидатуре"
                    )

    def say(self, message: str) -> None:
        self.message = message
        self.message_at = (self.runtime.step, self.runtime.sched.now)
        self.runtime.record("host_message", text=message)

    def shown_message(self) -> str:
        """The message, while it is fresh: for MESSAGE_S, and not past the step it was said in."""
        step, at = self.message_at
        fresh = step == self.runtime.step and self.runtime.sched.now - at < MESSAGE_S
        return self.message if fresh else ""

    # ------------------------------------------------------------------ keys

    def press(self, key: int | str, at: float | None = None, from_host: bool = True) -> bool:
        """A key or button: a seat number or a host key name. Returns whether
        it did something. A seat's own button (``from_host`` False) is the
        table's press: it never completes a host's command."""
        if isinstance(key, int) and not from_host:
            return self._table(key, at)
        if isinstance(key, int):
            return self._seat(key, at)
        self.runtime.record("host_key", key=key)
        if key not in NAMES:
            self.say("такой клавиши нет (h — справка)")
            return False
        reason = self.why_not(key)
        if reason is not None:
            self.say(f"{self.label(key)}: {reason}")
            return False
        if key in PREFIXES:  # a key that waits for its seat or number
            self.pending, self.digits = key, ""
            return True
        return bool(getattr(self, f"_{key}")())

    @staticmethod
    def label(key: str) -> str:
        return f"[{CHARS[key]}]"

    def why_not(self, key: str) -> str | None:
        """None if the key is legal now, else the short reason it is not."""
        s, rt = self.game.state, self.runtime
        phase = s.phase
        if key in ("pause", "help", "roles"):
            return None
        if key == "cancel":
            return None if self.pending or (self.roles and self.roles.selected) else "нечего отменять"
        if key == "enter":
            if self.pending == "count":
                return None if self.digits else "сначала число"
            if phase is Phase.ROLES and self.roles is not None:
                return None
            return "нечего подтверждать"
        if self.pending is not None:
            return "сначала закончите начатую команду (Esc — отменить)"
        if phase is Phase.ROLES:
            return "сначала роли" if self.roles is not None else "идёт раздача ролей"
        if phase is Phase.GAME_OVER:
            return "игра окончена"
        if rt.sched.paused and key != "undo":
            return "пауза (p — продолжить)"
        if key == "undo":
            return None if rt.undo_target() is not None else "нечего отменять в этот день"
        if key in ("confirm", "reject"):
            return None if rt.proposals else "нет услышанных выставлений"
        if key == "next" and rt.proposals:  # a heard nomination is never lost by moving on
            return "сначала решите об услышанном выставлении (y — принять, x — отклонить)"
        if key in PROBES and self._engine_refuses(PROBES[key]):  # the rules refuse the key's input now
            return NOT_NOW[key]
        if key in ("heal", "visit"):
            role = Role.DOCTOR if key == "heal" else Role.LOVER
            if s.step_role is not role:
                return NOT_NOW[key]
            if role in s.visited:
                return "этой ночью уже записано (u — отменить)"
            if not any(s.role(p) is role for p in s.alive()):
                return f"{ROLE_NAMES[role]} выбыл" if role is Role.DOCTOR else f"{ROLE_NAMES[role]} выбыла"
            return None
        if key == "kill" and s.shots:
            return "выстрел этой ночи уже записан (u — отменить)"
        if key == "check":
            if s.step_role in s.checked:
                return "проверка этой ночи уже записана (u — отменить)"
            if not any(s.role(p) is s.step_role for p in s.alive()):
                return "проверяющий выбыл"
        return None  # next, foul, timer

    def _engine_refuses(self, probe: Input) -> bool:
        """Whether the engine refuses an input of this kind in this step
        (whatever its seats), or a rule these presets do not have."""
        try:
            self.game.check(probe)
        except IllegalInput as exc:
            return exc.code in ("not_now", "no_fouls")
        return False

    def legal_keys(self) -> list[str]:
        return [name for name in NAMES if self.why_not(name) is None]

    def keys_here(self) -> list[str]:
        """The keys of these rules: the city's own (heal, visit, golden) only
        in the city, fouls only where the rules have them."""
        preset = self.game.preset
        return [
            name
            for name in NAMES
            if (name not in CITY_KEYS or preset.visits) and (name != "foul" or preset.fouls)
        ]

    def _seat(self, seat: int, at: float | None) -> bool:
        pending = self.pending
        if pending in WAITS_FOR_SEAT:
            self.pending = None
            return bool(getattr(self, f"_{pending}_seat")(seat))
        if pending == "count":
            if seat not in SEAT_DIGITS:
                self.say("число голосов: цифры 0…9")
                return False
            self.digits += SEAT_DIGITS[seat]
            return True
        if pending == "timer":
            self.pending = None
            return self._timer_choice(0 if seat == 10 else seat)
        if self.game.phase is Phase.ROLES and self.roles is not None:
            self.roles.selected ^= {seat}
            return True
        return self._table(seat, at)

    def _table(self, seat: int, at: float | None) -> bool:
        taken = self.runtime.press(seat, at=at)
        if taken:
            return True
        s = self.game.state
        if seat == s.speaker and not self.runtime.settings.table_ends_speech:
            self.say(f"игрок {seat} нажал свою кнопку: речь окончена? (n — дальше)")
        else:
            self.say(f"кнопка {seat}: не засчитана сейчас")
        return False

    def heard(self, intent: Any, words: str) -> None:
        """What the listener heard, for the host's eyes (the runtime acts on it by itself)."""
        self.transcript = words
        speaker = self.game.state.speaker
        if intent.intent == "end" and speaker is not None and not self.runtime.settings.table_ends_speech:
            self.say(f"игрок {speaker}: «{words}» — речь окончена? (n — дальше)")

    # ------------------------------------------------------------------ what each key does

    def _next(self) -> bool:
        s, rt = self.game.state, self.runtime
        rnd = s.vote_round
        by_hand = rt.window is not None and rt.window[1] == float("inf")  # no buttons: the host counts
        if s.phase is Phase.VOTE and rnd is not None and by_hand:
            here = (rt.step, rnd.window)  # a window counted by hand, with no count typed yet
            if rnd.current not in rnd.tallies and self.zero_warned != here:
                self.zero_warned = here
                who = "все голосуемые" if rnd.current == 0 else f"игрок {rnd.current}"
                self.say(f"голоса не введены ({who}): g — ввести число; n ещё раз — ноль голосов")
                return False
        return self._handle(Advance())

    def _pause(self) -> bool:
        self.runtime.toggle_pause()
        return True

    def _undo(self) -> bool:
        target = self.runtime.undo_target()
        assert target is not None
        undone = self.game.record[target:]
        if not self.runtime.undo_to(target):
            self.say("отмена не записана: нет места для записи игры")
            return False
        self.last_counts = ()  # it may have been the undone vote's
        more = f" (и ещё записей: {len(undone) - 1})" if len(undone) > 1 else ""
        self.say(f"отменено: {describe(undone[0])}{more}")
        return True

    def _confirm(self) -> bool:
        proposal = self.runtime.proposals[0]
        ok = self.runtime.decide(True)
        if not ok:
            self.say(f"не принято: {self._reason()}")
        else:
            self.say(f"принято: {describe(proposal.input)}")
        return ok

    def _reject(self) -> bool:
        proposal = self.runtime.proposals[0]
        self.runtime.decide(False)
        self.say(f"отклонено: {describe(proposal.input)}")
        return True

    def _roles(self) -> bool:
        self.show_roles = not self.show_roles
        return True

    def _help(self) -> bool:
        self.show_help = not self.show_help
        return True

    def _cancel(self) -> bool:
        self.pending, self.digits = None, ""
        if self.roles is not None:
            self.roles.selected = set()
        self.say("команда отменена")
        return True

    def _enter(self) -> bool:
        if self.pending == "count":
            count = int(self.digits)
            self.pending, self.digits = None, ""
            rnd = self.game.state.vote_round
            candidate = rnd.current if rnd is not None else 0
            self.typed_counts[candidate] = self.typed_counts.get(candidate, 0) + count
            if not self._handle(Tally(count=count)):
                self.typed_counts[candidate] -= count
                return False
            if self.vote_note:  # the count that ended the round was not the one that counts
                self.say(self.vote_note)
                self.vote_note = ""
            return True
        assert self.roles is not None
        reason = self.roles.confirm()
        if reason is not None:
            self.say(f"роли: {reason}")
            return False
        if self.roles.done:
            self.on_deal(self.roles.deal())
            self.say("роли записаны")
        return True

    def _foul_seat(self, seat: int) -> bool:
        s = self.game.state
        if not 1 <= seat <= s.seats:
            self.say(f"фол: места {seat} нет")
            return False
        if seat in s.out and not (s.phase is Phase.LAST_WORD and s.speaker == seat):
            self.say(f"фол: игрок {seat} уже выбыл — фол не записан")
            return False
        return self._handle(Foul(seat=seat))

    def _nominate_seat(self, seat: int) -> bool:
        speaker = self.game.state.speaker
        assert speaker is not None
        before = self.game.state.nominations.get(speaker)
        if not self._handle(Nominate(seat=speaker, target=seat)):
            return False
        if seat not in self.game.state.candidates:  # the city's round: the Lover's alibi
            self.say(f"у игрока {seat} алиби: не выставлен; игрок {speaker} называет другого")
            return True
        if before is not None and before != seat:  # the last one said counts: say which one it replaced
            self.say(f"записано: игрок {speaker} выставляет игрока {seat} (вместо игрока {before})")
        return True

    def _withdraw_seat(self, seat: int) -> bool:
        speaker = self.game.state.speaker
        assert speaker is not None
        return self._handle(Withdraw(seat=speaker, target=seat))

    def _kill_seat(self, seat: int) -> bool:
        """Every living black player's shot at the seat: the record a kill on buttons would have."""
        s = self.game.state
        if seat not in s.alive():
            self.say(f"убийство: игрок {seat} не в игре")
            return False
        shooters = [p for p in s.alive() if s.role(p) in BLACK_ROLES]
        for k, shooter in enumerate(shooters):
            self.runtime.handle(Shot(seat=shooter, target=seat), by_host=k == 0)
        self.say(f"ночь: убит игрок {seat} (объявится утром)")
        return True

    def _check_seat(self, seat: int) -> bool:
        s = self.game.state
        checker = next(p for p in s.alive() if s.role(p) is s.step_role)  # "c" is legal only with one
        if not self._handle(Check(seat=checker, target=seat)):
            return False
        if self.show_roles:
            self.say(f"проверка: игрок {seat} — {ROLE_NAMES[s.role(seat)]}")
        else:
            self.say(f"проверка игрока {seat} записана")
        return True

    def _heal_seat(self, seat: int) -> bool:
        return self._visit_as(Role.DOCTOR, seat)

    def _visit_seat(self, seat: int) -> bool:
        return self._visit_as(Role.LOVER, seat)

    def _visit_as(self, role: Role, seat: int) -> bool:
        s = self.game.state
        visitor = next(p for p in s.alive() if s.role(p) is role)  # legal only while one lives
        return self._handle(Visit(seat=visitor, target=seat))

    def _golden_seat(self, seat: int) -> bool:
        return self._handle(GoldenMinute(seat=seat))

    def _timer_choice(self, number: int) -> bool:
        if number == 0:
            if not self.runtime.stop_free_timer():
                self.say("таймер не идёт")
                return False
            self.say("таймер остановлен")
            return True
        if not 1 <= number <= len(self.timers):
            self.say(f"таймера {number} нет: 1…{len(self.timers)}, 0 — стоп")
            return False
        label, seconds = self.timers[number - 1]
        if label == "договорка":
            self.runtime.start_free_timer(seconds, "agreement", seconds=seconds)
        else:
            self.runtime.start_free_timer(seconds)
        self.say(f"таймер: {label}")
        return True

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

    def heard_text(self, text: str) -> None:
        self.transcript = text


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
        case DealRoles():
            return "роли"
        case _:
            return "переход к следующему шагу"
