"""The vote: the candidates named, the windows, the count, ties and revotes, and who leaves."""

from engine.outputs import (
    NoVote,
    Say,
    SpeechesEnded,
    Tie,
    VoteCounted,
)
from engine.presets import NonVoters, SingleCandidate
from engine.rules import Rules
from engine.state import Phase, RoundKind, VoteRound


class Votes(Rules):
    def announce_vote(self) -> None:
        s = self.s
        self.emit(SpeechesEnded(day=s.day, candidates=tuple(s.candidates)))
        self.enter(Phase.VOTE_ANNOUNCE)

    def no_vote(self, reason: str) -> None:
        self.emit(NoVote(day=self.s.day, reason=reason))
        if reason != "no_candidates":
            self.emit(Say(phrase=f"no_vote_{reason}"))
        self.start_night()

    def decide_vote(self) -> None:
        s, p = self.s, self.preset
        if s.vote_cancelled:
            self.no_vote("cancelled")
        elif not s.candidates:
            self.no_vote("no_candidates")
        elif len(s.candidates) == 1 and s.day == 1 and not p.vote_single_candidate_on_day_one:
            self.no_vote("single_candidate_day_one")
        elif len(s.candidates) == 1 and p.single_candidate_later is SingleCandidate.LEAVES:
            self.leave_by_vote(tuple(s.candidates), phrase="single_candidate_leaves")
        else:
            self.start_round(RoundKind.MAIN, tuple(s.candidates))

    def start_round(self, kind: RoundKind, candidates: tuple[int, ...]) -> None:
        self.s.vote_round = VoteRound(kind=kind, candidates=candidates)
        self.open_window()

    def open_window(self) -> None:
        rnd = self.s.vote_round
        assert rnd is not None
        self.enter(Phase.VOTE, seat=None if rnd.kind is RoundKind.ALL else rnd.current)

    def close_window(self) -> None:
        rnd = self.s.vote_round
        assert rnd is not None
        self.emit(Say(phrase="thank_you"))
        rnd.window += 1
        if rnd.window < rnd.windows:
            self.open_window()
        else:
            self.resolve_round(rnd)

    def resolve_round(self, rnd: VoteRound) -> None:
        s = self.s
        s.vote_round = None
        keys = (0,) if rnd.kind is RoundKind.ALL else rnd.candidates
        voters = {key: tuple(sorted(v for v, c in rnd.ballots.items() if c == key)) for key in keys}
        counts = {key: len(voters[key]) + rnd.tallies.get(key, 0) for key in keys}
        non_voters = len(s.alive()) - rnd.votes
        nobody = None
        if rnd.kind is not RoundKind.ALL and self.preset.non_voters is NonVoters.LAST_CANDIDATE:
            counts[keys[-1]] += non_voters
        elif rnd.kind is not RoundKind.ALL:
            nobody = non_voters  # 003: «не убивать никого этим днём»
        self.emit(
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
            self.emit(Say(phrase="all_leave_count", count=votes_for))
            if 2 * votes_for > len(s.alive()):
                self.leave_by_vote(rnd.candidates)
            else:
                self.emit(Say(phrase="all_stay", seats=rnd.candidates))
                self.start_night()
            return
        for seat, count in counts.items():
            self.emit(Say(phrase="vote_count", seat=seat, count=count))
        top = max(counts.values())
        if nobody is not None:
            self.emit(Say(phrase="nobody_count", count=nobody))
            if nobody >= top:  # "nobody" ahead, or level with the top: nobody leaves
                self.no_vote("nobody")
                return
        tied = tuple(seat for seat in rnd.candidates if counts[seat] == top)
        if len(tied) == 1:
            self.leave_by_vote(tied)
            return
        self.emit(Tie(day=s.day, seats=tied))
        p = self.preset
        if rnd.kind is RoundKind.REVOTE and p.revote_tie_nobody_leaves:
            self.no_vote("tie_again")
            return
        if p.tie_speeches_for_two_only and len(rnd.candidates) > 2:  # 003: a revote among the tied at once
            self.emit(Say(phrase="tie_revote", seats=tied))
            self.start_round(RoundKind.REVOTE, tied)
            return
        repeat = self.preset.tie_repeat_when_set_changes and tied != rnd.candidates
        if rnd.kind is RoundKind.MAIN or repeat:
            s.tied = tied
            s.queue = list(tied)
            self.emit(Say(phrase="tie", seats=tied))
            self.next_tie_speaker()
        else:
            self.emit(Say(phrase="tie_repeated"))
            self.start_round(RoundKind.ALL, tied)

    def next_tie_speaker(self) -> None:
        s = self.s
        if s.queue:
            self.give_floor(Phase.TIE_SPEECH, s.queue.pop(0))
        else:
            s.speaker = None
            self.start_round(RoundKind.REVOTE, s.tied)

    def leave_by_vote(self, seats: tuple[int, ...], phrase: str = "leaves") -> None:
        s = self.s
        s.vote_round, s.tied = None, ()
        for seat in seats:
            self.depart(seat, "vote")
            self.emit(Say(phrase=phrase, seat=seat))
        if self.game_ended():
            return
        if not self.preset.last_word:
            self.start_night()
            return
        s.last_words = list(seats)
        s.last_words_then = Phase.NIGHT_HUNT
        self.next_last_word()
