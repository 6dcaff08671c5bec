"""The fouls the device gives from what it hears (issue 39; docs/fouls.md):
a forbidden word in the words of the speaker who has the floor, and a
speech that goes on after «Время!».

How strict the device is, is the club's (:class:`host_device.config.Strictness`):
``off`` hears nothing of it; ``warn`` says the remark («Игрок номер семь,
предупреждение: «честно».», «Игрок номер семь, время!») and gives no foul;
``foul`` gives it (``Foul(by="device", word=…)``), which the engine announces
with its consequences («…второе замечание: «честно».», «…лишается
следующей речи», «…удаляется из игры»). In assist mode the device never
gives one: it proposes it to the human host, as a heard nomination (y/x).

The remark for a word is said when the word is delivered: in the pause
after its utterance (:mod:`host_device.listening.hearing` hears a forbidden
word only in a final result), so it never talks over the speaker.

After «Время!» (host mode, a microphone and a model, not ``off``): the
device waits GRACE_S after «Время!» has been said before it gives the floor
on; a new word of the speaker after that says «Игрок номер N, время!»
(once); in ``foul``, a new word after that phrase, within FOUL_WATCH_S, is
the foul («время»). Then the step ends. Nothing here is at night: the
device listens only to a speaker who has the floor.

A foul for a heard word keeps what was heard (issue 45): the utterance's
words, the recogniser's confidence in each, how far into the speech; the
proposal carries the same, so a foul the human host accepts keeps it too.
Words typed for the speaker (no speech model: the console, the terminal)
are the host's transcription, not what the device heard: at most the
remark, never the device's foul (in assist mode the proposal, as ever).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, Protocol

from engine import Advance, Foul, Game, Input
from engine.steps import FLOOR
from host_device.config import Strictness
from host_device.listening.hearing import Word
from host_device.runtime.clock import Scheduler
from host_device.runtime.settings import Settings

GRACE_S = 1.5  # after «Время!» has been said: a sentence's end is no foul
SETTLE_S = 0.7  # a word reaches the runtime about this long after it is said (partial text)
FOUL_WATCH_S = 3.0  # after «Игрок номер N, время!»: his words within this long are the foul
TIME_WORD = "время"  # the word a foul for going on after «Время!» names


@dataclass(frozen=True)
class WithdrawFoul:
    """The host's console takes back the device's foul (host mode): the
    step's last input, if it is one. ``line``: what the table page is shown
    once it is taken back («фол снят»; nothing when nothing was)."""

    line: str = ""


@dataclass(frozen=True)
class Hearing:
    """How a forbidden word reached the runtime: ``context``, the words of
    the utterance the listener heard it in (each with its confidence), or
    ``typed``: words typed for the speaker, which never give the device's foul."""

    context: tuple[Word, ...] = ()
    typed: bool = False


HEARD = Hearing()  # heard, nothing of the utterance given (a script, a caller from before issue 45)
TYPED = Hearing(typed=True)


class Host(Protocol):
    """What of the runtime the discipline uses."""

    game: Game
    sched: Scheduler
    settings: Settings
    speaking_until: float
    timer: tuple[float, int, str] | None  # the step's timer: (start, seconds, purpose)

    @property
    def step(self) -> int: ...

    def say(self, key: str, **slots: Any) -> float: ...

    def handle(self, inp: Input, by_host: bool = False, **where: Any) -> bool: ...

    def propose(self, inp: Input, at: float, text: str, where: dict[str, Any]) -> bool: ...

    def undo_to(self, keep: int) -> bool: ...


@dataclass
class Watch:
    """The speaker watched after «Время!»: the step, the seat, from when his
    words count, and the end of «Игрок номер N, время!» once it is said."""

    step: int
    seat: int
    from_t: float
    warned_until: float | None = None


class Discipline:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.watch: Watch | None = None

    def _strictness(self) -> Strictness:
        host = self.host
        return host.settings.fouls if host.game.preset.fouls else Strictness.OFF

    def forbidden(self, word: str, at: float, text: str, where: dict[str, Any], how: Hearing = HEARD) -> bool:
        """A forbidden word heard (or typed: ``how``) in the words of the speaker who has the floor."""
        host, speaker = self.host, self.host.game.state.speaker
        strictness = self._strictness()
        if strictness is Strictness.OFF or speaker is None:
            return False
        foul = Foul(seat=speaker, word=word, **self._evidence(at, how))
        if host.settings.confirm:  # assist mode: the human host gives it, or not
            return host.propose(foul, at, text, where)
        if strictness is Strictness.WARN or how.typed:  # typed: the host's transcription, no foul
            host.say("remark", seat=speaker, word=word)
            return True
        return host.handle(dataclasses.replace(foul, by="device"), **where)

    def _evidence(self, at: float, how: Hearing = HEARD) -> dict[str, Any]:
        """What a referee reviews of a foul: the utterance's words and the
        recogniser's confidence in each, and how far into the speech's time
        (game seconds; None when the step has no timer running)."""
        timer = self.host.timer
        return {
            "heard": " ".join(w.text for w in how.context),
            "confidence": tuple(round(w.conf, 2) for w in how.context),
            "speech_s": None if timer is None else round(max(0.0, at - timer[0]), 1),
        }

    # ---------------------------------------------------------------- after «Время!»

    def time_up(self, purpose: str) -> bool:
        """«Время!» has just been queued: True when the step's end waits for
        the watch (which then ends it), False when it ends now."""
        host = self.host
        state = host.game.state
        watched = (
            host.settings.watch_time
            and not host.settings.confirm
            and self._strictness() is not Strictness.OFF
            and state.phase in FLOOR
            and state.speaker is not None
            and purpose == state.phase.value
        )
        if not watched or state.speaker is None:
            return False
        said_until = host.speaking_until  # the end of «Время!»
        self.watch = Watch(host.step, state.speaker, said_until + GRACE_S)
        host.sched.at(said_until + GRACE_S + SETTLE_S, functools.partial(self._grace_over, host.step))
        return True

    def voice(self, at: float) -> None:
        """The speaker's new words, at ``at`` (game time)."""
        host, watch = self.host, self.watch
        if watch is None or watch.step != host.step or at < watch.from_t:
            return
        if watch.warned_until is None:
            host.say("time_over", seat=watch.seat)
            watch.warned_until = host.speaking_until
            if self._strictness() is Strictness.FOUL:
                deadline = watch.warned_until + FOUL_WATCH_S
                host.sched.at(deadline, functools.partial(self._end, watch.step))
            else:
                self._end(watch.step)
        elif at >= watch.warned_until:
            self.watch = None
            host.handle(Foul(seat=watch.seat, by="device", word=TIME_WORD, **self._evidence(at)))
            self._end(watch.step)

    def _grace_over(self, step: int) -> None:
        watch = self.watch
        if watch is not None and watch.step == step and watch.warned_until is None:
            self._end(step)

    def _end(self, step: int) -> None:
        if step == self.host.step:
            self.watch = None
            self.host.handle(Advance())

    # ---------------------------------------------------------------- the console

    def withdraw(self) -> bool:
        """Take back the device's foul: only while it is the last input (its
        step, and nothing after it); the engine's state goes back to before it."""
        record = self.host.game.record
        if not record or not isinstance(record[-1], Foul) or record[-1].by != "device":
            return False
        return self.host.undo_to(len(record) - 1)
