"""The rules as one state machine: an input checked (``checks``), then
carried out by the part of the rules it belongs to — the night (``night``),
the day (``day``), the vote (``votes``), fouls (``fouls``) — over one
:class:`engine.turn.Turn`; every step is entered through the table of steps
(``steps``), and a step's end (:class:`Advance`) is dispatched here alone.

:func:`apply` works on the state it is given: :class:`engine.game.Game`
hands it a copy, so an input that fails leaves the game as it was.
"""

from __future__ import annotations

import engine.day as day
import engine.fouls as fouls
import engine.night as night
import engine.votes as votes
from engine.checks import check
from engine.inputs import (
    Advance,
    BestMove,
    Check,
    DealRoles,
    Foul,
    GoldenMinute,
    Input,
    Nominate,
    Shot,
    Tally,
    Visit,
    Vote,
    Withdraw,
)
from engine.outputs import (
    BestMoveMade,
    GoldenMinuteTaken,
    NominationWithdrawn,
    Output,
    Say,
    StopTimer,
    VoteTaken,
)
from engine.presets import Preset
from engine.roles import Role
from engine.state import Phase, State
from engine.turn import Turn


def apply(preset: Preset, state: State, inp: Input) -> list[Output]:
    """Check ``inp`` and carry it out on ``state``; returns what happened."""
    check(preset, state, inp)
    t = Turn(preset, state)
    s = state
    match inp:
        case DealRoles(roles=roles):
            s.roles = {seat: role for seat, role in roles if role is not Role.CIVILIAN}
            night.deal(t)
        case Advance():
            advance(t)
        case Nominate(seat=seat, target=target):
            if s.phase is Phase.NOMINATION:
                day.nominate_in_round(t, seat, target)
            else:
                day.nominate(t, seat, target)
        case Withdraw(seat=seat, target=target):
            del s.nominations[seat]
            s.candidates.remove(target)
            t.emit(NominationWithdrawn(day=s.day, seat=seat, target=target))
            t.emit(Say(phrase="accepted", seat=target))
        case Vote(seat=seat):
            rnd = s.vote_round
            assert rnd is not None
            rnd.ballots[seat] = rnd.current
            t.emit(VoteTaken(seat=seat, candidate=rnd.current or None))
        case Tally(count=count):
            assert s.vote_round is not None
            s.vote_round.tallies[s.vote_round.current] = count
            votes.close_window(t)
        case Foul(seat=seat, by=by, word=word):
            fouls.foul(t, seat, by, word)
        case Shot(seat=seat, target=target):
            night.shot(t, seat, target)
        case GoldenMinute(seat=seat):
            s.golden_asked.append(seat)
            t.emit(GoldenMinuteTaken(day=s.day, seat=seat))
            if s.phase is Phase.GOLDEN_ASK:  # asked during his justification: said when it ends
                t.emit(Say(phrase="golden_taken", seat=seat))
        case Visit(seat=seat, target=target):
            night.night_visit(t, seat, target)
        case BestMove(seat=seat, seats=named):  # a second statement replaces the first
            s.best_move_seat, s.best_move = seat, named
            t.emit(BestMoveMade(night=s.day - 1, seat=seat, seats=named))
            t.emit(Say(phrase="best_move_accepted", seats=named))
        case _:
            assert isinstance(inp, Check)
            night.night_check(t, inp.seat, inp.target)
    return t.out


def advance(t: Turn) -> None:
    """The step is over: what comes after it."""
    s, p = t.s, t.preset
    match s.phase:
        case Phase.INTRO_SPEECH:
            t.emit(StopTimer())
            night.next_intro_speaker(t)
        case Phase.INTRO_MAFIA:
            t.emit(StopTimer(), Say(phrase="mafia_sleeps" if p.mafia_agree_on_intro else "mafia_met"))
            night.intro_meeting(t, 0)
        case Phase.INTRO_MEET:
            assert s.step_role is not None
            t.emit(Say(phrase="role_sleeps", role=s.step_role))
            night.intro_meeting(t, p.intro_meetings.index(s.step_role) + 1)
        case Phase.MORNING:
            day.next_last_word(t)
        case Phase.LAST_WORD:
            t.emit(StopTimer())
            day.next_last_word(t)
        case Phase.SPEECH:
            t.emit(StopTimer())
            day.next_speaker(t)
        case Phase.DISCUSSION:
            t.emit(StopTimer())
            s.queue = day.day_order(t)
            day.next_caller(t)
        case Phase.NOMINATION:
            t.emit(StopTimer())
            day.next_caller(t)
        case Phase.JUSTIFICATION:
            t.emit(StopTimer())
            if s.speaker in s.golden_asked:  # not said over his own words
                t.emit(Say(phrase="golden_taken", seat=s.speaker))
            day.next_justification(t)
        case Phase.GOLDEN_ASK:
            t.emit(StopTimer())
            day.start_golden_minutes(t)
        case Phase.GOLDEN_MINUTE:
            t.emit(StopTimer())
            day.next_golden(t)
        case Phase.VOTE_ANNOUNCE:
            votes.decide_vote(t)
        case Phase.VOTE:
            votes.close_window(t)
        case Phase.TIE_SPEECH:
            t.emit(StopTimer())
            votes.next_tie_speaker(t)
        case Phase.NIGHT_HUNT:
            t.emit(t.say("mafia_sleeps"))
            night.night_step(t, 0)
        case Phase.NIGHT_VISIT:
            assert s.step_role is not None
            t.emit(t.say("role_sleeps", role=s.step_role))
            night.visit_step(t, p.visits.index(s.step_role) + 1)
        case _:
            assert s.phase is Phase.NIGHT_CHECK and s.step_role is not None
            t.emit(t.say("role_sleeps", role=s.step_role))
            night.night_step(t, [rule.checker for rule in p.checks].index(s.step_role) + 1)
