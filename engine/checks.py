"""Whether an input is legal now: every check, never a change to the state.

Which inputs a step takes at all is the table of steps' (:data:`engine.steps.ALLOWS`);
here the rest: the seats, the speaker, the counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.errors import IllegalInput
from engine.inputs import (
    FOUL_GIVERS,
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
from engine.presets import Preset
from engine.roles import Role
from engine.state import Phase, State
from engine.steps import ALLOWS, best_move_now


def check(preset: Preset, state: State, inp: Input) -> None:
    """Raise :class:`IllegalInput` (naming the phase and the seat) unless the rules allow ``inp`` now."""
    _Checks(preset, state).check(inp)


@dataclass
class _Checks:
    preset: Preset
    s: State

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

    def check(self, inp: Input) -> None:
        s = self.s
        seat = getattr(inp, "seat", None)
        if s.phase is Phase.GAME_OVER:
            raise self.illegal("game_over", "the game is over", seat)
        if type(inp) not in ALLOWS[s.phase].inputs:
            if s.phase is Phase.ROLES:
                raise self.illegal("not_dealt", "the roles are not dealt yet", seat)
            raise self.illegal("not_now", f"{inp.TYPE} is not allowed now", seat, input=inp.TYPE)
        match inp:
            case DealRoles():
                self.check_roles(inp)
            case Nominate(seat=seat, target=target):
                self.speaker_only(seat)
                if s.phase is Phase.NOMINATION:  # the round: a gone player named is told (NamedOutOfGame)
                    self.seat_in_range(target, "candidate")
                else:
                    self.living(target, "candidate")
                if target in s.candidates and s.nominations.get(seat) != target:
                    reason = f"player {target} is already nominated today"
                    raise self.illegal("already_nominated", reason, seat, target=target)
            case Withdraw(seat=seat, target=target):
                self.speaker_only(seat)
                if s.nominations.get(seat) != target:
                    reason = f"player {target} is not this speaker's candidate"
                    raise self.illegal("not_his_candidate", reason, seat, target=target)
            case Vote(seat=seat):
                self.living(seat)
                assert s.vote_round is not None
                if seat in s.vote_round.ballots:
                    raise self.illegal("already_voted", "already voted in this round", seat)
                if s.vote_round.votes >= len(s.alive()):
                    reason = "every living player's vote is counted in this round"
                    raise self.illegal("all_counted", reason, seat)
            case Tally(count=count):
                self.check_tally(count)
            case Foul(seat=seat, by=by):
                if not self.preset.fouls:
                    reason = f"there are no fouls in the {self.preset.name} rules"
                    raise self.illegal("no_fouls", reason, seat, preset=self.preset.name)
                if by not in FOUL_GIVERS:
                    reason = f"a foul is given by {' or '.join(FOUL_GIVERS)}, not {by!r}"
                    raise self.illegal("foul_by", reason, seat, by=str(by))
                self.seat_in_range(seat)
                if not (s.phase is Phase.LAST_WORD and seat == s.speaker):
                    self.living(seat)
            case GoldenMinute(seat=seat):
                self.check_golden(seat)
            case BestMove(seat=seat, seats=named):
                self.check_best_move(seat, named)
            case Shot() | Check() | Visit():
                self.living(inp.seat)
                self.living(inp.target, "target")
            case _:  # Advance: always, in a step that takes it
                pass

    def check_tally(self, count: int) -> None:
        s = self.s
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
            raise self.illegal("too_many_votes", reason, count=count, alive=alive, voted=rnd.votes, left=left)

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

    def check_best_move(self, seat: int, named: tuple[int, ...]) -> None:
        """Three distinct seats of the table other than his own (FIIM: any
        three, those out of the game too), named by the first night's victim."""
        if not best_move_now(self.preset, self.s):
            reason = "only the player killed on the first night names a best move, in his last word"
            raise self.illegal("no_best_move", reason, seat)
        self.speaker_only(seat, "name his best move")
        if len(named) != 3:
            reason = f"a best move names three seats, not {len(named)}"
            raise self.illegal("best_move_three", reason, seat, count=len(named))
        far = next((n for n in named if not 1 <= n <= self.s.seats), None)
        if far is not None:
            reason = f"named seat {far} is not a seat (1..{self.s.seats})"
            raise self.illegal("not_a_seat", reason, seat, number=far, seats=self.s.seats)
        if seat in named:
            raise self.illegal("own_seat", f"player {seat} cannot name his own seat", seat)
        twice = next((n for n in named if named.count(n) > 1), None)
        if twice is not None:
            raise self.illegal("named_twice", f"seat {twice} is named twice", seat, number=twice)

    def speaker_only(self, seat: int, what: str = "nominate") -> None:
        self.seat_in_range(seat)
        if seat != self.s.speaker:
            reason = f"only the speaker (seat {self.s.speaker}) may {what}"
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
