"""What the whole table may know, as a stream of events and a state: the one
place that decides it, for the table page, ``GET /api/state`` and the
``/api/events`` stream (and a club's screen or overlay reading them).

Public: every phrase when it is said (with its text), the timers and the
tone, the engine's events of the day (nominations, votes with who pressed,
ties, fouls, departures, a role the rules reveal, the best move's seats), each step's title, the
LEDs of the day; of the runtime's timeline also what the table sees or
hears done (:func:`table_may_know`: a nomination heard in a speech, a press
in a vote, the host's keys). Never public before the game ends: the roles, a
night press (a shot, a check), a check's answer, any LED at the deal or at
night (there they carry roles and answers). At the end the roles are
revealed, once the device has said the end («…Победа мафии!», then each
black role): the table sees nothing of it before it is said. The players'
names (who sits where) are public before the deal (while the table seats
itself), once the game has ended, and during it when the club's config says
so (``[club] show_names``); the host's extra points never before the end.
The console's line («С пульта: …») stays until the step it was made in has
ended and it has been up :data:`CONSOLE_LINE_S`. The terminal's narration
prints from the same decision.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from engine import Phase
from engine.outputs import GameEnded, Output, PhaseStarted, PlayerLeft, VoteCounted
from engine.serial import to_dict
from engine.steps import DAY, NIGHT_CALLS
from engine.summary import departure, summary
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import (
    ConsoleUsed,
    Entry,
    HeardIntent,
    HostKeyPressed,
    LedSet,
    Paused,
    Pressed,
    Resumed,
    Said,
    TimerStarted,
    Tone,
    Unsaid,
    as_dict,
    when_said,
)
from host_device.screens.seating import Seating
from host_device.screens.titles import title

PUBLIC_OUTPUTS = frozenset(
    {
        "phase_started",
        "nomination_accepted",
        "nomination_withdrawn",
        "speech_skipped",
        "speeches_ended",
        "vote_taken",
        "vote_counted",
        "tie",
        "no_vote",
        "foul_given",
        "silenced",
        "player_left",
        "role_revealed",
        "game_ended",
        "alibi_refused",
        "golden_minute_taken",
        "best_move_made",  # said aloud; how many of its seats are black is told after the game only
    }
)  # shot_taken, check_made, show_check, visit_made, life_saved never leave the device before the end

DEAL_BEGINS = frozenset({"game_starts", "game_resumed"})  # the game's first words: names hide from here
CONSOLE_LINE_S = 15.0  # the console's line stays at least this long (game seconds), and through its step

SEEN_AND_HEARD = (Said, Unsaid, TimerStarted, Tone, Paused, Resumed, HeardIntent, HostKeyPressed, ConsoleUsed)


def table_may_know(entry: Entry, phase: Phase) -> bool:
    """Whether the whole table may know a runtime timeline entry written in
    ``phase``: an LED only by day, a seat's press only in a vote (a night's
    press is a shot or a check), a rejection or an ignored press never. (A
    day's LED turned off is news only if the table saw it lit: the stream
    keeps what it told, so a LED lit at night and put out once the day has
    begun — «Дальше» while a check's answer shows — is never told.)"""
    if isinstance(entry, LedSet):
        return phase in DAY
    if isinstance(entry, Pressed):
        return phase is Phase.VOTE and isinstance(entry.key, int)
    return isinstance(entry, SEEN_AND_HEARD)


Event = dict[str, Any]
Text = Callable[[str, dict[str, Any]], str]


class PublicStream:
    """Follows a runtime and hands each public event, with its time, to the
    listeners (the web server's fan-out, a test's list)."""

    def __init__(self, runtime: Runtime, text: Text) -> None:
        self.runtime = runtime
        self.text = text
        self.listeners: list[Callable[[Event], None]] = []
        self.last_phrase = ""
        self.leds: dict[int, str] = {}  # the day's LEDs as the table sees them
        self.departed: dict[int, dict[str, Any]] = {}  # seat -> how and when
        self.counted: dict[str, Any] | None = None  # the day's last vote, counted (gone at night)
        self.called: int | None = None  # the number the night's step called last (said aloud)
        self.console_line: str | None = None  # host mode: the console's last use («С пульта: …»)
        self._console_made: tuple[int, float] = (0, 0.0)  # its step, and when it may go
        self.deal_begun = False  # the game began (its first words): the names are no longer the seating
        state = runtime.game.state
        self.told_step = (state.phase.value, title(state))  # the last step the table was shown: phase, title
        self._end_held: list[Event] = []  # the end's events, waiting for its words to be said
        self.end_told = state.phase is Phase.GAME_OVER  # a game followed from its end: told
        self._replay()
        self._stale = False
        self.seating = Seating()  # the session's, when a store keeps the game (names, extra points)
        runtime.recorders.append(self._entry)
        runtime.observers.append(self._outputs)
        runtime.undo_hooks.append(lambda keep: self.reread())
        runtime.step_hooks.append(self._step)

    def reread(self) -> None:
        """The game was rebuilt (an undo brings a voted-out player back; a
        resumed game has its own departures): read them again when asked."""
        self._stale = True

    def departures(self) -> dict[int, dict[str, Any]]:
        if self._stale:
            self._replay()
        return self.departed

    def _replay(self) -> None:
        """Who left and how, and the day's last count, from the game's record (public: each is announced)."""
        from engine import Game

        game = Game(self.runtime.game.preset)
        outputs = [o for inp in self.runtime.game.record for o in game.handle(inp)]
        told = summary(outputs)
        self.departed = {left["seat"]: {k: v for k, v in left.items() if k != "seat"} for left in told["out"]}
        self.counted = None
        for output in outputs:
            self._count(output)
        self._stale = False

    def _count(self, output: Output) -> None:
        """The day's last vote counted, kept for the table page until the night."""
        if isinstance(output, VoteCounted):
            counts = [list(c) for c in output.counts]
            self.counted = {"kind": output.kind, "counts": counts, "nobody": output.nobody}
        elif isinstance(output, PhaseStarted) and Phase(output.phase) not in DAY:
            self.counted = None

    def before_deal(self) -> bool:
        """The table is still seating itself: no input yet, nor the game's first words."""
        game = self.runtime.game
        return game.phase is Phase.ROLES and not game.record and not self.deal_begun

    def over(self) -> bool:
        """The end is shown: the game has ended and «Победа …» has been said."""
        return self.runtime.game.state.phase is Phase.GAME_OVER and self.end_told

    def names_changed(self) -> None:
        """Someone was seated or renamed: told only where names are public."""
        names = public_names(self)
        if names is not None:
            self._emit({"t": round(self.runtime.sched.now, 3), "type": "names", "names": names})

    def _emit(self, event: Event) -> None:
        for listen in self.listeners:
            listen(event)

    def _entry(self, entry: Entry) -> None:
        rt = self.runtime
        t = entry.t
        if isinstance(entry, Said) and entry.key in DEAL_BEGINS:
            self.deal_begun = True  # queued: the deal begins (what is said is sent when it is said)
        if not table_may_know(entry, rt.game.phase):
            return
        match entry:
            case Said():
                when_said(rt.sched, rt.timeline, entry, self._said)
            case TimerStarted() | Tone():  # written ahead (a timer starts when its phrase ends): sent then
                event = {k: v for k, v in as_dict(entry).items() if k != "why"}
                rt.sched.at(t, functools.partial(self._emit, event))
            case LedSet(seat=seat, pattern=pattern):
                if pattern == "off" and self.leds.get(seat, "off") == "off":
                    return  # a LED the table never saw lit (the night's, the deal's): its end is no news
                self.leds[seat] = pattern
                self._emit({"t": t, "type": "led", "seat": seat, "pattern": pattern})
            case Paused() | Resumed():
                self._emit({"t": t, "type": entry.TYPE})
            case ConsoleUsed(text=text):  # host mode: what the console did, shown on the table page
                self.console_line = text
                self._console_made = (rt.step, t + CONSOLE_LINE_S)
                self._emit({"t": t, "type": entry.TYPE, "text": text})
                rt.sched.at(t + CONSOLE_LINE_S, self._console_gone)
            case _:
                pass

    def _console_gone(self) -> None:
        """The console's line goes once the step it was made in has ended
        and it has been up :data:`CONSOLE_LINE_S` (a «спасибо» typed ends
        its step at once: the table still reads it); told as ``text`` null."""
        step, until = self._console_made
        rt = self.runtime
        if self.console_line is None or rt.step == step or rt.sched.now < until:
            return
        self.console_line = None
        self._emit({"t": round(rt.sched.now, 3), "type": ConsoleUsed.TYPE, "text": None})

    def _step(self, rt: Runtime) -> None:
        """A vote window opens when its question has been said and closes at
        «Спасибо»: each moment is an event (the pages light «голосуйте»).
        The console's line of a step before may go now."""
        self._console_gone()
        if self._end_held:  # the end's step: told when its words are said (the runtime's step_said)
            rt.sched.at(rt.opened_until, self._tell_end)
        if rt.game.phase is not Phase.VOTE or rt.window is None:
            return
        step = rt.step
        for t, is_open in zip(rt.window, (True, False), strict=True):
            if t != float("inf"):
                rt.sched.at(t, functools.partial(self._window, step, round(t, 3), is_open))

    def _window(self, step: int, t: float, is_open: bool) -> None:
        if step == self.runtime.step:
            self._emit({"t": t, "type": "window", "open": is_open})

    def _said(self, said: Said) -> None:
        self.last_phrase = self.text(said.key, said.slot_values)
        if said.key == "call":
            self.called = said.slot("seat")
        self._emit({"t": said.t, "type": "say", "key": said.key, "text": self.last_phrase})

    def _tell_end(self) -> None:
        """The end's words have been said («…Победа мафии!», then each black
        role): the end is shown from now — «Игра окончена», the winner, the
        roles, the names (an undo that took the end back leaves it untold)."""
        rt = self.runtime
        if not self._end_held or rt.game.phase is not Phase.GAME_OVER or not rt.step_said:
            return
        held, self._end_held = self._end_held, []
        self.end_told = True
        for event in held:
            self._emit({**event, "t": round(rt.sched.now, 3)})

    def _outputs(self, outputs: list[Output]) -> None:
        t = round(self.runtime.sched.now, 3)
        for output in outputs:
            if output.TYPE not in PUBLIC_OUTPUTS:
                continue
            event = {"t": t, **to_dict(output)}
            self._count(output)
            if isinstance(output, PhaseStarted):
                self.called = None
                event.pop("role", None)
                event["title"] = title(self.runtime.game.state)
                if Phase(output.phase) not in DAY:
                    self.leds = {}  # the night's and the deal's LEDs are nobody's business
            if isinstance(output, PlayerLeft):
                self.departed[output.seat] = departure(output)
            if isinstance(output, GameEnded):
                event["roles"] = {str(seat): role.value for seat, role in output.roles}
                event["names"] = self.seating.names()
            if isinstance(output, PhaseStarted) and Phase(output.phase) is not Phase.GAME_OVER:
                self.told_step = (output.phase, event["title"])
            elif isinstance(output, PhaseStarted | GameEnded):  # shown once its words are said: _tell_end
                self._end_held = [*self._end_held, event] if isinstance(output, GameEnded) else [event]
                self.end_told = False
                continue
            self._emit(event)


def public_names(stream: PublicStream) -> dict[str, str] | None:
    """Who sits where, if the table may know: before the deal (the table
    seats itself: who sits where is no secret), after the end, or during the
    game with ``[club] show_names``; None: not public now."""
    public = stream.before_deal() or stream.over() or stream.seating.show_names
    return stream.seating.names() if public else None


def public_extras(stream: PublicStream) -> dict[str, float] | None:
    """The host's extra points: public once the game has ended, never before."""
    return {str(seat): p for seat, p in sorted(stream.seating.extras.items())} if stream.over() else None


def public_state(stream: PublicStream) -> dict[str, Any]:
    """What the table page shows, as JSON: no role before the end, no name
    before it unless the club allows (:func:`public_names`). An end not yet
    said aloud is not shown: the step the table was shown last stands."""
    rt = stream.runtime
    s = rt.game.state
    over = stream.over()
    phase, step_title = s.phase.value, title(s)
    if s.phase is Phase.GAME_OVER and not over:
        phase, step_title = stream.told_step
    day = s.phase in DAY
    timer = rt.time_left()
    rnd = s.vote_round
    departures = stream.departures()
    names = public_names(stream)
    extras = public_extras(stream)
    seats = []
    for seat in range(1, s.seats + 1):
        row: dict[str, Any] = {
            "seat": seat,
            "alive": seat not in s.out,
            "left": departures.get(seat),
            "fouls": s.fouls.get(seat, 0),
            "led": stream.leds.get(seat, "off") if day else "off",
        }
        if over:
            row["role"] = s.role(seat).value
        if names is not None and str(seat) in names:
            row["name"] = names[str(seat)]
        if extras is not None and str(seat) in extras:
            row["extra"] = extras[str(seat)]
        seats.append(row)
    return {
        "preset": rt.game.preset.name,
        "day": s.day,
        "phase": phase,
        "title": step_title,
        "table": stream.seating.table,  # a tournament's table and round, shown before the title
        "paused": rt.sched.paused,
        "speaker": s.speaker,
        "time_left": None if timer is None else round(timer, 1),
        # the day's nominations end with it: the night (and the end) show none
        "nominations": [{"by": by, "seat": target} for by, target in s.nominations.items()] if day else [],
        "candidates": list(s.candidates) if day else [],
        "tied": list(s.tied),  # a tie's candidates, through their speeches and the revote
        "vote": None
        if rnd is None
        else {
            "kind": rnd.kind.value,
            "candidates": list(rnd.candidates),
            "candidate": rnd.current,
            "window_open": rt.window is not None and rt.window[0] <= rt.sched.now < rt.window[1],
            "ballots": {str(voter): c for voter, c in rnd.ballots.items()},
        },
        "seats": seats,
        "counted": stream.counted if day else None,  # the day's last vote: each candidate's votes
        "called": stream.called if s.phase in NIGHT_CALLS else None,  # the night's number, said aloud
        "last_phrase": stream.last_phrase,
        "console": stream.console_line,
        "winner": s.winner.value if s.winner and over else None,
    }
