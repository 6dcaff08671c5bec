"""Fouls and disqualification (a player leaving the game mid-day)."""

import engine.day as day
import engine.votes as votes
from engine.outputs import FoulGiven, Say, Silenced, StopTimer
from engine.state import Phase
from engine.steps import NIGHT
from engine.turn import Turn


def foul(t: Turn, seat: int, by: str = "host", word: str = "") -> None:
    s, p = t.s, t.preset
    count = s.fouls.get(seat, 0) + 1
    s.fouls[seat] = count
    said = Say(phrase="foul_heard", seat=seat, count=count, word=word) if word else None
    t.emit(
        FoulGiven(seat=seat, count=count, by=by, word=word),
        said or Say(phrase="foul", seat=seat, count=count),
    )
    if seat in s.out:  # the speaker of a last word: a 4th foul ends it
        if count >= p.disqualify_at_foul:
            t.emit(StopTimer())
            day.next_last_word(t)
        return
    if count == p.silence_at_foul:
        lost = next_speech_day(t, seat)
        s.silenced[seat] = lost
        t.emit(Silenced(seat=seat, day=lost), Say(phrase="silenced", seat=seat))
    if count >= p.disqualify_at_foul:
        t.emit(Say(phrase="disqualified", seat=seat))
        disqualify(t, seat)


def next_speech_day(t: Turn, seat: int) -> int:
    """The day whose speech a third foul takes: today's if it is still to
    come (it has not started), else the next day's."""
    s = t.s
    if s.phase in NIGHT:
        return s.day + 1
    if s.phase is Phase.MORNING or morning_last_word(t):
        return s.day
    if s.phase is Phase.SPEECH and seat in s.queue:
        return s.day
    return s.day + 1


def morning_last_word(t: Turn) -> bool:
    return t.s.phase is Phase.LAST_WORD and t.s.last_words_then is Phase.SPEECH


def disqualify(t: Turn, seat: int) -> None:
    s, p = t.s, t.preset
    phase = s.phase
    t.depart(seat, "disqualified")
    if seat in s.queue:
        s.queue.remove(seat)
    if t.game_ended():
        return
    day_phases = {Phase.MORNING, Phase.SPEECH, Phase.VOTE_ANNOUNCE, Phase.VOTE, Phase.TIE_SPEECH}
    if phase not in day_phases and not morning_last_word(t):
        return  # at night, or after the day's vote: the vote is not touched
    if p.disqualification_cancels_vote:
        s.vote_cancelled = True
    elif seat in s.candidates:
        s.candidates.remove(seat)
        s.nominations = {k: v for k, v in s.nominations.items() if v != seat}
    if phase is Phase.SPEECH and s.speaker == seat:
        t.emit(StopTimer())
        day.next_speaker(t)
    elif phase in (Phase.VOTE, Phase.TIE_SPEECH):
        if phase is Phase.TIE_SPEECH:
            t.emit(StopTimer())
        s.vote_round, s.speaker, s.tied, s.queue = None, None, (), []
        if p.disqualification_cancels_vote:
            votes.no_vote(t, "cancelled")
        else:  # the vote is run again, from the candidates, without him
            day.announce_vote(t)
