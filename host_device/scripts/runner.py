"""What every scripted table does with a script, step by step (the deal,
the days' speeches and votes, the nights' presses), and what it reports:
the script's moments the rules refused, the words said that are forbidden.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from engine import (
    Advance,
    BestMove,
    Check,
    DealRoles,
    Foul,
    Game,
    GoldenMinute,
    Input,
    Phase,
    Role,
    Shot,
    Team,
    Visit,
    Vote,
)
from engine.outputs import Output
from engine.presets import DayFormat
from engine.roles import BLACK_ROLES
from engine.state import RoundKind, State
from engine.summary import summary
from host_device.config import Strictness
from host_device.listening.intents import Intent, IntentPatterns, russian_patterns
from host_device.scripts.script import Script, ScriptDay


class Runner(ABC):
    """A table that plays a script, step by step; how an input reaches the
    game, and when words are said, is the concrete table's: the engine at
    once (:class:`host_device.scripts.play.Play`), or the runtime on its
    schedule (:class:`host_device.scripts.simulate.ScriptedTable`)."""

    def __init__(
        self, script: Script, patterns: IntentPatterns | None = None, game: Game | None = None
    ) -> None:
        self.script = script
        self.patterns = patterns or russian_patterns()
        self.round_patterns = self.patterns.for_round()  # the city's round also takes «игрок номер N»
        self.game = game or Game(script.preset)
        self.outputs: list[Output] = []  # the game's, for its summary (engine.summary)
        self.ignored: list[dict[str, Any]] = []
        self.forbidden: list[dict[str, Any]] = []
        self.spoken: set[int] = set()
        self.rounds = 0  # vote rounds begun today
        self.city = self.game.preset.day_format is DayFormat.DISCUSSION
        self.moved = False  # the step ended by itself (a nomination in the city's round)
        self.justified: set[int] = set()
        self.best_moves: set[int] = set()  # the nights whose best move was given or reported

    # ---------------------------------------------------------------- feeding

    @abstractmethod
    def feed(self, inp: Input, **where: Any) -> bool:
        """Give the table ``inp`` (``where``: the script's place, reported if it is refused)."""

    @abstractmethod
    def speech(self, script_day: ScriptDay, day: int, seat: int) -> None:
        """The speaker's words: his nominations and withdrawals."""

    @abstractmethod
    def nomination(self, script_day: ScriptDay, day: int, seat: int) -> None:
        """The city's round: what the caller says when called."""

    def observe(self, outputs: list[Output]) -> None:
        self.outputs.extend(outputs)

    def advance(self) -> None:
        self.feed(Advance())

    # ---------------------------------------------------------------- the game

    def deal(self) -> None:
        self.feed(DealRoles(roles=tuple(sorted(self.script.roles.items()))))

    def run(self) -> dict[str, Any]:
        self.deal()
        while self.act() and self.game.phase is not Phase.GAME_OVER:  # fouls may end the game
            if not self.moved:
                self.advance()
            self.moved = False
        return self.result()

    def result(self) -> dict[str, Any]:
        state = self.game.state
        told = summary(self.outputs)
        return {
            "winner": state.winner.value if state.winner else None,
            "days": state.day,
            "out": told["out"],
            "checks": told["checks"],
            "candidates": told["candidates"],
            "ignored": [*self.ignored, *self.unreached_best_moves()],
            "forbidden": self.forbidden,
            **({"saved": told["saved"], "alibi": told["alibi"]} if self.city else {}),
            **({"best_move": best_move_result(state)} if state.best_move_seat is not None else {}),
        }

    def act(self) -> bool:
        """Do what the script says for the current step (the step is then over);
        False when the game is over or the script has run out."""
        state = self.game.state
        phase, day = state.phase, state.day
        if phase is Phase.GAME_OVER:
            return False
        if phase is Phase.MORNING:
            if day > len(self.script.days):
                return False
            self.spoken, self.rounds, self.justified = set(), 0, set()
            self.report_unsaid_best_move(day)
            self.fouls(self.script.days[day - 1].fouls, day, "fouls")
        elif phase is Phase.LAST_WORD:
            assert state.speaker is not None
            self.last_word(day, state.speaker)
        elif phase is Phase.SPEECH:
            assert state.speaker is not None
            self.speech(self.script.days[day - 1], day, state.speaker)
        elif phase is Phase.NOMINATION:
            assert state.speaker is not None
            self.nomination(self.script.days[day - 1], day, state.speaker)
        elif phase is Phase.JUSTIFICATION:
            assert state.speaker is not None
            self.justification(self.script.days[day - 1], day, state.speaker)
        elif phase is Phase.VOTE_ANNOUNCE:
            script_day = self.script.days[day - 1]
            self.report_unspoken(script_day, day)
            self.report_golden(script_day, day)
            self.fouls(script_day.late_fouls, day, "late_fouls")
        elif phase is Phase.VOTE:
            self.vote_window(self.script.days[day - 1], day)
        elif phase is Phase.NIGHT_HUNT:
            self.report_unplayed_rounds(self.script.days[day - 1], day)
            if day > len(self.script.nights):
                return False
            self.hunt(day)
        elif phase is Phase.NIGHT_CHECK:
            self.night_press(day, state.step_role, Check)
        elif phase is Phase.NIGHT_VISIT:
            self.night_press(day, state.step_role, Visit)
        return True

    def night_best_move(self, day: int) -> tuple[int, tuple[int, ...]]:
        """The night before ``day`` and its script's best move (none before the first night)."""
        night = day - 1
        if not 1 <= night <= len(self.script.nights):
            return night, ()
        return night, self.script.nights[night - 1].best_move

    def last_word(self, day: int, seat: int) -> None:
        """A morning's last word: the script's best move of the night before
        is said in it (the engine refuses it after any night but the first)."""
        night, named = self.night_best_move(day)
        state = self.game.state
        if named and state.last_words_then is Phase.SPEECH:
            self.best_moves.add(night)
            where = {"night": night, "what": "best_move", "seat": seat, "seats": list(named)}
            self.feed(BestMove(seat=seat, seats=named), **where)

    def report_unsaid_best_move(self, day: int) -> None:
        """A best move for a night after which nobody has a last word (a miss)."""
        night, named = self.night_best_move(day)
        if named and not self.game.state.last_words:
            self.best_moves.add(night)
            reason = "nobody has a last word after this night (a miss), so no best move"
            self.ignored.append({"night": night, "what": "best_move", "seats": list(named), "reason": reason})

    def unreached_best_moves(self) -> list[dict[str, Any]]:
        """The script's best moves of nights whose morning's last word the game never reached
        (the script's days ran out, or the game ended first)."""
        ended = "the game ended" if self.game.phase is Phase.GAME_OVER else "the script's days ran out"
        return [
            {
                "night": night,
                "what": "best_move",
                "seats": list(item.best_move),
                "reason": f"{ended} before the last word after this night, so no best move",
            }
            for night, item in enumerate(self.script.nights, 1)
            if item.best_move and night not in self.best_moves
        ]

    def device_foul(self, intent: Intent, day: int, seat: int, late: str | None = None) -> Foul | None:
        """A forbidden word in a speech: reported, and the device's foul when
        the script's strictness is "foul" (as the live device gives it,
        host_device/runtime/discipline.py). One the transcript puts after the
        speaker's time (``late``: why) was never said — he stopped at «Время!»
        — and is reported with the reason, no foul (docs/fouls.md)."""
        reported = {"day": day, "seat": seat, "word": intent.word}
        self.forbidden.append({**reported, "late": late} if late else reported)
        if late or self.script.strictness is not Strictness.FOUL or not self.game.preset.fouls:
            return None
        return Foul(seat=seat, by="device", word=intent.word or "")

    def fouls(self, fouls: dict[int, int], day: int, key: str) -> None:
        for seat, count in sorted(fouls.items()):
            for _ in range(count):
                self.feed(Foul(seat=seat), day=day, what=key, seat=seat)

    def justification(self, script_day: ScriptDay, day: int, seat: int) -> None:
        self.justified.add(seat)
        if seat in script_day.golden:
            self.feed(GoldenMinute(seat=seat), day=day, what="golden", seat=seat)

    def report_golden(self, script_day: ScriptDay, day: int) -> None:
        for seat in sorted(set(script_day.golden) - self.justified):
            self.ignored.append(
                {"day": day, "what": "golden", "seat": seat, "reason": "not a candidate this day"}
            )

    def report_unspoken(self, script_day: ScriptDay, day: int) -> None:
        for seat in sorted(set(script_day.speeches) - self.spoken):
            self.ignored.append(
                {"day": day, "what": "speech", "seat": seat, "reason": "this seat had no speech this day"}
            )

    def report_unplayed_rounds(self, script_day: ScriptDay, day: int) -> None:
        for index in range(self.rounds, len(script_day.votes)):
            self.ignored.append(
                {"day": day, "what": "votes", "round": index, "reason": "no such vote round this day"}
            )

    def vote_window(self, script_day: ScriptDay, day: int) -> None:
        """The presses of the open vote window; a round's first window also
        reports the script's candidates that have no window in it."""
        rnd = self.game.state.vote_round
        assert rnd is not None
        keys = ["all"] if rnd.kind is RoundKind.ALL else [str(c) for c in rnd.candidates]
        if rnd.window == 0:
            self.rounds += 1
        index = self.rounds - 1
        given = script_day.votes[index] if index < len(script_day.votes) else {}
        if rnd.window == 0:
            for key in sorted(set(given) - set(keys)):
                self.ignored.append(
                    {
                        "day": day,
                        "what": "votes",
                        "round": index,
                        "candidate": key,
                        "reason": f"no such window in this round (windows: {', '.join(keys)})",
                    }
                )
        key = keys[rnd.window]
        for voter in given.get(key, []):
            self.feed(Vote(seat=voter), day=day, what="vote", round=index, candidate=key, seat=voter)

    def hunt(self, night: int) -> None:
        for shooter, target in sorted(self.script.nights[night - 1].shots.items()):
            if self.script.roles.get(shooter, Role.CIVILIAN).team is not Team.BLACK:
                self.ignored.append(
                    {"night": night, "what": "shot", "seat": shooter, "reason": "this seat is not mafia"}
                )
                continue
            self.feed(
                Shot(seat=shooter, target=target), night=night, what="shot", seat=shooter, target=target
            )

    def night_press(self, night: int, role: Role | None, kind: type[Check] | type[Visit]) -> None:
        """The woken role's press at the night's call: a check, or (city) a heal or a visit."""
        assert role is not None
        script_night = self.script.nights[night - 1]
        target = (script_night.checks if kind is Check else script_night.visits).get(role)
        if target is not None:
            seat = next(seat for seat, r in self.script.roles.items() if r is role)
            self.feed(kind(seat=seat, target=target), night=night, what=role.value, seat=seat, target=target)


def best_move_result(state: State) -> dict[str, Any]:
    """The best move made: who, the seats he named, and, once the game is
    over (never before: it would tell who is black), how many were black."""
    seats = list(state.best_move)
    made: dict[str, Any] = {"seat": state.best_move_seat, "seats": seats}
    if state.phase is Phase.GAME_OVER:
        made["black"] = sum(1 for seat in seats if state.role(seat) in BLACK_ROLES)
    return made
