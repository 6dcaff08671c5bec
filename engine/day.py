"""The day's speeches and nominations (and the city's round, justifications
and golden minutes), up to the vote's announcement."""

import engine.night as night
from engine.outputs import (
    AlibiRefused,
    NamedOutOfGame,
    NominationAccepted,
    Say,
    SpeechesEnded,
    SpeechSkipped,
    StopTimer,
)
from engine.presets import DayFormat
from engine.state import Phase
from engine.turn import Turn


def next_last_word(t: Turn) -> None:
    s = t.s
    if s.last_words:
        t.give_floor(Phase.LAST_WORD, s.last_words.pop(0))
    elif s.last_words_then is Phase.SPEECH:
        s.speaker = None
        start_speeches(t)
    else:
        night.start_night(t)


def day_order(t: Turn) -> list[int]:
    """The living seats from the day's opener: day 1 opens at the first
    living seat from 1, each later day at the next living seat after the
    player who actually spoke first the day before (000: «со следующего,
    после говорившего первым в предыдущем круге игрока»); a silenced seat
    due to open does not count (see :func:`first_turn`)."""
    s = t.s
    alive = s.alive()
    after = s.opener or 0
    opener = next((seat for seat in alive if seat > after), alive[0])
    at = alive.index(opener)
    return alive[at:] + alive[:at]


def first_turn(t: Turn, seat: int) -> None:
    """A day's speech or round turn given: the first one given today is
    the day's opener, whom the next day's order follows. A day where
    nobody spoke leaves the previous opener."""
    s = t.s
    if s.opener_day != s.day:
        s.opener, s.opener_day = seat, s.day


def start_speeches(t: Turn) -> None:
    if t.preset.day_format is DayFormat.DISCUSSION:
        t.enter(Phase.DISCUSSION)
        return
    t.s.queue = day_order(t)
    next_speaker(t)


def next_speaker(t: Turn) -> None:
    s = t.s
    while s.queue:
        seat = s.queue.pop(0)
        if s.silenced.get(seat) == s.day:
            t.emit(SpeechSkipped(day=s.day, seat=seat), Say(phrase="speech_skipped", seat=seat))
            continue
        first_turn(t, seat)
        t.give_floor(Phase.SPEECH, seat)
        return
    s.speaker = None
    announce_vote(t)


def announce_vote(t: Turn) -> None:
    """The day's speeches are over: the candidates are named."""
    t.emit(SpeechesEnded(day=t.s.day, candidates=tuple(t.s.candidates)))
    t.enter(Phase.VOTE_ANNOUNCE)


def nominate(t: Turn, seat: int, target: int) -> None:
    s = t.s
    previous = s.nominations.get(seat)
    if previous != target:
        if previous is not None:
            s.candidates.remove(previous)
        s.nominations[seat] = target
        s.candidates.append(target)
        t.emit(NominationAccepted(day=s.day, seat=seat, target=target, replaced=previous))
    t.emit(Say(phrase="accepted", seat=target))


def next_caller(t: Turn) -> None:
    """The nomination round: each living player in turn from the day's opener names his candidate."""
    s = t.s
    if s.queue:
        seat = s.queue.pop(0)
        first_turn(t, seat)
        t.give_floor(Phase.NOMINATION, seat)
        return
    s.speaker = None
    if not s.candidates:
        announce_vote(t)
        return
    s.queue = list(s.candidates)
    next_justification(t)


def nominate_in_round(t: Turn, seat: int, target: int) -> None:
    s = t.s
    if s.alibi.get(s.day) == target:  # the caller may name another
        t.emit(AlibiRefused(day=s.day, seat=seat, target=target), Say(phrase="alibi", seat=target))
        return
    if target in s.out:  # told, as a host would, so that the caller names another
        t.emit(NamedOutOfGame(day=s.day, seat=seat, target=target), Say(phrase="named_out", seat=target))
        return
    nominate(t, seat, target)
    t.emit(StopTimer())
    next_caller(t)


def next_justification(t: Turn) -> None:
    s = t.s
    if s.queue:
        t.give_floor(Phase.JUSTIFICATION, s.queue.pop(0))
        return
    s.speaker = None
    can_ask = [c for c in s.candidates if c not in s.golden_used and c not in s.golden_asked]
    if t.preset.golden_minute_seconds is None or not can_ask:
        start_golden_minutes(t)
        return
    t.enter(Phase.GOLDEN_ASK)


def start_golden_minutes(t: Turn) -> None:
    s = t.s
    s.queue = [seat for seat in s.candidates if seat in s.golden_asked]
    next_golden(t)


def next_golden(t: Turn) -> None:
    s = t.s
    if s.queue:
        seat = s.queue.pop(0)
        s.golden_used.append(seat)
        t.give_floor(Phase.GOLDEN_MINUTE, seat)
        return
    s.speaker = None
    announce_vote(t)
