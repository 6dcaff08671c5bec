"""The rules as one state machine: every phase transition is in this module.

``check`` validates an input without touching the state; ``apply`` carries it
out and returns what happened. :class:`engine.game.Game` runs ``apply`` on a
copy, so an input that fails leaves the game as it was.
"""

from __future__ import annotations

from collections import Counter

from engine.errors import IllegalInput
from engine.inputs import (
    Advance,
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
    AlibiRefused,
    CheckMade,
    FoulGiven,
    GameEnded,
    GoldenMinuteTaken,
    LifeSaved,
    NominationAccepted,
    NominationWithdrawn,
    NoVote,
    Output,
    PhaseStarted,
    PlayerLeft,
    RoleRevealed,
    Say,
    ShotTaken,
    ShowCheck,
    Silenced,
    SpeechesEnded,
    SpeechSkipped,
    StopTimer,
    Tie,
    VisitMade,
    VoteCounted,
    VoteTaken,
)
from engine.presets import DayFormat, NonVoters, Preset, SingleCandidate
from engine.roles import BLACK_ROLES, Role, Team
from engine.state import Phase, RoundKind, State, VoteRound
from engine.steps import NIGHT, opening


class Machine:
    def __init__(self, preset: Preset, state: State) -> None:
        self.preset = preset
        self.s = state
        self.out: list[Output] = []

    # ------------------------------------------------------------ checking

    def illegal(
        self, code: str, reason: str, seat: int | None = None, **parts: int | str | None
    ) -> IllegalInput:
        return IllegalInput(reason, phase=self.s.phase.value, seat=seat, code=code, parts=parts)

    def seat_in_range(self, seat: int, what: str = "seat") -> None:
        if not 1 <= seat <= self.s.seats:
            reason = f"{what} {seat} is not a seat (1..{self.s.seats})"
            raise self.illegal("not_a_seat", reason, seat, number=seat, seats=self.s.seats)

    def living(self, seat: int, what: str = "seat") -> None:
        self.seat_in_range(seat, what)
        if seat in self.s.out:
            raise self.illegal("out_of_game", f"{what} {seat} is out of the game", seat, number=seat)

    def need_phase(self, inp: Input, *phases: Phase) -> None:
        if self.s.phase not in phases:
            seat = getattr(inp, "seat", None)
            raise self.illegal("not_now", f"{inp.TYPE} is not allowed now", seat, input=inp.TYPE)

    def check(self, inp: Input) -> None:
        s = self.s
        if s.phase is Phase.GAME_OVER:
            raise self.illegal("game_over", "the game is over", getattr(inp, "seat", None))
        if isinstance(inp, DealRoles):
            self.need_phase(inp, Phase.ROLES)
            self.check_roles(inp)
            return
        if s.phase is Phase.ROLES:
            raise self.illegal("not_dealt", "the roles are not dealt yet", getattr(inp, "seat", None))
        match inp:
            case Advance():
                pass
            case Nominate(seat=seat, target=target):
                self.need_phase(inp, Phase.SPEECH, Phase.NOMINATION)
                self.speaker_only(seat)
                self.living(target, "candidate")
                if target in s.candidates and s.nominations.get(seat) != target:
                    reason = f"player {target} is already nominated today"
                    raise self.illegal("already_nominated", reason, seat, target=target)
            case Withdraw(seat=seat, target=target):
                self.need_phase(inp, Phase.SPEECH)
                self.speaker_only(seat)
                if s.nominations.get(seat) != target:
                    reason = f"player {target} is not this speaker's candidate"
                    raise self.illegal("not_his_candidate", reason, seat, target=target)
            case Vote(seat=seat):
                self.need_phase(inp, Phase.VOTE)
                self.living(seat)
                assert s.vote_round is not None
                if seat in s.vote_round.ballots:
                    raise self.illegal("already_voted", "already voted in this round", seat)
                if s.vote_round.votes >= len(s.alive()):
                    reason = "every living player's vote is counted in this round"
                    raise self.illegal("all_counted", reason, seat)
            case Tally(count=count):
                self.need_phase(inp, Phase.VOTE)
                assert s.vote_round is not None
                rnd = s.vote_round
                if any(c == rnd.current for c in rnd.ballots.values()):
                    raise self.illegal("on_buttons", "this window's votes were taken on the buttons")
                left = len(s.alive()) - rnd.votes
                if not 0 <= count <= left:
                    alive = len(s.alive())
                    reason = (
                        f"{count} votes: {alive} players are alive and {rnd.votes} "
                        f"have voted in this round, so 0 to {left} can vote now"
                    )
                    raise self.illegal(
                        "too_many_votes", reason, count=count, alive=alive, voted=rnd.votes, left=left
                    )
            case Foul(seat=seat):
                if not self.preset.fouls:
                    reason = f"there are no fouls in the {self.preset.name} rules"
                    raise self.illegal("no_fouls", reason, seat, preset=self.preset.name)
                self.seat_in_range(seat)
                if not (s.phase is Phase.LAST_WORD and seat == s.speaker):
                    self.living(seat)
            case Shot(seat=seat, target=target):
                self.need_phase(inp, Phase.NIGHT_HUNT)
                self.living(seat)
                self.living(target, "target")
            case GoldenMinute(seat=seat):
                self.need_phase(inp, Phase.JUSTIFICATION, Phase.GOLDEN_ASK)
                self.check_golden(seat)
            case _:
                assert isinstance(inp, Check | Visit)
                self.need_phase(inp, Phase.NIGHT_CHECK if isinstance(inp, Check) else Phase.NIGHT_VISIT)
                self.living(inp.seat)
                self.living(inp.target, "target")

    def check_golden(self, seat: int) -> None:
        s = self.s
        self.living(seat)
        if seat not in s.candidates:
            raise self.illegal("not_candidate", f"player {seat} is not a candidate today", seat)
        if s.phase is Phase.JUSTIFICATION and seat != s.speaker:
            reason = f"only the candidate justifying himself (seat {s.speaker}) may ask now"
            raise self.illegal("not_speaker", reason, seat, speaker=s.speaker)
        if seat in s.golden_used:
            raise self.illegal("golden_used", f"player {seat} has had his golden minute in this game", seat)
        if seat in s.golden_asked:
            raise self.illegal("golden_asked", f"player {seat} has already asked for his golden minute", seat)

    def speaker_only(self, seat: int) -> None:
        self.seat_in_range(seat)
        if seat != self.s.speaker:
            reason = f"only the speaker (seat {self.s.speaker}) may nominate"
            raise self.illegal("not_speaker", reason, seat, speaker=self.s.speaker)

    def check_roles(self, inp: DealRoles) -> None:
        seen: set[int] = set()
        counts: Counter[Role] = Counter()
        for seat, role in inp.roles:
            self.seat_in_range(seat)
            if seat in seen:
                raise self.illegal("two_roles", f"seat {seat} is given two roles", seat)
            seen.add(seat)
            if role is not Role.CIVILIAN and role not in self.preset.special_roles:
                reason = f"role {role.value} is not in the {self.preset.name} preset"
                raise self.illegal("role_not_in_preset", reason, seat, role=role.value)
            counts[role] += 1
        for role, want in self.preset.roles:
            if counts[role] != want:
                reason = f"the {self.preset.name} preset needs {want} {role.value}, got {counts[role]}"
                raise self.illegal("role_count", reason, role=role.value, want=want, got=counts[role])

    # ------------------------------------------------------------ applying

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
                self.emit(GoldenMinuteTaken(day=self.s.day, seat=seat), Say(phrase="golden_taken", seat=seat))
            case Visit(seat=seat, target=target):
                self.night_visit(seat, target)
            case _:
                assert isinstance(inp, Check)
                self.night_check(inp.seat, inp.target)
        return self.out

    def emit(self, *items: Output) -> None:
        self.out.extend(items)

    def say(self, key: str, role: Role | None = None) -> Say:
        """A phrase in the preset's own words (:meth:`Preset.words`)."""
        phrase, role = self.preset.words(key, role)
        return Say(phrase=phrase, role=role)

    def enter(self, phase: Phase, seat: int | None = None, role: Role | None = None) -> None:
        """Begin a step: it is announced, then says and starts what the table of steps gives it."""
        self.s.phase = phase
        self.emit(PhaseStarted(phase=phase.value, day=self.s.day, seat=seat, role=role))
        self.emit(*opening(self.preset, self.s))

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

    # ------------------------------------------------------------ night

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

    # ------------------------------------------------------------ day

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
        previous day's opener."""
        s = self.s
        alive = s.alive()
        after = s.opener or 0
        opener = next((seat for seat in alive if seat > after), alive[0])
        s.opener = opener
        at = alive.index(opener)
        return alive[at:] + alive[:at]

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

    # ------------------------------------------------------------ the city day (003)

    def next_caller(self) -> None:
        """The nomination round: each living player in turn from the day's opener names his candidate."""
        s = self.s
        if s.queue:
            self.give_floor(Phase.NOMINATION, s.queue.pop(0))
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
            self.leave_by_vote(tuple(s.candidates))
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
            self.start_round(RoundKind.ALL, tied)

    def next_tie_speaker(self) -> None:
        s = self.s
        if s.queue:
            self.give_floor(Phase.TIE_SPEECH, s.queue.pop(0))
        else:
            s.speaker = None
            self.start_round(RoundKind.REVOTE, s.tied)

    def leave_by_vote(self, seats: tuple[int, ...]) -> None:
        s = self.s
        s.vote_round, s.tied = None, ()
        for seat in seats:
            self.depart(seat, "vote")
            self.emit(Say(phrase="leaves", seat=seat))
        if self.game_ended():
            return
        if not self.preset.last_word:
            self.start_night()
            return
        s.last_words = list(seats)
        s.last_words_then = Phase.NIGHT_HUNT
        self.next_last_word()

    # ------------------------------------------------------------ fouls

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

    # ------------------------------------------------------------ leaving and winning

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
