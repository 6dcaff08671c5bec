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
from host_device.runtime.host_keys import CHARS, SHORT
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import when_said
from host_device.screens.public import table_may_know
from host_device.screens.titles import clock, elapsed, title

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
        runtime.recorders.append(self.entry)

    def entry(self, entry: dict[str, Any]) -> None:
        """A runtime recorder: each timeline entry as it is written."""
        rt = self.runtime
        kind, t = entry["type"], entry["t"]
        if not table_may_know(entry, rt.game.state.phase):
            return
        if kind == "say":
            when_said(rt, entry, self._say)
        elif kind == "heard" and entry.get("seat") is not None:
            verb = "выставляю" if entry["intent"] == "nominate" else "снимаю"
            speaker = rt.game.state.speaker
            self.write(f"{elapsed(t)}    игрок {speaker}: «… {verb} игрока номер {entry['seat']} …»")
        elif kind == "press":
            self.write(f"{elapsed(t)}    кнопка игрока {entry['key']}")
        elif kind == "unsaid" and entry.get("seat") is not None:  # a turn ended before it was announced
            self.write(f"{elapsed(t)}    игрок {entry['seat']}: слово пропущено (не объявлено)")
        elif kind == "host_key" and entry["key"] in CHARS:
            line = f"{elapsed(t)}    ведущий: [{CHARS[entry['key']]}] {SHORT[entry['key']]}"
            rt.sched.at(t, functools.partial(self.write, line))  # after what is said at that moment

    def _say(self, entry: dict[str, Any], slots: dict[str, Any]) -> None:
        self.write(f"{elapsed(entry['t'])} Ведущий: {self.text(entry['key'], slots)}")
        if self.on_say is not None:
            self.on_say(entry["key"], slots)


def status(runtime: Runtime) -> str:
    """One line: the step, who speaks or is voted on, the time left."""
    s = runtime.game.state
    parts = [title(s)]
    if s.speaker is not None and s.phase is not Phase.GAME_OVER:
        parts.append(f"говорит игрок {s.speaker}")
    elif s.phase is Phase.VOTE and s.vote_round is not None and s.vote_round.current:
        parts.append(f"за игрока {s.vote_round.current}")
    if runtime.window is not None and runtime.window[0] <= runtime.sched.now < runtime.window[1]:
        parts.append("окно голосования открыто")
    timer = runtime.time_left()
    if timer is not None:
        parts.append(clock(timer))
    if runtime.sched.paused:
        parts.append("ПАУЗА")
    return " · ".join(parts)


class StatusLine:
    """The narration's lines on a terminal, with the status line kept under
    them (redrawn in place). The keyboard panel does the same with its LEDs."""

    def __init__(self, out: TextIO, width: int = 80) -> None:
        self.out = out
        self.width = width
        self.status = ""

    def draw(self) -> None:
        self._write(f"\r{self.status[: self.width - 1]}\x1b[K")

    def write_line(self, text: str) -> None:
        self._write(f"\r\x1b[K{text}\n")
        self.draw()

    def close(self) -> None:
        """The status line goes; what is printed next starts on a clean line."""
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
