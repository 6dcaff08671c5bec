"""What the private pages show, taken on the runtime's thread: the host's
console (``/host``) and each seat's phone (``/seat/N``).

A seat's page shows what its own LED would by day; its player's role (from
his turn of the device's deal on) and a check's answer appear there and
nowhere else, and only while he holds a press on them (the page). At the deal
and at night (:data:`DARK`) a phone's view carries no LED and its page looks
the same whatever the seat holds: the role and the answer are sent, never lit. The
console shows what the terminal's host screen shows (assist mode: keys,
messages, what waits for him; roles only in his host view, key «роли»); in
host mode it shows no secret, since whoever holds it may be a player —
except with ``--panel web``, where the whole table may be on one screen: a
console connection whose «Весь стол» switch is on (the marked switch on the
table page, remembered by the server for that connection alone) is sent
:func:`console_view` with ``leds``, every seat's LED; no other is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import Check, Foul, Phase, State
from engine.steps import DAY, FLOOR, NIGHT, NIGHT_CALLS, best_move_now
from host_device.club.chapters import game_chapters, lines
from host_device.runtime.assist import Assist, not_counted
from host_device.runtime.host_keys import KEYS, SHORT
from host_device.runtime.host_messages import describe
from host_device.runtime.loop import Runtime
from host_device.runtime.role_entry import ROLE_NAMES
from host_device.runtime.signals import check_words, signal_words
from host_device.runtime.timeline import Entry, Ignored, InputTaken, LedSet, Pressed, Undone
from host_device.screens.seating import Seating, player_dict
from host_device.screens.terminal import candidates_line, waiting_lines
from host_device.screens.titles import ended, shown_title

HOST_MODE_KEYS = ("next", "pause")  # the panel's host buttons that do something in host mode
CONSOLE_KEYS = tuple(name for name, *_ in KEYS if name != "help")  # the console shows its help itself
NOTICES = 5  # host mode: the console keeps the last few notices
DARK = NIGHT | {Phase.ROLES}  # a phone's page is dark, the same on every seat, and shows no LED


@dataclass
class PhoneNotes:
    """What a seat's phone keeps past its moment, followed on the runtime's
    timeline: the pattern its LED showed at the deal (his role, from his turn
    on), and why its last press by day counted for nothing (for that step)."""

    dealt: dict[int, str] = field(default_factory=dict)  # seat -> the deal's LED pattern
    refused: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat -> (step, reason)

    def follow(self, rt: Runtime, entry: Entry) -> None:
        phase = rt.game.phase
        match entry:
            case LedSet(seat=seat, pattern=pattern) if phase is Phase.ROLES and pattern != "off":
                self.dealt[seat] = pattern
            case Pressed(key=int() as seat):
                self.refused.pop(seat, None)  # a new press: counted, or refused anew below
            case Ignored(key=int() as seat, reason=reason) if phase in DAY:
                self.refused[seat] = (rt.step, reason)
            case _:
                pass


@dataclass
class Console:
    """The host's side of the pages, kept by whoever hosts (``run``)."""

    runtime: Runtime
    assist: Assist | None = None
    whole_table: bool = False  # --panel web: every seat is a phone; the «Весь стол» switch is offered
    typed: bool = False  # the speaker's words can be typed (no speech model)
    question: dict[str, str] | None = None  # a question waiting for the host: text, yes (next), no (undo)
    notices: list[str] = field(default_factory=list)
    seating: Seating = field(default_factory=Seating)  # who sits where, the extra points, the roster
    phones: PhoneNotes = field(default_factory=PhoneNotes)  # what the seats' phones keep

    # the game's time of each input of its record (by its place there), as the store keeps it: the
    # chapters after the end (a resumed game's earlier inputs: given by whoever resumes it)
    times: dict[int, float] = field(default_factory=dict)
    # (the record's length, its chapters' lines): made once the game has ended, not at each view
    _chapters: tuple[int, list[str] | None] = field(default=(-1, None), init=False, repr=False)

    def __post_init__(self) -> None:
        self.runtime.recorders.append(lambda entry: self.phones.follow(self.runtime, entry))
        self.runtime.recorders.append(self._time)

    def _time(self, entry: Entry) -> None:
        match entry:
            case InputTaken(t=t):
                self.times[len(self.runtime.game.record) - 1] = t
            case Undone(kept=kept):
                self.times = {i: t for i, t in self.times.items() if i < kept}
            case _:
                pass

    def chapters(self) -> list[str] | None:
        """The ended game's chapters from its start (club/chapters.py), or None where an
        input's time is not known here."""
        record = self.runtime.game.record
        if self._chapters[0] != len(record):
            known = all(i in self.times for i in range(len(record)))
            timed = [(self.times[i], inp) for i, inp in enumerate(record)] if known else None
            found = lines(game_chapters(self.runtime.game.preset, timed)) if timed else None
            self._chapters = (len(record), found)
        return self._chapters[1]

    def notice(self, text: str) -> None:
        self.notices = [*self.notices, text][-NOTICES:]


def seat_view(
    rt: Runtime, seat: int, seating: Seating | None = None, notes: PhoneNotes | None = None
) -> dict[str, Any]:
    """A seat's phone: its LED by day, its player's secrets (shown on a hold),
    the table's moment, the vote's candidate, why his press did not count,
    and his own name (picked from the club's roster on the phone)."""
    s = rt.game.state
    dark = s.phase in DARK
    notes = notes or PhoneNotes()
    return {
        "seat": seat,
        "title": shown_title(rt),
        "alive": seat not in s.out,
        "dark": dark,
        "led": "off" if dark else rt.leds.get(seat, "off"),  # at the deal and at night a LED is a secret
        "hint": _hint(s, seat),
        "vote": _vote(rt),
        "refused": _refused(rt, seat, notes),
        "over": ended(rt),
        # his own role (at the deal from his turn on) for the whole game, and a check's answer for
        # the step it was given in: a reload or a late phone still has them; the page shows them on a hold
        "role": _role(rt, seat, notes),
        "answer": _answer(rt, seat),
        "window": rt.step,  # a press names the step it was made in: refused once that step is over
        **_own_name(seat, seating),
    }


def _hint(s: State, seat: int) -> str:
    if s.phase is Phase.ROLES:
        return "Раздача ролей: когда назовут ваш номер, откройте глаза и удерживайте «Моя роль»"
    if s.phase in FLOOR and s.speaker == seat:
        return "Ваша речь: нажмите, чтобы закончить"
    if s.phase is Phase.VOTE:
        return "Голосование: нажмите, пока открыто окно"
    if s.phase in NIGHT_CALLS:
        return "Ночь: если вас разбудили, нажмите, когда назовут номер"
    if s.phase in NIGHT:
        return "Ночь"
    return "" if s.speaker is None else f"Говорит игрок {s.speaker}"


def _vote(rt: Runtime) -> dict[str, Any] | None:
    """The vote a press counts in now: its candidate (0: that all leave), and whether the window is open."""
    rnd = rt.game.state.vote_round
    if rt.game.phase is not Phase.VOTE or rnd is None:
        return None
    window = rt.window is not None and rt.window[0] <= rt.sched.now < rt.window[1]
    return {"candidate": rnd.current, "open": window}


def _refused(rt: Runtime, seat: int, notes: PhoneNotes) -> str | None:
    """Why his last press in this step counted for nothing, by day (at night a phone shows nothing)."""
    step, reason = notes.refused.get(seat, (None, ""))
    if step != rt.step or rt.game.phase not in DAY:
        return None
    return f"Нажатие не засчитано: {not_counted(reason)}"


def _role(rt: Runtime, seat: int, notes: PhoneNotes) -> str | None:
    s = rt.game.state
    if s.phase is not Phase.ROLES:
        return f"Ваша роль: {ROLE_NAMES[s.role(seat)]}"
    pattern = notes.dealt.get(seat)
    return None if pattern is None else signal_words(rt.game.preset, Phase.ROLES, None, pattern)


def _own_name(seat: int, seating: Seating | None) -> dict[str, Any]:
    """A phone's own name (no other seat's name), and that it may pick one: it
    searches the roster on the device (``{"find": …}``), never sent it whole."""
    if seating is None or not seating.enabled:
        return {}
    player = seating.players.get(seat)
    return {
        "player": None if player is None else player_dict(player),
        "held": seating.held.get(seat),  # picked at night: kept, and given in the morning
        "naming": True,
        "name_refused": seating.refused.get(seat),  # why the last name it sent was not taken
    }


def _answer(rt: Runtime, seat: int) -> str | None:
    """The answer to this seat's check made in the current step, in words, or None."""
    s = rt.game.state
    if s.phase is not Phase.NIGHT_CHECK or s.step_role is None or s.role(seat) is not s.step_role:
        return None
    made = [
        inp
        for inp in rt.game.record[rt.history.step_starts[-1] :]
        if isinstance(inp, Check) and inp.seat == seat
    ]
    if not made:
        return None
    rule = next((rule for rule in rt.game.preset.checks if rule.checker is s.step_role), None)
    if rule is None:
        return None
    found = s.role(made[0].target) in rule.finds
    words = check_words(rt.game.preset, s.step_role, found)
    return None if words is None else f"{words} (игрок {made[0].target})"


def console_view(console: Console, leds: bool = False) -> dict[str, Any]:
    """The console's view; ``leds``: with every seat's LED (a connection whose «Весь стол» switch is on)."""
    rt, assist = console.runtime, console.assist
    s = rt.game.state
    over = ended(rt)
    timer = rt.time_left()
    free = rt.free.left()
    show_roles = over or (assist is not None and assist.show_roles)
    nominated_by = {target: seat for seat, target in s.nominations.items()}
    rnd = s.vote_round
    selected = assist.roles.selected if assist is not None and assist.roles is not None else set()
    seats = []
    for seat in range(1, s.seats + 1):
        row: dict[str, Any] = {
            "seat": seat,
            "alive": seat not in s.out,
            "fouls": s.fouls.get(seat, 0),
            "nominated_by": nominated_by.get(seat),
            "voted": None if rnd is None else rnd.ballots.get(seat),
            "selected": seat in selected,
        }
        if show_roles:
            row["role"] = ROLE_NAMES[s.role(seat)]
        if leds:
            row["led"] = rt.leds.get(seat, "off")
        row.update(_seat_grid(console.seating, seat))
        seats.append(row)
    view: dict[str, Any] = {
        "mode": "host" if assist is None else "assist",
        "title": shown_title(rt),
        "table": console.seating.table,  # a tournament's table and round
        "paused": rt.sched.paused,
        "speaker": s.speaker,
        "time_left": None if timer is None else round(timer, 1),
        # the game's seconds before time_left counts down (its phrase is still said); None: it
        # stands still (paused, or no timer)
        "starts_in": None
        if rt.timer is None or rt.sched.paused
        else round(max(0.0, rt.timer[0] - rt.sched.now), 3),
        "free_left": None if free is None else round(free, 1),
        "question": console.question,
        "seats": seats,
        "whole_table": console.whole_table,
        "whole_on": leds,
        "window": rt.step,  # a whole-table press names the step it was made in, as a phone's does
        "vote": _vote(rt),  # the candidate a press counts for in that step (public), as a phone has it
        "typed": console.typed and s.phase is Phase.SPEECH,
        # the last word that has a best move: the console offers its entry (the seats said are public)
        "best_move_due": best_move_now(rt.game.preset, s),
        "best_move": list(s.best_move),
        "winner": s.winner.value if s.winner and over else None,
    }
    if over:  # the chapters name who left and who was killed: public once the end is said
        view["chapters"] = console.chapters()
    if console.seating.enabled:  # the seat grid: names from the roster, the extra points
        view["roster"] = console.seating.roster_view()
        view["extra_range"] = console.seating.extra_range()
    labels = {**SHORT, "pause": "продолжить"} if rt.sched.paused else SHORT
    if assist is None:
        view["keys"] = [{"name": k, "label": labels[k], "legal": not over} for k in HOST_MODE_KEYS]
        view["messages"] = console.notices
        last = rt.game.record[-1] if rt.game.record else None  # the device's foul, still withdrawable:
        view["withdraw_foul"] = describe(last) if isinstance(last, Foul) and last.by == "device" else None
        return view
    legal = set(assist.legal_keys())
    here = set(assist.keys_here())
    view["keys"] = [{"name": k, "label": labels[k], "legal": k in legal} for k in CONSOLE_KEYS if k in here]
    message = assist.shown_message()  # the host's notices come to him this way too (Host._notice)
    view["messages"] = [message] if message else []
    view["pending"] = assist.pending
    view["waiting"] = waiting_lines(assist)
    view["candidates"] = candidates_line(assist)
    view["transcript"] = assist.transcript
    view["timers"] = [label for label, _ in assist.timers]
    view["roles_entry"] = s.phase is Phase.ROLES and assist.roles is not None
    return view


def _seat_grid(seating: Seating, seat: int) -> dict[str, Any]:
    if not seating.enabled:
        return {}
    player = seating.players.get(seat)
    return {"player": None if player is None else player_dict(player), "extra": seating.extras.get(seat)}
