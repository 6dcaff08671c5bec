"""``host-device simulate``: a game script played through the whole runtime
on virtual time, by a scripted table.

The table does what the script says, when a table would: a speaker says his
nominations one after another once his time has started (and «спасибо» at
the end, if his transcript ends with it), voters press half a second into a
vote window, the mafia and the checkers press during their target's number.
The script is read by the same code as ``play`` (host_device/scripts/play.py), so
the two agree; only the timing is added here.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import (
    BestMove,
    Check,
    DealRoles,
    Foul,
    Game,
    GoldenMinute,
    Input,
    Nominate,
    Phase,
    Role,
    Shot,
    Visit,
    Vote,
    Withdraw,
)
from engine.outputs import PhaseStarted, VoteCounted
from engine.steps import Listen, listening, seconds
from host_device.base.errors import HostDeviceError
from host_device.config import AssistSettings, Strictness
from host_device.listening.intents import Intent, IntentPatterns
from host_device.runtime.assist import Assist, runtime_settings
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Duration, Runtime
from host_device.runtime.settings import Settings
from host_device.runtime.timeline import Entry, HeardIntent, Proposed, Said, as_dict
from host_device.scripts.runner import Runner
from host_device.scripts.script import (
    FIRST_WORDS_S,
    ROUND_GAP_S,
    UTTERANCE_GAP_S,
    Script,
    ScriptDay,
    said_at,
    too_late,
)

PRESS_DELAY_S = 0.5  # a voter's press after the window opens
SLOT_DELAY_S = 0.2  # a press after its number is called
WORD_BEFORE_S = 0.05  # a forbidden word is heard just before the utterance it comes with
OVER_TICK_S = 0.25  # a speaker going on after «Время!» (a script's "over"): a word this often


class ScriptedTable(Runner):
    def __init__(self, script: Script, runtime: Runtime, patterns: IntentPatterns | None = None) -> None:
        super().__init__(script, patterns, game=runtime.game)
        self.runtime = runtime
        runtime.observers.append(self.observe)
        runtime.on_reject.append(self._rejected)
        runtime.step_hooks.append(self._on_step)
        self.pending: list[Input] = []  # the interrupted step's inputs, already in the record

    def _rejected(self, inp: Input, exc: Exception, where: dict[str, Any]) -> None:
        if where:
            self.ignored.append({**where, "reason": getattr(exc, "reason", str(exc))})

    def _on_step(self, runtime: Runtime) -> None:
        if not self.act() and self.game.phase is not Phase.GAME_OVER:
            runtime.stop()  # the script has run out

    def already_done(self, inp: Input) -> bool:
        """On resuming: the interrupted step's inputs that the record already has are not given again."""
        if self.pending and self.pending[0] == inp:
            self.pending.pop(0)
            return True
        return False

    # the script's inputs, each at its moment
    def feed(self, inp: Input, **where: Any) -> bool:
        if self.already_done(inp):
            return True
        rt = self.runtime
        sched = rt.sched
        match inp:
            case Vote(seat=seat):
                assert rt.window is not None
                sched.at(rt.window[0] + PRESS_DELAY_S, functools.partial(self._press, seat, where))
            case (
                Shot(seat=seat, target=target)
                | Check(seat=seat, target=target)
                | Visit(seat=seat, target=target)
            ):
                slot = next((start for s, start, _ in rt.slots if s == target), None)
                if slot is None or not self.game.is_legal(inp):  # refused now (a dead seat), as in play
                    return rt.handle(inp, **where)
                sched.at(slot + SLOT_DELAY_S, functools.partial(self._press, seat, where))
            case GoldenMinute(seat=seat):  # said during his justification, once it has begun
                golden = Intent("golden")
                sched.at(
                    rt.speaking_until + FIRST_WORDS_S, lambda: self._say_if_speaking(seat, golden, where)
                )
            case BestMove(seat=seat, seats=named):  # said in his last word, after «Лучший ход»
                best = Intent("best_move", seats=named)
                sched.at(rt.speaking_until + FIRST_WORDS_S, lambda: self._say_if_speaking(seat, best, where))
            case _:  # fouls, the deal: at once
                return rt.handle(inp, **where)
        return True

    def _press(self, seat: int, where: dict[str, Any]) -> None:
        self.runtime.press(seat, **where)

    def speech(self, script_day: ScriptDay, day: int, seat: int) -> None:
        """The speaker says his intents one by one, after his time has
        started, paced as the format says (:func:`.script.said_at`); those
        said after his time is up are reported, as ``play`` does."""
        limit = seconds(Phase.SPEECH, self.game.preset)
        self.spoken.add(seat)
        text = script_day.speeches.get(seat, "")
        intents = self.patterns.parse(text, self.game.preset.seats)
        said: list[tuple[Intent, dict[str, Any]]] = []
        late: list[dict[str, Any]] = []
        words: list[tuple[int, Intent, dict[str, Any]]] = []  # forbidden: heard with the next utterance
        over = script_day.over.get(seat, 0.0)  # he goes on this long after «Время!»: heard, as live
        for intent in intents:
            if intent.intent == "forbidden":
                index = len(said) + len(late)
                ended = too_late(said_at(index, UTTERANCE_GAP_S), limit)
                ended = ended if limit is None or said_at(index, UTTERANCE_GAP_S) >= limit + over else None
                self.device_foul(intent, day, seat, ended)  # reported; said to the runtime, which decides
                if self.script.strictness is not Strictness.OFF and not ended:
                    where = {"day": day, "what": "forbidden", "seat": seat, "word": intent.word}
                    words.append((len(said) + len(late), intent, where))
            elif intent.seat is not None:
                where = {"day": day, "what": intent.intent, "seat": seat, "target": intent.seat}
                reason = too_late(said_at(len(said) + len(late), UTTERANCE_GAP_S), limit)
                kind = Nominate if intent.intent == "nominate" else Withdraw
                if reason:
                    late.append({**where, "reason": reason})
                elif not self.already_done(kind(seat=seat, target=intent.seat)):
                    said.append((intent, where))
        if intents and intents[-1].intent == "end" and not late:  # «спасибо» after the last one
            said.append((intents[-1], {}))
        rt = self.runtime
        for index, intent, where in words:
            at = rt.speaking_until + said_at(index, UTTERANCE_GAP_S) - WORD_BEFORE_S
            rt.sched.at(at, functools.partial(self._say_if_speaking, seat, intent, where))
        if over and limit is not None:  # «Время!» is said at the time's end: he talks on after it
            time_up = rt.speaking_until + limit + OVER_TICK_S / 10  # just after «Время!» is queued
            rt.sched.at(time_up, functools.partial(self._talk_on, seat, over))
        self._schedule(seat, said, late, UTTERANCE_GAP_S)

    def _talk_on(self, seat: int, over: float) -> None:
        """The speaker goes on ``over`` seconds after «Время!» has been said: a word every
        OVER_TICK_S for the device's watch (discipline.py), as the listener's ``Voice`` gives it."""
        rt = self.runtime
        step = rt.step
        if self.game.state.speaker != seat:  # he ended early («спасибо»): no «Время!»
            return

        def word(at: float) -> None:
            if rt.step == step:
                rt.discipline.voice(at)

        said_until = rt.speaking_until  # the end of «Время!»
        ticks = int(over / OVER_TICK_S)
        for n in range(1, ticks + 1):
            at = said_until + n * OVER_TICK_S
            rt.sched.at(at, functools.partial(word, at))

    def nomination(self, script_day: ScriptDay, day: int, seat: int) -> None:
        """The city's round: the caller says his words once he is called, one
        intent after another (a refused name, then another); silent, his
        window runs out."""
        limit = seconds(Phase.NOMINATION, self.game.preset)
        self.spoken.add(seat)
        intents = self.round_patterns.parse(script_day.speeches.get(seat, ""), self.game.preset.seats)
        said: list[tuple[Intent, dict[str, Any]]] = []
        late: list[dict[str, Any]] = []
        index = 0
        for intent in intents:
            if intent.intent == "forbidden":
                self.forbidden.append({"day": day, "seat": seat, "word": intent.word})
                continue
            where = {"day": day, "what": intent.intent, "seat": seat, "target": intent.seat}
            reason = too_late(said_at(index, ROUND_GAP_S), limit)
            index += 1
            if reason:
                if intent.intent == "nominate" and intent.seat is not None:
                    late.append({**where, "reason": reason})
            elif intent.seat is None or not self.already_done(Nominate(seat=seat, target=intent.seat)):
                said.append((intent, where))  # (one said before a crash is not said again)
        self._schedule(seat, said, late, ROUND_GAP_S)

    def _schedule(
        self,
        seat: int,
        said: list[tuple[Intent, dict[str, Any]]],
        late: list[dict[str, Any]],
        gap: float,
    ) -> None:
        """Say the utterances heard in time one by one from the speaker's
        start; after the last of them, while he still has the floor, those
        said too late are reported (in the order ``play`` reports them)."""
        rt = self.runtime
        start = rt.speaking_until

        def report() -> None:
            state = self.game.state
            if state.speaker == seat and state.phase in (Phase.SPEECH, Phase.NOMINATION):
                self.ignored.extend(late)

        for n, (intent, where) in enumerate(said):
            last = n == len(said) - 1
            rt.sched.at(
                start + said_at(n, gap),
                functools.partial(self._say_if_speaking, seat, intent, where, report if last else None),
            )
        if not said:
            report()

    def _say_if_speaking(
        self, seat: int, intent: Intent, where: dict[str, Any], then: Callable[[], None] | None = None
    ) -> None:
        state = self.game.state
        if state.speaker == seat and intent.intent == "best_move" and state.phase is Phase.LAST_WORD:
            if (
                listening(self.game.preset, state) is not Listen.BEST_MOVE
            ):  # not his to name: refused, as in play
                self.runtime.handle(BestMove(seat=seat, seats=intent.seats), **where)
            else:
                self.runtime.heard(intent, **where)
        elif state.speaker == seat and listening(self.game.preset, state) is not None:
            reported = intent.seat is not None or intent.intent in ("golden", "forbidden")
            self.runtime.heard(intent, **(where if reported else {}))
        elif intent.intent in ("nominate", "withdraw") and intent.seat is not None and seat in state.out:
            kind = Nominate if intent.intent == "nominate" else Withdraw  # removed mid-speech (a 4th foul):
            self.runtime.handle(kind(seat=seat, target=intent.seat), **where)  # refused, as in play
        if then is not None:
            then()


class ScriptedHost:
    """The human host of a scripted assist-mode game (a foul the device proposes: given
    only under the script's strictness "foul", so the record is host mode's). He reacts at once:
    "next" where host mode ends a step by itself (after «Время!», after the
    speaker's «спасибо», after the morning's and the candidates' phrases,
    after a role has met him), and he confirms every heard nomination. The
    votes and the night run on the buttons, so the game's record is the one
    host mode gives."""

    def __init__(self, assist: Assist) -> None:
        self.assist = assist
        rt = assist.runtime
        rt.step_hooks.append(self._on_step)
        rt.recorders.append(self._on_entry)

    def _key(self, step: int, key: str) -> None:
        if step == self.assist.runtime.step:
            self.assist.press(key)

    def _soon(self, t: float, key: str) -> None:
        rt = self.assist.runtime
        rt.sched.at(t, functools.partial(self._key, rt.step, key))

    def _on_step(self, rt: Runtime) -> None:
        phase, cfg = rt.game.phase, rt.settings
        if phase in cfg.auto:
            return
        if phase in (Phase.MORNING, Phase.VOTE_ANNOUNCE):
            self._soon(rt.speaking_until + cfg.gap_s, "next")
        elif phase is Phase.INTRO_MEET:
            self._soon(rt.speaking_until + cfg.meet_s, "next")

    def _on_entry(self, entry: Entry) -> None:
        rt = self.assist.runtime
        if rt.game.phase in rt.settings.auto:
            return
        time_up = isinstance(entry, Said) and entry.key == "time_up"
        if time_up or (isinstance(entry, HeardIntent) and entry.intent.intent in ("end", "pass")):
            self._soon(rt.sched.now, "next")
        elif isinstance(entry, Proposed):  # a foul for a forbidden word: as the script's strictness says
            given = not isinstance(entry.input, Foul) or rt.settings.fouls is Strictness.FOUL
            self._soon(rt.sched.now, "confirm" if given else "reject")


def builtin_durations() -> Duration:
    """Phrase lengths from the built-in voice pack (built if missing)."""
    from host_device.sound.announcer import Announcer
    from voices.catalogue import russian
    from voices.pack import ensure_builtin

    catalogue = russian()
    return Announcer(catalogue, ensure_builtin(catalogue)).duration


def simulate(
    script: Script,
    duration: Duration | None = None,
    settings: Settings | None = None,
    store: Any = None,
    resume: bool = False,
    die_after: int | None = None,
    mode: str = "host",
    watch: Callable[[Runtime], Any] | None = None,
) -> tuple[dict[str, Any], Runtime]:
    """Play a script through the runtime. With a store, every input is
    recorded; ``resume`` carries on the store's unfinished game instead of
    starting one; ``die_after`` kills this process (SIGKILL) after that many
    inputs are recorded (for the crash tests). ``mode`` "assist": the steps
    are started by a scripted human host (:class:`ScriptedHost`). ``watch``
    is given the runtime before the game starts (a public stream, say)."""
    duration = duration or builtin_durations()
    settings = dataclasses.replace(settings or Settings(), fouls=script.strictness)
    if any(day.over for day in script.days):  # a speaker goes on after «Время!»: the device listens for it
        settings = dataclasses.replace(settings, watch_time=True)
    if mode == "assist":
        settings = assist_settings(settings)
    if resume:
        runtime, table = _resumed(script, duration, settings, store)
    else:
        runtime = Runtime(Game(script.preset), Scheduler(), duration, settings)
        if store is not None:
            from host_device.store import record_runtime

            record_runtime(store.games, runtime, "simulate", settings={"script": fingerprint(script)})
        table = ScriptedTable(script, runtime)
    if mode == "assist":
        ScriptedHost(Assist(runtime, SCRIPTED_ASSIST, role_entry=False))
    if die_after is not None:
        _die_after(runtime, die_after, store)
    if watch is not None:
        watch(runtime)
    if resume:
        runtime.resume()
    else:
        table.deal()  # the cards are dealt; the introduction night begins
    runtime.sched.run_virtual(VIRTUAL_LIMIT_S)
    if runtime.sched.next_time() is not None and not runtime.sched.paused:
        raise HostDeviceError(  # never reached by a script within the limits; never a silent stop
            f"the simulation passed {VIRTUAL_LIMIT_S / 3600:.0f} hours of virtual time and was stopped"
        )
    return table.result(), runtime


VIRTUAL_LIMIT_S = 72 * 3600.0  # far beyond the longest game a script within its limits can describe


SCRIPTED_ASSIST = AssistSettings(auto_accept=False, votes="buttons", night="buttons")


def assist_settings(settings: Settings | None) -> Settings:
    """The runtime's settings for a scripted assist-mode game (votes and night on the buttons)."""
    return dataclasses.replace(settings or Settings(), **runtime_settings(SCRIPTED_ASSIST))


def _resumed(
    script: Script, duration: Duration, settings: Settings | None, store: Any
) -> tuple[Runtime, ScriptedTable]:
    """The store's unfinished game rebuilt from its record, with the scripted
    table's memory of it (what left, what was checked, which vote round)."""
    from host_device.store import StoreError, record_runtime

    unfinished = store.games.unfinished()
    if not unfinished:
        raise StoreError(f"{store.path}: no unfinished game to resume")
    row = unfinished[-1]
    record = list(store.games.inputs(row.id))
    _check_own_script(store, row, record, script)
    game = Game(store.games.preset(row.id))
    steps = [(inp, game.handle(inp)) for _, _, inp in record]
    runtime = Runtime(game, Scheduler(start=record[-1][1]), duration, settings)
    runtime.adopt(game)
    table = ScriptedTable(script, runtime)
    started = max(
        (i for i, (_, outs) in enumerate(steps) if any(isinstance(o, PhaseStarted) for o in outs)), default=0
    )
    day = game.state.day
    for _, outputs in steps:
        table.observe(outputs)
    table.rounds = sum(1 for _, outs in steps for o in outs if isinstance(o, VoteCounted) and o.day == day)
    table.spoken = {  # today's speeches before the crash: their scripts were said
        o.seat
        for _, outs in steps
        for o in outs
        if isinstance(o, PhaseStarted)
        and o.phase == Phase.SPEECH.value
        and o.day == day
        and o.seat is not None
    }
    past = (day, game.state.phase is not Phase.MORNING)
    table.best_moves = {n for n in range(1, len(script.nights) + 1) if past > (n + 1, False)}  # said before
    rnd = game.state.vote_round
    if rnd is not None and rnd.window > 0:
        table.rounds += 1  # the round under way was begun before the crash
    table.pending = [inp for inp, _ in steps[started + 1 :]]
    record_runtime(store.games, runtime, "simulate", game_id=row.id)
    return runtime, table


def fingerprint(script: Script) -> str:
    """What identifies a script's game: its preset, roles, days and nights."""
    import hashlib

    text = repr((script.preset.name, sorted(script.roles.items()), script.days, script.nights))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _check_own_script(store: Any, row: Any, record: list[Any], script: Script) -> None:
    """A resume carries on the game of the same script, or nothing is written."""
    from host_device.store import StoreError

    def refuse(why: str) -> None:
        raise StoreError(
            f"game {row.id} in {store.path} {why}; "
            "resume it with its own script, or start anew without --resume"
        )

    if row.preset != script.preset.name:
        refuse(f"is a {row.preset} game, the script is {script.preset.name}")
    stored = store.games.settings(row.id).get("script")
    if stored is not None and stored != fingerprint(script):
        refuse("was played from another script")
    deal = next((inp for _, _, inp in record if isinstance(inp, DealRoles)), None)
    if deal is not None and dict(deal.roles) != {
        s: r for s, r in script.roles.items() if r is not Role.CIVILIAN
    }:
        refuse("was dealt other roles than the script's")


def _die_after(runtime: Runtime, count: int, store: Any) -> None:
    import os
    import signal

    seen = {"n": 0}

    def maybe_die(inp: Input) -> None:
        seen["n"] += 1
        if seen["n"] >= count:
            os.kill(os.getpid(), signal.SIGKILL)

    runtime.before_input.append(maybe_die)  # after the store's commit: the input is recorded


def write_timeline(runtime: Runtime, path: Path) -> None:
    """One JSON line an entry; a phrase's entry carries the exact ``text`` said."""
    from voices.catalogue import russian

    with path.open("w", encoding="utf-8") as out:
        timeline = runtime.timeline
        for entry in timeline.in_order():
            data = as_dict(entry, isinstance(entry, Said) and timeline.is_dropped(entry))
            if isinstance(entry, Said):
                data["text"] = russian().text(entry.key, entry.slot_values)
            out.write(json.dumps(data, ensure_ascii=False) + "\n")
