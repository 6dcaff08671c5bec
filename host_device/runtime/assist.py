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
from typing import Any

from engine import (
    Advance,
    DealRoles,
    Game,
    Phase,
    Role,
    Tally,
)
from engine.outputs import Output, PhaseStarted, VoteCounted
from engine.steps import FLOOR, NIGHT, NIGHT_CALLS
from host_device.config import AssistSettings
from host_device.runtime.free_timers import timer_menu
from host_device.runtime.host_keys import CHARS, CITY_KEYS, NAMES, PREFIXES, SEAT_DIGITS, WAITS_FOR_SEAT
from host_device.runtime.host_messages import NOT_NOW, HostMessages, describe, not_now
from host_device.runtime.loop import Runtime
from host_device.runtime.role_entry import ROLE_NAMES, RoleEntry
from host_device.runtime.seat_commands import SeatCommands
from host_device.runtime.timeline import HostKeyPressed, Ignored, Pressed, Rejected

NOT_COUNTED = {  # why the runtime ignored a seat's press (runtime/table.py, Runtime.made_here), in Russian
    "his press during his own announcement": "слишком рано — речь только началась, нажмите ещё раз",
    "a press outside the vote window": "окно голосования закрыто",
    "a press between the night's calls": "между номерами — нажимают, когда назван номер",
    "a press made in a step that is over": "нажато в шаге, который уже окончен",
}


def not_counted(reason: str) -> str:
    """A reason the runtime's timeline gives for an ignored press, as the host's screen and a phone say it."""
    return NOT_COUNTED.get(reason, "сейчас кнопка места ничего не делает")


DAY_IS_OVER = NIGHT | {Phase.MORNING}  # the screen forgets the day's lines


def runtime_settings(assist: AssistSettings, **base: Any) -> dict[str, Any]:
    """The runtime's Settings fields for assist mode: the device ends a step
    by itself only in the vote windows on buttons and a night on buttons."""
    auto = set()
    if assist.votes == "buttons":
        auto.add(Phase.VOTE)
    if assist.night == "buttons":
        auto |= NIGHT_CALLS.keys()
    return {**base, "auto": frozenset(auto), "table_ends_speech": False, "confirm": not assist.auto_accept}


class Assist:
    """The human host's keys over one runtime, with its parts: the screen's
    message line (:class:`HostMessages`) and the commands that take a seat
    (:class:`SeatCommands`)."""

    def __init__(
        self,
        runtime: Runtime,
        settings: AssistSettings | None = None,
        role_entry: bool = True,
    ) -> None:
        self.runtime = runtime
        self.settings = settings or AssistSettings()
        preset = runtime.game.preset
        self.timers = timer_menu(preset.agreement_seconds, self.settings.timers)
        self.messages = HostMessages(runtime)
        self.commands = SeatCommands(runtime, self.messages, self.timers, lambda: self.show_roles)
        self.say, self._handle = self.messages.say, self.messages.handle
        self.roles = RoleEntry.for_preset(preset) if role_entry else None
        self.pending: str | None = None  # a host key waiting for its seat or number
        self.digits = ""
        self.zero_warned: tuple[int, int] | None = None  # (step, window) where "next" would record 0 hands
        self.typed_counts: dict[int, int] = {}  # this round's hands typed, by candidate
        self.vote_note = ""  # what the round's count did with the typed hands, said after it
        self.show_roles = False
        self.show_help = False
        self.transcript = ""
        self.last_counts: tuple[tuple[int, int], ...] = ()
        self.on_deal: Callable[[DealRoles], Any] = lambda dealt: runtime.handle(dealt)
        runtime.observers.append(self._observe)

    @property
    def game(self) -> Game:
        return self.runtime.game  # replaced by an undo

    @property
    def message(self) -> str:
        return self.messages.message

    def shown_message(self) -> str:
        return self.messages.shown()

    def _observe(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, PhaseStarted) and output.phase in DAY_IS_OVER:
                self.transcript, self.last_counts = "", ()  # the day's words and count stay with the day
            if isinstance(output, VoteCounted):
                self.last_counts = output.counts
                typed, self.typed_counts = self.typed_counts, {}
                last, counted = output.counts[-1]
                if last in typed and typed[last] != counted:  # the non-voters went to the last candidate
                    self.vote_note = (
                        f"за игрока {last} введено {typed[last]}, засчитано {counted}: "
                        "голоса не голосовавших отданы последней кандидатуре"
                    )

    # ------------------------------------------------------------------ keys

    def press(self, key: int | str, at: float | None = None, from_host: bool = True) -> bool:
        """A key or button: a seat number or a host key name. Returns whether
        it did something. A seat's own button (``from_host`` False) is the
        table's press: it never completes a host's command."""
        if isinstance(key, int) and not from_host:
            return self._table(key, at)
        if isinstance(key, int):
            return self._seat(key, at)
        self.runtime.note(HostKeyPressed(t=self.runtime.sched.now, key=key))
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
        does: dict[str, Callable[[], bool]] = {
            "next": self._next,
            "pause": self._pause,
            "undo": self._undo,
            "confirm": self._confirm,
            "reject": self._reject,
            "roles": self._roles,
            "help": self._help,
            "cancel": self._cancel,
            "enter": self._enter,
        }
        return does[key]()

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
        refused = not_now(key, self.game.preset, phase)  # the step does not take the key's input
        if refused is not None:
            return refused
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
            return self.commands.run(pending, seat)
        if pending == "count":
            if seat not in SEAT_DIGITS:
                self.say("число голосов: цифры 0…9")
                return False
            self.digits += SEAT_DIGITS[seat]
            return True
        if pending == "timer":
            self.pending = None
            return self.commands.timer_choice(0 if seat == 10 else seat)
        if self.game.phase is Phase.ROLES and self.roles is not None:
            self.roles.selected ^= {seat}
            return True
        return self._table(seat, at)

    def _table(self, seat: int, at: float | None) -> bool:
        taken = self.runtime.press(seat, at=at)
        if taken and self.runtime.sched.paused and self.game.phase is Phase.VOTE:
            self.say(f"кнопка {seat}: засчитана — окно голосования стоит на паузе")
        if taken:
            return True
        s = self.game.state
        if seat == s.speaker and not self.runtime.settings.table_ends_speech:
            self.say(f"игрок {seat} нажал свою кнопку: речь окончена? (n — дальше)")
        else:
            self.say(f"кнопка {seat}: не засчитана — {self._why_not(seat)}")
        return False

    def _why_not(self, seat: int) -> str:
        """Why a seat's press just now counted for nothing: what the runtime noted, or the step."""
        for entry in reversed(self.runtime.timeline.entries):  # back to the press itself
            if isinstance(entry, Ignored) and entry.key == seat:
                return not_counted(entry.reason)
            if isinstance(entry, Rejected):
                return self.messages.reason()
            if isinstance(entry, Pressed):
                break
        s = self.game.state
        if s.phase in FLOOR and s.speaker is not None:
            return f"сейчас говорит игрок {s.speaker}"
        return not_counted("")

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
            self.say(f"не принято: {self.messages.reason()}")
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

    def heard_text(self, text: str) -> None:
        self.transcript = text

    def typed(self, text: str) -> None:
        """Words typed for the speaker (Tab on the keyboard): heard as if he
        had said them, in a speech; outside one they count for nothing, and
        the host is told so."""
        self.transcript = text
        if self.game.state.speaker is None or self.game.phase not in FLOOR:
            self.say(f"«{text}»: сейчас никто не говорит — слова не засчитаны")
