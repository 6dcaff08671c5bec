"""What the private pages show, taken on the runtime's thread: the host's
console (``/host``) and each seat's phone (``/seat/N``).

A seat's page shows what its own LED would: its player's role at the
device's deal and a check's answer appear there and nowhere else. The
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

from engine import Check, Foul, Phase
from engine.steps import FLOOR, NIGHT_CALLS, best_move_now
from host_device.runtime.assist import Assist
from host_device.runtime.host_keys import KEYS, SHORT
from host_device.runtime.host_messages import describe
from host_device.runtime.loop import Runtime
from host_device.runtime.role_entry import ROLE_NAMES
from host_device.runtime.signals import check_words, signal_words
from host_device.screens.seating import Seating, player_dict
from host_device.screens.terminal import candidates_line, waiting_lines
from host_device.screens.titles import title

HOST_MODE_KEYS = ("next", "pause")  # the panel's host buttons that do something in host mode
CONSOLE_KEYS = tuple(name for name, *_ in KEYS if name != "help")  # the console shows its help itself
NOTICES = 5  # host mode: the console keeps the last few notices


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

    def notice(self, text: str) -> None:
        self.notices = [*self.notices, text][-NOTICES:]


def seat_view(rt: Runtime, seat: int, seating: Seating | None = None) -> dict[str, Any]:
    """A seat's phone: its LED, what it means for him alone, the table's
    moment, and his own name (picked from the club's roster on the phone)."""
    s = rt.game.state
    led = rt.leds.get(seat, "off")
    speaking = s.phase in FLOOR and s.speaker == seat
    if s.phase is Phase.ROLES:
        hint = "Раздача ролей: когда назовут ваш номер, смотрите на экран"
    elif speaking:
        hint = "Ваша речь: нажмите, чтобы закончить"
    elif s.phase is Phase.VOTE:
        hint = "Голосование: нажмите, пока открыто окно"
    elif s.phase in NIGHT_CALLS:
        hint = "Ночь: если вас разбудили, нажмите, когда назовут номер"
    elif s.speaker is not None:
        hint = f"Говорит игрок {s.speaker}"
    else:
        hint = ""
    return {
        "seat": seat,
        "title": title(s),
        "alive": seat not in s.out,
        "led": led,
        "signal": signal_words(rt.game.preset, s.phase, s.step_role, led),
        "hint": hint,
        "over": s.phase is Phase.GAME_OVER,
        # his own role, once dealt, for the whole game (the page shows it on a press), and a
        # check's answer for the step it was given in: a reload or a late phone still has them
        "role": None if s.phase is Phase.ROLES else f"Ваша роль: {ROLE_NAMES[s.role(seat)]}",
        "answer": _answer(rt, seat),
        "window": rt.step,  # a press names the step it was made in: refused once that step is over
        **_own_name(seat, seating),
    }


def _own_name(seat: int, seating: Seating | None) -> dict[str, Any]:
    """A phone's own name and the roster to pick it from (no other seat's name)."""
    if seating is None or not seating.enabled:
        return {}
    player = seating.players.get(seat)
    return {"player": None if player is None else player_dict(player), "roster": seating.roster_view()}


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
    over = s.phase is Phase.GAME_OVER
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
        "title": title(s),
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
        "typed": console.typed and s.phase is Phase.SPEECH,
        # the last word that has a best move: the console offers its entry (the seats said are public)
        "best_move_due": best_move_now(rt.game.preset, s),
        "best_move": list(s.best_move),
        "winner": s.winner.value if s.winner else None,
    }
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
