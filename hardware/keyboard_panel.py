"""A panel on the terminal, for a laptop with no Pi: keys for the seats and
host buttons, and the seats' LEDs drawn on one line (a symbol for each
pattern, their legend printed once above it).

    seats 1-9: 1..9, seat 10: 0, seat 11: -, seat 12: =
    host buttons: n (next), p (pause), u (undo)
    assist mode's host keys: f v w y x g k c t r h, Enter, Esc or Backspace
    (host_device/runtime/host_keys.py says what each does); the same keys in the
    Russian layout (т з г а м ц н ч п л с е к р) mean the same; any other key
    is "unknown" (so that it can be refused with a message, not ignored)
    Tab: a line for the speaker's words («я выставляю игрока номер семь»),
    sent with Enter as if he had said them (Esc drops it); while it is open
    every key is a letter of it, not a button

A key is a press and a release at once (a terminal cannot tell how long a key
is held), so there is no bounce and no stuck key here: a host button's key
is a short press (the box counts «Дальше» when it is let go). A hold has
its own key: N (Т in the Russian layout, Shift and the key) is «Дальше»
held, the box's menu. «Пауза» held (the power-off) has none: a laptop is
not the box.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import queue
import select
import shutil
import sys
import threading
from typing import Any, TextIO

from hardware.events import HOLDS, Clock, HardwareEvent, Held, Key, TypedLine
from hardware.panel import OFF, PATTERN_WORDS, PATTERNS, EdgeFilter, LedPattern, Panel

SEAT_KEYS = "1234567890-="
HOST_KEYS = {
    "n": "next",
    "p": "pause",
    "u": "undo",
    "f": "foul",
    "v": "nominate",
    "w": "withdraw",
    "y": "confirm",
    "x": "reject",
    "g": "count",
    "k": "kill",
    "c": "check",
    "d": "heal",
    "l": "visit",
    "z": "golden",
    "t": "timer",
    "r": "roles",
    "h": "help",
    "\n": "enter",
    "\r": "enter",
    "\x1b": "cancel",
    "\x7f": "cancel",
}
LATIN = "npufvwyxgkcdlztrh"
CYRILLIC = "тзгамцнчплсвдяекр"  # the same physical keys in the Russian layout (ЙЦУКЕН)
HOST_KEYS.update({cyr: HOST_KEYS[lat] for lat, cyr in zip(LATIN, CYRILLIC, strict=True)})
HELD_KEYS = {"N": "next", "Т": "next"}  # Shift and the key: «Дальше» held (the box's menu)
UNKNOWN = "unknown"
# Every pattern the device lights (hardware/panel.py PATTERNS) has its own
# symbol, so that the deal's signals differ on the screen as on the LEDs
# (the Don's fast blinking is not the mafia's blinking); the legend says
# each in the words of the players' card (hardware/panel.py PATTERN_WORDS).
SYMBOLS = {"off": "○", "on": "●", "pulse": "◑", "blink": "◐", "fast": "◉", "flash": "◎", "slow": "◒"}
NAMES = {pattern: name for name, pattern in PATTERNS.items()}
TYPE_KEY = "\t"
MAX_TYPED = 200  # characters in one typed line


def _is_tty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def symbol(pattern: LedPattern) -> str:
    """A pattern's symbol (one of no name of ours: its kind's)."""
    return SYMBOLS[NAMES.get(pattern, pattern.kind)]


def legend(width: int) -> list[str]:
    """What each symbol means, in lines under ``width`` columns."""
    lines = ["огоньки:"]
    for name in PATTERNS:
        item = f"  {SYMBOLS[name]} {PATTERN_WORDS[name]}"
        if len(lines[-1]) + len(item) > width - 1:
            lines.append("")
        lines[-1] += item
    return lines


def key_for(char: str, seats: int) -> Key | None:
    """The key a character is: a seat, a host key, "unknown" for any other
    key, None for nothing (a control character that is not a key of ours)."""
    if char in HOST_KEYS:
        return HOST_KEYS[char]
    index = SEAT_KEYS.find(char)
    if 0 <= index < seats:
        return index + 1
    return UNKNOWN if char.isprintable() and char else None


class KeyboardPanel(Panel):
    def __init__(
        self,
        seats: int,
        clock: Clock,
        events: queue.Queue[HardwareEvent] | None = None,
        keys_fd: int | None = None,
        out: TextIO | None = None,
        draw: bool = True,
        width: int | None = None,  # the terminal's
    ) -> None:
        if not 1 <= seats <= len(SEAT_KEYS):
            raise ValueError(f"the keyboard panel has keys for 1 to {len(SEAT_KEYS)} seats, not {seats}")
        self.seats = seats
        self.events = events if events is not None else queue.Queue()
        keys: list[Key] = [*range(1, seats + 1), *dict.fromkeys(HOST_KEYS.values()), UNKNOWN]
        self.filter = EdgeFilter(
            keys, clock, self.events, debounce_s=0.0, stuck_after_s=float("inf"), holds=HOLDS
        )
        self.leds: dict[int, LedPattern] = dict.fromkeys(range(1, seats + 1), OFF)
        self.out = out if out is not None else sys.stdout
        self.drawing = draw  # off when another view (assist mode's host screen) owns the terminal
        self.fd = keys_fd if keys_fd is not None else sys.stdin.fileno()
        self.clock = clock
        self.typed: str | None = None  # the speaker's words being typed (Tab … Enter)
        self.status = ""  # the game's line, drawn before the LEDs (set by the game's thread)
        self.live = _is_tty(self.out)  # a terminal: the status line is redrawn in place
        self._printed = ""  # without one: the status as last written, a plain line
        self.width = width or (shutil.get_terminal_size((80, 24)).columns if self.live else 80)
        self._saved: Any = None
        self._closed = threading.Event()
        if os.isatty(self.fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)  # keys arrive one by one, unechoed; Ctrl-C still works
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        if self.drawing and self.live:  # what the LEDs' symbols mean, once above the status line
            with contextlib.suppress(OSError, ValueError):
                self.out.write("\n".join(legend(self.width)) + "\n")
        self.draw()

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")  # a Cyrillic key is two bytes
        while not self._closed.is_set():
            try:  # a short wait, so that a closed panel stops reading before its descriptor is reused
                ready, _, _ = select.select([self.fd], [], [], 0.1)
                if not ready:
                    continue
                data = os.read(self.fd, 1)
            except (OSError, ValueError):
                return
            if not data:
                return
            char = decoder.decode(data)
            if char:
                self.key(char)

    def key(self, char: str) -> None:
        """One character from the terminal: a button, or a letter of the typed line."""
        if self.typed is not None:
            self._type(char)
            return
        if char == TYPE_KEY:
            self.typed = ""
            self.draw()
            return
        held = HELD_KEYS.get(char)
        key = held or key_for(char, self.seats)
        if key is not None:
            self.filter.edge(key, True)
            if held is not None:  # reported as the panel's poll reports a hold
                self.events.put(Held(key=held, seconds=HOLDS[held], at=self.clock()))
            self.filter.edge(key, False)

    def _type(self, char: str) -> None:
        assert self.typed is not None
        if char in "\r\n":
            text, self.typed = self.typed.strip(), None
            if text:
                self.events.put(TypedLine(text=text, at=self.clock()))
        elif char == "\x1b":
            self.typed = None
        elif char in "\x7f\b":
            self.typed = self.typed[:-1]
        elif char.isprintable() and len(self.typed) < MAX_TYPED:
            self.typed += char
        self.draw()

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        self.leds[seat] = pattern
        self.draw()

    def line(self) -> str:
        """The status line: the words being typed, or the game's line and the LEDs,
        never wider than the terminal (the step's line is cut, the LEDs are not)."""
        typing = self.typing_line(self.width)
        if typing is not None:
            return typing
        room = self.width - 1
        leds = " ".join(f"{seat}{symbol(p)}" for seat, p in self.leds.items())
        if not self.status:
            return leds[:room]
        status = self.status
        if len(status) + 3 + len(leds) > room:  # «…» where the step's line is cut
            status = status[: max(0, room - 3 - len(leds) - 1)] + "…"
        return f"{status} │ {leds}"[:room]

    def typing_line(self, width: int) -> str | None:
        """The speaker's words being typed (Tab … Enter), as one line under
        ``width`` columns: the label and the keys always, the words' end
        when they are longer; None when nothing is being typed."""
        if self.typed is None:
            return None
        label, hint = "слова говорящего: ", "▌ (Enter — сказать, Esc — отмена)"
        room = width - 1 - len(label) - len(hint)
        if room < 12:  # a narrow terminal: the words before the keys' hint
            hint, room = "▌", width - 2 - len(label)
        words = self.typed if len(self.typed) <= room else "…" + self.typed[len(self.typed) - room + 1 :]
        return (label + words + hint)[: width - 1]

    def draw(self) -> None:
        if not self.drawing:
            return
        try:
            if self.live:
                self.out.write(f"\r{self.line()}\x1b[K")
            elif self.status and self.status != self._printed:  # no terminal: a plain line when it changes
                self._printed = self.status
                self.out.write(self.status + "\n")
            self.out.flush()
        except (OSError, ValueError):  # the terminal is gone: the game goes on without the line
            self.drawing = False

    def write_line(self, text: str) -> None:
        """A line above the status line (what was said, a notice)."""
        if not self.drawing or not self.live:
            self.out.write(text + "\n")
            self.out.flush()
            return
        self.out.write(f"\r\x1b[K{text}\n")
        self.draw()

    def close(self) -> None:
        if self.drawing and self.live:  # the status line goes; what is printed next starts on a clean line
            with contextlib.suppress(OSError, ValueError):
                self.out.write("\r\x1b[K")
                self.out.flush()
            self.drawing = False
        self._closed.set()
        if self._thread is not threading.current_thread():
            self._thread.join(1.0)  # it reads nothing more: keys typed now go to whoever reads next
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None
