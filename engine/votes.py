"""The vote: the candidates decided on, the windows, the count, ties and revotes, and who leaves."""

import engine.day as day
import engine.night as night
from engine.outputs import (
    NoVote,
    Say,
    Tie,
    VoteCounted,
)
from engine.presets import NonVoters, SingleCandidate
from engine.state import Phase, RoundKind, VoteRound
from engine.turn import Turn


def no_vote(t: Turn, reason: str) -> None:
    t.emit(NoVote(day=t.s.day, reason=reason))
    if reason != "no_candidates":
        t.emit(Say(phrase=f"no_vote_{reason}"))
    night.start_night(t)


def decide_vote(t: Turn) -> None:
    s, p = t.s, t.preset
    if s.vote_cancelled:
        no_vote(t, "cancelled")
    elif not s.candidates:
        no_vote(t, "no_candidates")
    elif len(s.candidates) == 1 and s.day == 1 and not p.vote_single_candidate_on_day_one:
        no_vote(t, "single_candidate_day_one")
    elif len(s.candidates) == 1 and p.single_candidate_later is SingleCandidate.LEAVES:
        leave_by_vote(t, tuple(s.candidates), phrase="single_candidate_leaves")
    else:
        start_round(t, RoundKind.MAIN, tuple(s.candidates))


def start_round(t: Turn, kind: RoundKind, candidates: tuple[int, ...]) -> None:
    t.s.vote_round = VoteRound(kind=kind, candidates=candidates)
    open_window(t)


def open_window(t: Turn) -> None:
    rnd = t.s.vote_round
    assert rnd is not None
    t.enter(Phase.VOTE, seat=None if rnd.kind is RoundKind.ALL else rnd.current)


def close_window(t: Turn) -> None:
    rnd = t.s.vote_round
    assert rnd is not None
    t.emit(Say(phrase="thank_you"))
    rnd.window += 1
    if rnd.window < rnd.windows:
        open_window(t)
    else:
        resolve_round(t, rnd)


def resolve_round(t: Turn, rnd: VoteRound) -> None:
    s = t.s
    s.vote_round = None
    keys = (0,) if rnd.kind is RoundKind.ALL else rnd.candidates
    voters = {key: tuple(sorted(v for v, c in rnd.ballots.items() if c == key)) for key in keys}
    counts = {key: len(voters[key]) + rnd.tallies.get(key, 0) for key in keys}
    non_voters = len(s.alive()) - rnd.votes
    nobody = None
    if rnd.kind is not RoundKind.ALL and t.preset.non_voters is NonVoters.LAST_CANDIDATE:
        counts[keys[-1]] += non_voters
    elif rnd.kind is not RoundKind.ALL:
        nobody = non_voters  # 003: «не убивать никого этим днём»
    t.emit(
        VoteCounted(
            day=s.day,
            kind=rnd.kind.value,
            counts=tuple(counts.items()),
            voters=tuple(voters.items()),
            nobody=nobody,
        )
    )
    if rnd.kind is RoundKind.ALL:
        votes_for = counts[0]
        t.emit(Say(phrase="all_leave_count", count=votes_for))
        if 2 * votes_for > len(s.alive()):
            leave_by_vote(t, rnd.candidates)
        else:
            t.emit(Say(phrase="all_stay", seats=rnd.candidates))
            night.start_night(t)
        return
    for seat, count in counts.items():
        t.emit(Say(phrase="vote_count", seat=seat, count=count))
    top = max(counts.values())
    if nobody is not None:
        t.emit(Say(phrase="nobody_count", count=nobody))
        if nobody >= top:  # "nobody" ahead, or level with the top: nobody leaves
            no_vote(t, "nobody")
            return
    tied = tuple(seat for seat in rnd.candidates if counts[seat] == top)
    if len(tied) == 1:
        leave_by_vote(t, tied)
        return
    t.emit(Tie(day=s.day, seats=tied))
    p = t.preset
    if rnd.kind is RoundKind.REVOTE and p.revote_tie_nobody_leaves:
        no_vote(t, "tie_again")
        return
    if p.tie_speeches_for_two_only and len(rnd.candidates) > 2:  # 003: a revote among the tied at once
        t.emit(Say(phrase="tie_revote", seats=tied))
        start_round(t, RoundKind.REVOTE, tied)
        return
    repeat = p.tie_repeat_when_set_changes and tied != rnd.candidates
    if rnd.kind is RoundKind.MAIN or repeat:
        s.tied = tied
        s.queue = list(tied)
        t.emit(Say(phrase="tie", seats=tied))
        next_tie_speaker(t)
    else:
        t.emit(Say(phrase="tie_repeated"))
        start_round(t, RoundKind.ALL, tied)


def next_tie_speaker(t: Turn) -> None:
    s = t.s
    if s.queue:
        t.give_floor(Phase.TIE_SPEECH, s.queue.pop(0))
    else:
        s.speaker = None
        start_round(t, RoundKind.REVOTE, s.tied)


def leave_by_vote(t: Turn, seats: tuple[int, ...], phrase: str = "leaves") -> None:
    s = t.s
    s.vote_round, s.tied = None, ()
    for seat in seats:
        t.depart(seat, "vote")
        t.emit(Say(phrase=phrase, seat=seat))
    if t.game_ended():
        return
    if not t.preset.last_word:
        night.start_night(t)
        return
    s.last_words = list(seats)
    s.last_words_then = Phase.NIGHT_HUNT
    day.next_last_word(t)
