"""The deal, the introduction night, the night's steps and the morning after."""

from engine.outputs import (
    CheckMade,
    LifeSaved,
    RoleRevealed,
    Say,
    ShotTaken,
    ShowCheck,
    VisitMade,
)
from engine.roles import BLACK_ROLES, Role
from engine.state import Phase
from engine.turn import Turn


def deal(t: Turn) -> None:
    """After the roles: the introductions (003's «День спокойствия») or the introduction night."""
    if t.preset.intro_speech_seconds is None:
        start_intro(t)
        return
    t.emit(Say(phrase="calm_day"))
    t.s.queue = list(range(1, t.s.seats + 1))
    next_intro_speaker(t)


def next_intro_speaker(t: Turn) -> None:
    s = t.s
    if s.queue:
        t.give_floor(Phase.INTRO_SPEECH, s.queue.pop(0))
    else:
        s.speaker = None
        start_intro(t)


def start_intro(t: Turn) -> None:
    t.emit(t.say("night_falls"))
    t.enter(Phase.INTRO_MAFIA)


def intro_meeting(t: Turn, index: int) -> None:
    if index < len(t.preset.intro_meetings):
        role = t.preset.intro_meetings[index]
        t.s.step_role = role
        t.enter(Phase.INTRO_MEET, role=role)
    else:
        t.s.step_role = None
        begin_day(t, killed=None)


def start_night(t: Turn) -> None:
    s = t.s
    s.vote_round, s.speaker, s.tied, s.queue = None, None, (), []
    s.shots, s.checked, s.visited = [], [], []
    t.emit(t.say("night_falls"))
    t.enter(Phase.NIGHT_HUNT)


def night_step(t: Turn, index: int) -> None:
    if index < len(t.preset.checks):
        role = t.preset.checks[index].checker
        t.s.step_role = role
        t.enter(Phase.NIGHT_CHECK, role=role)
    else:
        visit_step(t, 0)


def visit_step(t: Turn, index: int) -> None:
    if index < len(t.preset.visits):
        role = t.preset.visits[index]
        t.s.step_role = role
        t.enter(Phase.NIGHT_VISIT, role=role)
    else:
        t.s.step_role = None
        end_night(t)


def shot(t: Turn, seat: int, target: int) -> None:
    """A press at a called number while the mafia hunts: counted only if it is a black player's."""
    if t.s.role(seat) in BLACK_ROLES:
        t.s.shots.append((seat, target))
        t.emit(ShotTaken(night=t.s.day, seat=seat, target=target))


def night_visit(t: Turn, seat: int, target: int) -> None:
    """The Doctor's heal or the Lover's visit: himself once per game, never
    the same player two nights running; a forbidden choice counts for nothing."""
    s = t.s
    role = s.step_role
    assert role is not None
    if s.role(seat) is not role or role in s.visited:
        return  # not the woken role, or its second press: no effect
    s.visited.append(role)
    ignored = None
    if target == seat and any(r is role and was == seat for _, r, was in s.visits):
        ignored = "self_again"
    elif any(night == s.day - 1 and r is role and was == target for night, r, was in s.visits):
        ignored = "same_as_last_night"
    else:
        s.visits.append((s.day, role, target))
    t.emit(VisitMade(night=s.day, by=role, seat=seat, target=target, ignored=ignored))


def night_check(t: Turn, seat: int, target: int) -> None:
    s = t.s
    role = s.step_role
    if s.role(seat) is not role or role in s.checked:
        return  # not the checker, or his second press: no effect
    rule = next(rule for rule in t.preset.checks if rule.checker is role)
    s.checked.append(role)
    result = s.role(target) in rule.finds
    t.emit(CheckMade(night=s.day, by=role, seat=seat, target=target, result=result))
    t.emit(ShowCheck(seat=seat, result=result))


def end_night(t: Turn) -> None:
    s = t.s
    shooters = frozenset(seat for seat in s.alive() if s.role(seat) in BLACK_ROLES)
    killed = t.preset.kill_rule(s.shots, shooters)
    tonight = {role: target for night, role, target in s.visits if night == s.day}
    saved = killed is not None and tonight.get(Role.DOCTOR) == killed
    if saved:
        assert killed is not None
        t.emit(LifeSaved(night=s.day, seat=killed))
        killed = None
    if Role.LOVER in tonight:
        s.alibi[s.day + 1] = tonight[Role.LOVER]
    if killed is not None:
        t.depart(killed, "shot")
    begin_day(t, killed, saved)


def begin_day(t: Turn, killed: int | None, saved: bool = False) -> None:
    s = t.s
    s.day += 1
    s.nominations, s.candidates, s.vote_cancelled, s.golden_asked = {}, [], False, []
    s.night_killed, s.night_saved = killed, saved
    if killed is not None and t.preset.reveal_role_when_shot:
        s.revealed[killed] = s.role(killed)
        t.emit(RoleRevealed(seat=killed, role=s.role(killed)))
    t.enter(Phase.MORNING)  # the night's news (steps.opening)
    if t.game_ended():
        return
    if killed is not None and t.preset.last_word and s.role(killed) not in t.preset.no_last_word_when_shot:
        s.last_words = [killed]
    s.last_words_then = Phase.SPEECH
