"""Fouls and disqualification, leaving the game, and the winner."""

from engine.outputs import (
    FoulGiven,
    GameEnded,
    PhaseStarted,
    PlayerLeft,
    Say,
    Silenced,
    StopTimer,
)
from engine.roles import BLACK_ROLES, Role, Team
from engine.rules import Rules
from engine.state import Phase
from engine.steps import NIGHT


class Fouls(Rules):
    def foul(self, seat: int) -> None:
        s, p = self.s, self.preset
        count = s.fouls.get(seat, 0) + 1
        s.fouls[seat] = count
        self.emit(FoulGiven(seat=seat, count=count), Say(phrase="foul", seat=seat, count=count))
        if seat in s.out:  # the speaker of a last word: a 4th foul ends it
            if count >= p.disqualify_at_foul:
                self.emit(StopTimer())
                self.next_last_word()
            return
        if count == p.silence_at_foul:
            lost = self.next_speech_day(seat)
            s.silenced[seat] = lost
            self.emit(Silenced(seat=seat, day=lost), Say(phrase="silenced", seat=seat))
        if count >= p.disqualify_at_foul:
            self.emit(Say(phrase="disqualified", seat=seat))
            self.disqualify(seat)

    def next_speech_day(self, seat: int) -> int:
        """The day whose speech a third foul takes: today's if it is still to
        come (it has not started), else the next day's."""
        s = self.s
        if s.phase in NIGHT:
            return s.day + 1
        if s.phase is Phase.MORNING or self.morning_last_word():
            return s.day
        if s.phase is Phase.SPEECH and seat in s.queue:
            return s.day
        return s.day + 1

    def morning_last_word(self) -> bool:
        return self.s.phase is Phase.LAST_WORD and self.s.last_words_then is Phase.SPEECH

    def disqualify(self, seat: int) -> None:
        s, p = self.s, self.preset
        phase = s.phase
        self.depart(seat, "disqualified")
        if seat in s.queue:
            s.queue.remove(seat)
        if self.game_ended():
            return
        day_phases = {Phase.MORNING, Phase.SPEECH, Phase.VOTE_ANNOUNCE, Phase.VOTE, Phase.TIE_SPEECH}
        if phase not in day_phases and not self.morning_last_word():
            return  # at night, or after the day's vote: the vote is not touched
        if p.disqualification_cancels_vote:
            s.vote_cancelled = True
        elif seat in s.candidates:
            s.candidates.remove(seat)
            s.nominations = {k: v for k, v in s.nominations.items() if v != seat}
        if phase is Phase.SPEECH and s.speaker == seat:
            self.emit(StopTimer())
            self.next_speaker()
        elif phase in (Phase.VOTE, Phase.TIE_SPEECH):
            if phase is Phase.TIE_SPEECH:
                self.emit(StopTimer())
            s.vote_round, s.speaker, s.tied, s.queue = None, None, (), []
            if p.disqualification_cancels_vote:
                self.no_vote("cancelled")
            else:  # the vote is run again, from the candidates, without him
                self.announce_vote()

    def depart(self, seat: int, how: str) -> None:
        s = self.s
        s.out.append(seat)
        if s.phase in NIGHT:
            self.emit(PlayerLeft(seat=seat, how=how, night=s.day))
        else:
            self.emit(PlayerLeft(seat=seat, how=how, day=s.day))

    def game_ended(self) -> bool:
        s = self.s
        alive = s.alive()
        black = sum(1 for seat in alive if s.role(seat) in BLACK_ROLES)
        red = len(alive) - black
        if black == 0:
            winner, reason = Team.RED, "no_black_left"
        elif black >= red:
            winner, reason = Team.BLACK, "black_parity"
        else:
            return False
        s.winner = winner
        s.phase = Phase.GAME_OVER
        s.speaker, s.queue, s.last_words, s.vote_round = None, [], [], None
        roles = tuple((seat, s.role(seat)) for seat in range(1, s.seats + 1))
        self.emit(StopTimer())
        self.emit(PhaseStarted(phase=Phase.GAME_OVER.value, day=s.day))
        self.emit(GameEnded(winner=winner, reason=reason, roles=roles))
        self.emit(Say(phrase="winner", team=winner))
        for seat, role in roles:
            if role is not Role.CIVILIAN:
                self.emit(Say(phrase="reveal_role", seat=seat, role=role))
        return True
