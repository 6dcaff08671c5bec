"""The session's modal question (carry on an unfinished game? the host's
console ready?): asked on the terminal and on the console's page, answered
«Дальше» (yes) or «Отмена» (no) from the panel, the keyboard, a typed line
or the console on the host's phone. Nothing else happens while it waits."""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

from hardware.events import HostKey, Press, TypedLine
from host_device.runtime.clock import Clock
from host_device.screens.views import Console
from host_device.web.inputs import WebNotice

YES = {"n", "т", "д", "да", "y", "yes", "next", "дальше"}  # typed answers
NO = {"u", "г", "н", "нет", "no", "undo", "отмена"}


class Question:
    def __init__(
        self,
        inbox: queue.Queue[Any],
        clock: Clock,
        console: Console | None,
        refresh: Callable[[], None],
        print_line: Callable[[str], None],
    ) -> None:
        self.inbox, self.clock, self.console = inbox, clock, console
        self.refresh, self.print_line = refresh, print_line

    def ask(self, text: str, yes: str, no: str | None, again: str) -> bool:
        """Wait for the answer; ``no`` None: only «Дальше» answers; ``again``:
        what to type, said after a line that is no answer."""
        if self.console is not None:
            self.console.question = {"text": text, "yes": yes, **({"no": no} if no else {})}
            self.refresh()
        try:
            while True:
                item = self.clock.wait(self.inbox, 1.0)
                if isinstance(item, HostKey):  # the host's keyboard beside the panel, his console
                    item = item.press
                if isinstance(item, WebNotice):
                    self.print_line(f"host-device: {item.russian}")
                    continue
                answer = item.text.lower() if isinstance(item, TypedLine) else None
                if (isinstance(item, Press) and item.key == "next") or answer in YES:
                    return True
                if no is not None and ((isinstance(item, Press) and item.key == "undo") or answer in NO):
                    return False
                if answer is not None:
                    self.print_line(f"host-device: «{item.text}»: {again}")
        finally:
            if self.console is not None:
                self.console.question = None
