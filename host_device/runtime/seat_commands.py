"""The host's commands that take a seat (assist mode): «f» then 3 is a foul
for seat 3; so are a nomination or withdrawal for the speaker, the night's
kill, check, heal and visit, a golden minute, and a free timer by its number."""

from __future__ import annotations

from collections.abc import Callable

from engine import Check, Foul, Game, GoldenMinute, Nominate, Phase, Role, Shot, Visit, Withdraw
from engine.roles import BLACK_ROLES
from host_device.runtime.free_timers import AGREEMENT
from host_device.runtime.host_messages import HostMessages
from host_device.runtime.loop import Runtime
from host_device.runtime.role_entry import ROLE_NAMES


class SeatCommands:
    def __init__(
        self,
        runtime: Runtime,
        messages: HostMessages,
        timers: list[tuple[str, int]],  # the free timers' menu
        show_roles: Callable[[], bool],  # the host view: a check's answer is shown to him
    ) -> None:
        self.runtime, self.messages, self.timers, self.show_roles = runtime, messages, timers, show_roles
        self.say, self._handle = messages.say, messages.handle

    @property
    def game(self) -> Game:
        return self.runtime.game  # replaced by an undo

    def run(self, command: str, seat: int) -> bool:
        """The host's command ``command`` (a key that waits for a seat) completed with ``seat``."""
        do: dict[str, Callable[[int], bool]] = {
            "foul": self._foul_seat,
            "nominate": self._nominate_seat,
            "withdraw": self._withdraw_seat,
            "kill": self._kill_seat,
            "check": self._check_seat,
            "heal": lambda seat: self._visit_as(Role.DOCTOR, seat),
            "visit": lambda seat: self._visit_as(Role.LOVER, seat),
            "golden": lambda seat: self._handle(GoldenMinute(seat=seat)),
        }
        return do[command](seat)

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
        if self.show_roles():
            self.say(f"проверка: игрок {seat} — {ROLE_NAMES[s.role(seat)]}")
        else:
            self.say(f"проверка игрока {seat} записана")
        return True

    def _visit_as(self, role: Role, seat: int) -> bool:
        s = self.game.state
        visitor = next(p for p in s.alive() if s.role(p) is role)  # legal only while one lives
        return self._handle(Visit(seat=visitor, target=seat))

    def timer_choice(self, number: int) -> bool:
        if number == 0:
            if not self.runtime.free.stop():
                self.say("таймер не идёт")
                return False
            self.say("таймер остановлен")
            return True
        if not 1 <= number <= len(self.timers):
            self.say(f"таймера {number} нет: 1…{len(self.timers)}, 0 — стоп")
            return False
        label, seconds = self.timers[number - 1]
        if label == AGREEMENT:
            self.runtime.free.start(seconds, "agreement", seconds=seconds)
        else:
            self.runtime.free.start(seconds)
        self.say(f"таймер: {label}")
        return True
