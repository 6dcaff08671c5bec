"""What the table may know (:func:`host_device.screens.public.table_may_know`
decides), as lines on a terminal: each phrase when it is said, the
nominations heard in a speech, the presses in a vote, the host's keys
(assist mode's demo), and a status line with the step, the speaker and his
time left. ``demo`` prints it; so does ``run`` in host mode (``--quiet`` for
none).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Any, TextIO

from engine import Phase
from host_device.base.text import encodable
from host_device.runtime.host_keys import CHARS, HOST_MODE_ELSE, HOST_MODE_UNKNOWN, HOST_MODE_WHY, SHORT
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import (
    ConsoleUsed,
    Entry,
    HeardIntent,
    HostKeyPressed,
    Ignored,
    InputTaken,
    Pressed,
    Said,
    Unsaid,
    when_said,
)
from host_device.screens.public import table_may_know
from host_device.screens.titles import clock, elapsed, shown_title

Text = Callable[[str, dict[str, Any]], str]  # a phrase key and its slots to the words said


class Narration:
    def __init__(
        self,
        runtime: Runtime,
        text: Text,
        write: Callable[[str], None],
        on_say: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        self.runtime = runtime
        self.text = text
        self.write = write  # one line, without its newline
        self.on_say = on_say  # the demo also plays the phrase
        self._pressed: Pressed | None = None  # a press whose line waits for what it did
        runtime.recorders.append(self.entry)

    def entry(self, entry: Entry) -> None:
        """A runtime recorder: each timeline entry as it is written."""
        rt = self.runtime
        t = entry.t
        pending, self._pressed = self._pressed, None
        if pending is not None:  # the entry after a press says whether it counted
            self._press(pending, counted=isinstance(entry, InputTaken), closed=isinstance(entry, Ignored))
        if isinstance(entry, Pressed) and isinstance(entry.key, str):
            self._host_button(entry)
        if not table_may_know(entry, rt.game.state.phase):
            return
        match entry:
            case Said():
                when_said(rt.sched, rt.timeline, entry, self._say)
            case HeardIntent(intent=intent) if intent.seat is not None:
                verb = "выставляю" if intent.intent == "nominate" else "снимаю"
                speaker = rt.game.state.speaker
                self.write(f"{elapsed(t)}    игрок {speaker}: «… {verb} игрока номер {intent.seat} …»")
            case HeardIntent(intent=intent) if intent.intent == "best_move":
                named = ", ".join(map(str, intent.seats))
                self.write(f"{elapsed(t)}    игрок {rt.game.state.speaker}: «… лучший ход: {named} …»")
            case Pressed():
                self._pressed = entry  # written once the runtime has taken it or not
            case Unsaid(seat=seat) if seat is not None:  # a turn ended before it was announced
                self.write(f"{elapsed(t)}    игрок {seat}: слово пропущено (не объявлено)")
            case ConsoleUsed(text=text):  # host mode: what the console did to the game
                self.write(f"{elapsed(t)}    {text}")
            case HostKeyPressed(key=key) if key in CHARS:
                line = f"{elapsed(t)}    ведущий: [{CHARS[key]}] {SHORT[key]}"
                rt.sched.at(t, functools.partial(self.write, line))  # after what is said at that moment
            case _:
                pass

    def _press(self, entry: Pressed, counted: bool, closed: bool) -> None:
        """A press the table saw: a seat's in a vote (public), or «Дальше» in a pause; ``closed``:
        ignored as outside the vote's window (before it opens, or after)."""
        line = f"{elapsed(entry.t)}    " + (
            f"кнопка игрока {entry.key}" if isinstance(entry.key, int) else "«Дальше»"
        )
        paused = self.runtime.sched.paused
        if not counted:
            line += " — не засчитано" + (": окно голосования закрыто" if closed else "")
        elif entry.key == "next" and paused:
            line += " на паузе: шаг пройден, объявление — после паузы"
        elif paused:
            line += " — засчитано: окно голосования стоит на паузе"
        self.write(line)

    def _host_button(self, entry: Pressed) -> None:
        """A host button in host mode: «Дальше» in a pause is said with what
        it did; «Пауза» is said by its own phrase; any other key does nothing
        here, and says why."""
        key = entry.key
        if key == "next":
            if self.runtime.sched.paused:
                self._pressed = entry
            return
        if key == "pause":
            return
        what = HOST_MODE_UNKNOWN
        if isinstance(key, str) and key in CHARS:
            what = f"[{CHARS[key]}] {SHORT[key]}: {HOST_MODE_WHY.get(key, HOST_MODE_ELSE)}"
        self.write(f"{elapsed(entry.t)}    {what}")

    def _say(self, said: Said) -> None:
        slots = said.slot_values
        self.write(f"{elapsed(said.t)} Ведущий: {self.text(said.key, slots)}")
        if self.on_say is not None:
            self.on_say(said.key, slots)


def status(runtime: Runtime, timer: bool = True) -> str:
    """One line: the step, who speaks or is voted on, the time left (``timer``), a pause."""
    s = runtime.game.state
    parts = [shown_title(runtime)]
    if s.speaker is not None and s.phase is not Phase.GAME_OVER:
        parts.append(f"говорит игрок {s.speaker}")
    elif s.phase is Phase.VOTE and s.vote_round is not None and s.vote_round.current:
        parts.append(f"за игрока {s.vote_round.current}")
    if runtime.window is not None and runtime.window[0] <= runtime.sched.now < runtime.window[1]:
        parts.append("окно голосования открыто")
    left = runtime.time_left()
    if left is not None and timer:
        parts.append(clock(left))
    if runtime.sched.paused:
        parts.append("ПАУЗА")
    return " · ".join(parts)


class StatusLine:
    """The narration's lines on a terminal, with the status line kept under
    them (redrawn in place). The keyboard panel does the same with its LEDs.
    Not a terminal (a file, a pipe): the status is a plain line of its own,
    written when it changes (``live`` False: the host leaves the seconds out
    of it)."""

    def __init__(self, out: TextIO, width: int = 80) -> None:
        self.out = out
        self.width = width
        self.status = ""
        try:
            self.live = out.isatty()
        except (OSError, ValueError, AttributeError):
            self.live = False
        self._printed = ""

    def draw(self) -> None:
        if self.live:
            self._write(f"\r{self.status[: self.width - 1]}\x1b[K")
        elif self.status and self.status != self._printed:
            self._printed = self.status
            self._write(self.status + "\n")

    def write_line(self, text: str) -> None:
        if not self.live:
            self._write(text + "\n")
            return
        self._write(f"\r\x1b[K{text}\n")
        self.draw()

    def close(self) -> None:
        """The status line goes; what is printed next starts on a clean line."""
        if self.live:
            self._write("\r\x1b[K")
        self.out = io.StringIO()

    def _write(self, text: str) -> None:
        try:
            self.out.write(encodable(text, getattr(self.out, "encoding", None)))
            self.out.flush()
        except (OSError, ValueError):  # the terminal is gone: the game goes on without it
            self.out = io.StringIO()


class PlainLines:
    """The narration's lines with no status line (no terminal: a service's journal)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.status = ""
        self.live = False

    def draw(self) -> None:
        return

    def close(self) -> None:
        return

    def write_line(self, text: str) -> None:
        try:
            self.out.write(encodable(text, getattr(self.out, "encoding", None)) + "\n")
            self.out.flush()
        except (OSError, ValueError):
            self.out = io.StringIO()
