"""The day's speeches and nominations (and the city's round, justifications and golden minutes)."""

from engine.outputs import (
    AlibiRefused,
    NamedOutOfGame,
    NominationAccepted,
    Say,
    SpeechSkipped,
    StopTimer,
)
from engine.presets import DayFormat
from engine.rules import Rules
from engine.state import Phase


class Day(Rules):
    def give_floor(self, phase: Phase, seat: int) -> None:
        """A timed speech (day speech, tie speech, last word): name the
        speaker and start the timer. The phrase and the timer are named after
        the phase."""
        self.s.speaker = seat
        self.enter(phase, seat=seat)

    def next_last_word(self) -> None:
        s = self.s
        if s.last_words:
            self.give_floor(Phase.LAST_WORD, s.last_words.pop(0))
        elif s.last_words_then is Phase.SPEECH:
            s.speaker = None
            self.start_speeches()
        else:
            self.start_night()

    def day_order(self) -> list[int]:
        """The living seats from the day's opener: day 1 opens at the first
        living seat from 1, each later day at the next living seat after the
        player who actually spoke first the day before (000: «со следующего,
        после говорившего первым в предыдущем круге игрока»); a silenced seat
        due to open does not count (see :meth:`first_turn`)."""
        s = self.s
        alive = s.alive()
        after = s.opener or 0
        opener = next((seat for seat in alive if seat > after), alive[0])
        at = alive.index(opener)
        return alive[at:] + alive[:at]

    def first_turn(self, seat: int) -> None:
        """A day's speech or round turn given: the first one given today is
        the day's opener, whom the next day's order follows. A day where
        nobody spoke leaves the previous opener."""
        s = self.s
        if s.opener_day != s.day:
            s.opener, s.opener_day = seat, s.day

    def start_speeches(self) -> None:
        s = self.s
        if self.preset.day_format is DayFormat.DISCUSSION:
            self.enter(Phase.DISCUSSION)
            return
        s.queue = self.day_order()
        self.next_speaker()

    def next_speaker(self) -> None:
        s = self.s
        while s.queue:
            seat = s.queue.pop(0)
            if s.silenced.get(seat) == s.day:
                self.emit(SpeechSkipped(day=s.day, seat=seat), Say(phrase="speech_skipped", seat=seat))
                continue
            self.first_turn(seat)
            self.give_floor(Phase.SPEECH, seat)
            return
        s.speaker = None
        self.announce_vote()

    def nominate(self, seat: int, target: int) -> None:
        s = self.s
        previous = s.nominations.get(seat)
        if previous != target:
            if previous is not None:
                s.candidates.remove(previous)
            s.nominations[seat] = target
            s.candidates.append(target)
            self.emit(NominationAccepted(day=s.day, seat=seat, target=target, replaced=previous))
        self.emit(Say(phrase="accepted", seat=target))

    def next_caller(self) -> None:
        """The nomination round: each living player in turn from the day's opener names his candidate."""
        s = self.s
        if s.queue:
            seat = s.queue.pop(0)
            self.first_turn(seat)
            self.give_floor(Phase.NOMINATION, seat)
            return
        s.speaker = None
        if not s.candidates:
            self.announce_vote()
            return
        s.queue = list(s.candidates)
        self.next_justification()

    def nominate_in_round(self, seat: int, target: int) -> None:
        s = self.s
        if s.alibi.get(s.day) == target:  # the caller may name another
            self.emit(AlibiRefused(day=s.day, seat=seat, target=target), Say(phrase="alibi", seat=target))
            return
        if target in s.out:  # told, as a host would, so that the caller names another
            self.emit(
                NamedOutOfGame(day=s.day, seat=seat, target=target), Say(phrase="named_out", seat=target)
            )
            return
        self.nominate(seat, target)
        self.emit(StopTimer())
        self.next_caller()

    def next_justification(self) -> None:
        s = self.s
        if s.queue:
            self.give_floor(Phase.JUSTIFICATION, s.queue.pop(0))
            return
        s.speaker = None
        can_ask = [c for c in s.candidates if c not in s.golden_used and c not in s.golden_asked]
        if self.preset.golden_minute_seconds is None or not can_ask:
            self.start_golden_minutes()
            return
        self.enter(Phase.GOLDEN_ASK)

    def start_golden_minutes(self) -> None:
        s = self.s
        s.queue = [seat for seat in s.candidates if seat in s.golden_asked]
        self.next_golden()

    def next_golden(self) -> None:
        s = self.s
        if s.queue:
            seat = s.queue.pop(0)
            s.golden_used.append(seat)
            self.give_floor(Phase.GOLDEN_MINUTE, seat)
            return
        s.speaker = None
        self.announce_vote()
