"""The box's three buttons between games (``run --box``), on the runtime's
scheduler, so that tests run them on virtual time.

- ready: «Ведущий готов. Классика, десять игроков.»; a short press of
  «Дальше» starts a game; holding it HOLD (3 s) opens the menu.
- the menu: the rules, then the deal, then how strict the device is with
  what it hears (docs/fouls.md), then the voice (where the box has more
  than one ready: each says VOICE_SAMPLE in its own voice); «Дальше» moves to
  the next choice, «Отмена» chooses it; MENU_IDLE_S without a press closes it
  as it was.
- the question (an unfinished game at start): «Дальше» carries it on,
  «Отмена» starts a new one.
- holding «Пауза» 5 s (when the config allows): «Выключаюсь», then off.

A short press of «Дальше» counts when it is let go (a hold must not also
start a game); «Отмена» counts when pressed (it has no hold). A line typed
on the terminal stands in for the buttons where there are none to press
(``--panel mock``): n «Дальше», u «Отмена», N «Дальше» held.

The controls run in the people's time (the box runs them at speed 1,
whatever ``--speed`` the games are hosted at): a hold, the menu's idle time
and the phrases are a person's seconds.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.presets import CLASSIC, PRESETS
from hardware.events import Held, HostKey, Press, Release, TypedLine
from host_device.config import Strictness
from host_device.runtime.clock import Scheduled, Scheduler
from host_device.session.question import NO, YES

log = logging.getLogger(__name__)

RULES = tuple(PRESETS)  # the menu offers every rule set, in the presets' order
DEALS: tuple[Literal["device", "cards"], ...] = ("device", "cards")
STRICTNESS = tuple(Strictness)  # off, warn, foul
MENU_IDLE_S = 20.0
GAP_S = 0.3  # between the phrases of one utterance
HELD = ("N", "Т", "меню")  # a line typed for «Дальше» held (the menu); the others are the question's
BUILTIN_VOICE = "builtin"  # voices/installed.py's name for the built-in voice
VOICE_SAMPLE = "voice_sample"  # said by each voice the menu offers, with the slot "voice": its name


@dataclass(frozen=True)
class Choice:
    """What the next game is: the menu's three choices."""

    preset: str = CLASSIC.name
    deal: Literal["device", "cards"] = "device"
    fouls: Strictness = Strictness.WARN  # the device's own fouls (docs/fouls.md)
    voice: str = BUILTIN_VOICE


@dataclass(frozen=True)
class Outcome:
    kind: Literal["new", "resume", "off"]
    game_id: int | None = None


Phrase = tuple[str, dict[str, Any]]


class Controls:
    def __init__(
        self,
        sched: Scheduler,
        play: Callable[[str, dict[str, Any]], None],
        duration: Callable[[str, dict[str, Any]], float],
        choice: Choice,
        seats: Callable[[str], int],
        offer: int | None = None,
        power_off: bool = False,
        chosen: Callable[[Choice], None] = lambda choice: None,
        voices: tuple[str, ...] = (),
    ) -> None:
        self.sched, self._play, self._duration = sched, play, duration
        self.choice = choice
        self.voices = voices  # the voices the menu offers (none or one: no voice to choose)
        self.chosen = chosen  # the menu's choice, the moment it is made (the box keeps it)
        self.seats = seats
        self.offer = offer
        self.power_off = power_off
        self.state: Literal["question", "ready", "rules", "deal", "fouls", "voice"] = (
            "question" if offer else "ready"
        )
        self.outcome: Outcome | None = None
        self.speaking_until = sched.now
        self._pending: list[Scheduled] = []
        self._down: set[str] = set()  # host keys pressed and not yet let go or held
        self._menu: Choice = choice
        self._idle: Scheduled | None = None

    # ------------------------------------------------------------ what it says

    def start(self) -> None:
        if self.state == "question":
            self._utter(("resume_question", {}))
        else:
            self._ready()

    def _utter(self, *phrases: Phrase) -> None:
        """Say these now, one after another (cutting off whatever was being said)."""
        for item in self._pending:
            item.cancel()
        self._pending = []
        t = self.sched.now
        for key, slots in phrases:
            self._pending.append(self.sched.at(t, functools.partial(self._play, key, slots)))
            t += self._duration(key, slots) + GAP_S
        self.speaking_until = t

    def rules(self, choice: Choice) -> Phrase:
        return f"rules_{choice.preset}", {"count": self.seats(choice.preset)}

    def _ready(self) -> None:
        self.state = "ready"
        said = [("ready", {}), self.rules(self.choice)]
        if self.choice.deal != "device":
            said.append((f"deal_{self.choice.deal}", {}))
        if self.choice.fouls is not Strictness.WARN:
            said.append((f"fouls_{self.choice.fouls}", {}))
        self._utter(*said)

    # ------------------------------------------------------------ the buttons

    def input(self, item: Any) -> None:
        if isinstance(item, HostKey):
            item = item.press
        if isinstance(item, TypedLine):
            self.typed(item.text.strip())
            return
        key = getattr(item, "key", None)
        if self.outcome is not None or not isinstance(key, str):
            return  # decided, or a seat's button (no use between games), or not a button
        if isinstance(item, Press):
            self._down.add(key)
            if item.key == "undo":
                self._undo()
        elif isinstance(item, Held):
            self._down.discard(item.key)  # its release is not a short press
            if item.key == "pause":
                self._off()
            elif item.key == "next" and self.state == "ready":
                self._open_menu()
        elif isinstance(item, Release) and item.key in self._down:
            self._down.discard(item.key)
            if item.key == "next":
                self._next()

    def typed(self, text: str) -> bool:
        """A line typed for a button: n «Дальше», u «Отмена» (the session's
        question's answers, session/question.py), N «Дальше» held; False if it
        stands for none."""
        if self.outcome is not None:
            return False
        if text in HELD or text.lower() in HELD:
            if self.state == "ready":
                self._open_menu()
        elif text.lower() in YES:
            self._next()
        elif text.lower() in NO:
            self._undo()
        else:
            return False
        return True

    def _next(self) -> None:
        if self.state == "question":
            self.outcome = Outcome("resume", self.offer)
        elif self.state == "ready":
            self.outcome = Outcome("new")
        elif self.state == "rules":
            rules = RULES[(RULES.index(self._menu.preset) + 1) % len(RULES)]
            self._menu = replace(self._menu, preset=rules)
            self._utter(self.rules(self._menu))
        elif self.state == "deal":
            deal = DEALS[(DEALS.index(self._menu.deal) + 1) % len(DEALS)]
            self._menu = replace(self._menu, deal=deal)
            self._utter((f"deal_{deal}", {}))
        elif self.state == "fouls":
            fouls = STRICTNESS[(STRICTNESS.index(self._menu.fouls) + 1) % len(STRICTNESS)]
            self._menu = replace(self._menu, fouls=fouls)
            self._utter((f"fouls_{fouls}", {}))
        else:
            at = self.voices.index(self._menu.voice)
            self._menu = replace(self._menu, voice=self.voices[(at + 1) % len(self.voices)])
            self._utter((VOICE_SAMPLE, {"voice": self._menu.voice}))
        if self.outcome is not None:
            self._utter()  # whatever it was saying stops: the game starts
        self._keep_menu_open()

    def _undo(self) -> None:
        if self.state == "question":
            self.outcome = Outcome("new")
            self._utter()
        elif self.state == "rules":
            self.state = "deal"
            self._utter((f"deal_{self._menu.deal}", {}))
        elif self.state == "deal":
            self.state = "fouls"
            self._utter((f"fouls_{self._menu.fouls}", {}))
        elif self.state == "fouls" and len(self.voices) > 1:
            self.state = "voice"
            if self._menu.voice not in self.voices:
                self._menu = replace(self._menu, voice=self.voices[0])
            self._utter((VOICE_SAMPLE, {"voice": self._menu.voice}))
        elif self.state in ("fouls", "voice"):
            self.choice = self._menu
            self.chosen(self.choice)
            self._close_menu()
        self._keep_menu_open()

    def _open_menu(self) -> None:
        self.state = "rules"
        self._menu = self.choice
        self._utter(("menu", {}), self.rules(self._menu))
        self._keep_menu_open()

    def _keep_menu_open(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self.state in ("rules", "deal", "fouls", "voice") and self.outcome is None:
            self._idle = self.sched.at(
                max(self.sched.now, self.speaking_until) + MENU_IDLE_S, self._close_menu
            )

    def _close_menu(self) -> None:
        """Back to ready, with what was chosen (nothing, if the menu timed out)."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self._ready()

    def _off(self) -> None:
        if not self.power_off:
            log.warning("кнопку паузы удержали, но выключение запрещено ([box] power_off = false)")
            return
        self.outcome = Outcome("off")
        self._utter(("powering_off", {}))
