"""The deal, the introduction night, the night's steps and the morning after."""

from engine.outputs import (
    CheckMade,
    LifeSaved,
    RoleRevealed,
    Say,
    ShowCheck,
    VisitMade,
)
from engine.roles import BLACK_ROLES, Role
from engine.rules import Rules
from engine.state import Phase


class Night(Rules):
    def deal(self) -> None:
        """After the roles: the introductions (003's «День спокойствия») or the introduction night."""
        if self.preset.intro_speech_seconds is None:
            self.start_intro()
            return
        self.emit(Say(phrase="calm_day"))
        self.s.queue = list(range(1, self.s.seats + 1))
        self.next_intro_speaker()

    def next_intro_speaker(self) -> None:
        s = self.s
        if s.queue:
            self.give_floor(Phase.INTRO_SPEECH, s.queue.pop(0))
        else:
            s.speaker = None
            self.start_intro()

    def start_intro(self) -> None:
        self.emit(self.say("night_falls"))
        self.enter(Phase.INTRO_MAFIA)

    def intro_meeting(self, index: int) -> None:
        if index < len(self.preset.intro_meetings):
            role = self.preset.intro_meetings[index]
            self.s.step_role = role
            self.enter(Phase.INTRO_MEET, role=role)
        else:
            self.s.step_role = None
            self.begin_day(killed=None)

    def start_night(self) -> None:
        s = self.s
        s.vote_round, s.speaker, s.tied, s.queue = None, None, (), []
        s.shots, s.checked, s.visited = [], [], []
        self.emit(self.say("night_falls"))
        self.enter(Phase.NIGHT_HUNT)

    def night_step(self, index: int) -> None:
        if index < len(self.preset.checks):
            role = self.preset.checks[index].checker
            self.s.step_role = role
            self.enter(Phase.NIGHT_CHECK, role=role)
        else:
            self.visit_step(0)

    def visit_step(self, index: int) -> None:
        if index < len(self.preset.visits):
            role = self.preset.visits[index]
            self.s.step_role = role
            self.enter(Phase.NIGHT_VISIT, role=role)
        else:
            self.s.step_role = None
            self.end_night()

    def night_visit(self, seat: int, target: int) -> None:
        """The Doctor's heal or the Lover's visit: himself once per game, never
        the same player two nights running; a forbidden choice counts for nothing."""
        s = self.s
        role = s.step_role
        assert role is not None
        if s.role(seat) is not role or role in s.visited:
            return  # not the woken role, or its second press: no effect
        s.visited.append(role)
        ignored = None
        if target == seat and any(r is role and t == seat for _, r, t in s.visits):
            ignored = "self_again"
        elif any(night == s.day - 1 and r is role and t == target for night, r, t in s.visits):
            ignored = "same_as_last_night"
        else:
            s.visits.append((s.day, role, target))
        self.emit(VisitMade(night=s.day, by=role, seat=seat, target=target, ignored=ignored))

    def night_check(self, seat: int, target: int) -> None:
        s = self.s
        role = s.step_role
        if s.role(seat) is not role or role in s.checked:
            return  # not the checker, or his second press: no effect
        rule = next(rule for rule in self.preset.checks if rule.checker is role)
        s.checked.append(role)
        result = s.role(target) in rule.finds
        self.emit(CheckMade(night=s.day, by=role, seat=seat, target=target, result=result))
        self.emit(ShowCheck(seat=seat, result=result))

    def end_night(self) -> None:
        s = self.s
        shooters = frozenset(seat for seat in s.alive() if s.role(seat) in BLACK_ROLES)
        killed = self.preset.kill_rule(s.shots, shooters)
        tonight = {role: target for night, role, target in s.visits if night == s.day}
        saved = killed is not None and tonight.get(Role.DOCTOR) == killed
        if saved:
            assert killed is not None
            self.emit(LifeSaved(night=s.day, seat=killed))
            killed = None
        if Role.LOVER in tonight:
            s.alibi[s.day + 1] = tonight[Role.LOVER]
        if killed is not None:
            self.depart(killed, "shot")
        self.begin_day(killed, saved)

    def begin_day(self, killed: int | None, saved: bool = False) -> None:
        s = self.s
        s.day += 1
        s.nominations, s.candidates, s.vote_cancelled, s.golden_asked = {}, [], False, []
        s.night_killed, s.night_saved = killed, saved
        if killed is not None and self.preset.reveal_role_when_shot:
            s.revealed[killed] = s.role(killed)
            self.emit(RoleRevealed(seat=killed, role=s.role(killed)))
        self.enter(Phase.MORNING)  # the night's news (steps.opening)
        if self.game_ended():
            return
        if (
            killed is not None
            and self.preset.last_word
            and s.role(killed) not in self.preset.no_last_word_when_shot
        ):
            s.last_words = [killed]
        s.last_words_then = Phase.SPEECH
