"""The rules as one state machine, made of its parts: the checks
(``checks``), the night (``night``), the day (``day``), the vote (``votes``)
and fouls and leaving (``fouls``); every step is entered through the table
of steps (``steps``).

``check`` validates an input without touching the state; ``apply`` carries it
out and returns what happened. :class:`engine.game.Game` runs ``apply`` on a
copy, so an input that fails leaves the game as it was.
"""

from __future__ import annotations

from engine.checks import Checks
from engine.day import Day
from engine.fouls import Fouls
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
from engine.night import Night
from engine.outputs import (
    BestMoveMade,
    GoldenMinuteTaken,
    NominationWithdrawn,
    Output,
    Say,
    ShotTaken,
    StopTimer,
    VoteTaken,
)
from engine.roles import BLACK_ROLES, Role
from engine.state import Phase
from engine.votes import Votes


class Machine(Checks, Night, Day, Votes, Fouls):
    """The whole rules: the checks and each part of the game, with the one
    dispatch of inputs (:meth:`apply`) and of step ends (:meth:`advance`)."""

    def apply(self, inp: Input) -> list[Output]:
        self.check(inp)
        match inp:
            case DealRoles(roles=roles):
                self.s.roles = {seat: role for seat, role in roles if role is not Role.CIVILIAN}
                self.deal()
            case Advance():
                self.advance()
            case Nominate(seat=seat, target=target):
                if self.s.phase is Phase.NOMINATION:
                    self.nominate_in_round(seat, target)
                else:
                    self.nominate(seat, target)
            case Withdraw(seat=seat, target=target):
                del self.s.nominations[seat]
                self.s.candidates.remove(target)
                self.emit(NominationWithdrawn(day=self.s.day, seat=seat, target=target))
                self.emit(Say(phrase="accepted", seat=target))
            case Vote(seat=seat):
                assert self.s.vote_round is not None
                rnd = self.s.vote_round
                rnd.ballots[seat] = rnd.current
                self.emit(VoteTaken(seat=seat, candidate=rnd.current or None))
            case Tally(count=count):
                assert self.s.vote_round is not None
                self.s.vote_round.tallies[self.s.vote_round.current] = count
                self.close_window()
            case Foul(seat=seat):
                self.foul(seat)
            case Shot(seat=seat, target=target):
                if self.s.role(seat) in BLACK_ROLES:
                    self.s.shots.append((seat, target))
                    self.emit(ShotTaken(night=self.s.day, seat=seat, target=target))
            case GoldenMinute(seat=seat):
                self.s.golden_asked.append(seat)
                self.emit(GoldenMinuteTaken(day=self.s.day, seat=seat))
                if self.s.phase is Phase.GOLDEN_ASK:  # asked during his justification: said when it ends
                    self.emit(Say(phrase="golden_taken", seat=seat))
            case Visit(seat=seat, target=target):
                self.night_visit(seat, target)
            case BestMove(seat=seat, seats=named):  # a second statement replaces the first
                self.s.best_move_seat, self.s.best_move = seat, named
                self.emit(BestMoveMade(night=self.s.day - 1, seat=seat, seats=named))
                self.emit(Say(phrase="best_move_accepted", seats=named))
            case _:
                assert isinstance(inp, Check)
                self.night_check(inp.seat, inp.target)
        return self.out

    def advance(self) -> None:
        s = self.s
        match s.phase:
            case Phase.INTRO_SPEECH:
                self.emit(StopTimer())
                self.next_intro_speaker()
            case Phase.INTRO_MAFIA:
                met = "mafia_sleeps" if self.preset.mafia_agree_on_intro else "mafia_met"
                self.emit(StopTimer(), Say(phrase=met))
                self.intro_meeting(0)
            case Phase.INTRO_MEET:
                assert s.step_role is not None
                self.emit(Say(phrase="role_sleeps", role=s.step_role))
                self.intro_meeting(self.preset.intro_meetings.index(s.step_role) + 1)
            case Phase.MORNING:
                self.next_last_word()
            case Phase.LAST_WORD:
                self.emit(StopTimer())
                self.next_last_word()
            case Phase.SPEECH:
                self.emit(StopTimer())
                self.next_speaker()
            case Phase.DISCUSSION:
                self.emit(StopTimer())
                s.queue = self.day_order()
                self.next_caller()
            case Phase.NOMINATION:
                self.emit(StopTimer())
                self.next_caller()
            case Phase.JUSTIFICATION:
                self.emit(StopTimer())
                if s.speaker in s.golden_asked:  # not said over his own words
                    self.emit(Say(phrase="golden_taken", seat=s.speaker))
                self.next_justification()
            case Phase.GOLDEN_ASK:
                self.emit(StopTimer())
                self.start_golden_minutes()
            case Phase.GOLDEN_MINUTE:
                self.emit(StopTimer())
                self.next_golden()
            case Phase.VOTE_ANNOUNCE:
                self.decide_vote()
            case Phase.VOTE:
                self.close_window()
            case Phase.TIE_SPEECH:
                self.emit(StopTimer())
                self.next_tie_speaker()
            case Phase.NIGHT_HUNT:
                self.emit(self.say("mafia_sleeps"))
                self.night_step(0)
            case Phase.NIGHT_VISIT:
                assert s.step_role is not None
                self.emit(self.say("role_sleeps", role=s.step_role))
                self.visit_step(self.preset.visits.index(s.step_role) + 1)
            case _:
                assert s.phase is Phase.NIGHT_CHECK and s.step_role is not None
                self.emit(self.say("role_sleeps", role=s.step_role))
                roles = [rule.checker for rule in self.preset.checks]
                self.night_step(roles.index(s.step_role) + 1)
