"""The table to the runtime: what each input from the edges means, one
small handler per kind (a press, a hold, a typed line, a notice from the
pages, words heard, a stuck or freed button, a lost microphone, the
recogniser's lag, a transcript). Inputs are stamped on the wall clock by
the threads that report them; each is handed to the runtime at its game
time."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engine import BestMove, Phase
from engine.steps import FLOOR
from hardware.events import ButtonReleased, Held, HostKey, MicrophoneLost, Press, StuckButton, TypedLine
from host_device.listening.hearing import Heard
from host_device.listening.intents import for_step, russian_patterns
from host_device.listening.listener import (
    HearingBack,
    HearingGone,
    HearingLost,
    ListeningBehind,
    Transcript,
    Voice,
)
from host_device.runtime.assist import Assist
from host_device.runtime.cards import CardRegistration
from host_device.runtime.clock import Clock
from host_device.runtime.discipline import TYPED, Hearing, WithdrawFoul
from host_device.runtime.host_messages import describe, in_russian
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import ConsoleUsed
from host_device.screens.titles import elapsed
from host_device.web.inputs import BestMoveEntry, FromConsole, PhonePress, WebNotice

log = logging.getLogger(__name__)


class Inputs:
    def __init__(
        self,
        runtime: Runtime,
        clock: Clock,
        assist: Assist | None,
        *,
        keyboard: bool,  # one keyboard: every key is the host's
        power_off: bool,  # holding «пауза» leaves (the box)
        typed_speech: bool,  # typed lines are the speaker's words
        show_typed: bool,  # a typed line is echoed with whose words it counts as
        verbose: bool,
        notice: Callable[[str, str], None],
        leave: Callable[[], None],
        print_line: Callable[[str], None],
        phone_notice: Callable[[WebNotice], None] | None = None,  # default: as any notice
        speed: float = 1.0,  # game seconds a wall second (run_real's)
    ) -> None:
        self.runtime, self.clock, self.assist, self.speed = runtime, clock, assist, speed
        self.keyboard, self.power_off, self.typed_speech = keyboard, power_off, typed_speech
        self.show_typed, self.verbose = show_typed, verbose
        self.notice, self.leave, self.print_line = notice, leave, print_line
        self.cards: CardRegistration | None = None  # --deal cards, while the cards are registered
        self.mic_lost = False
        self.patterns = russian_patterns()
        self._handlers: dict[type, Callable[[Any], None]] = {
            HostKey: self._host_key,
            Press: lambda press: self._press(press, from_host=self.keyboard),
            PhonePress: self._phone_press,
            Held: self._held,
            TypedLine: self._typed,
            BestMoveEntry: self._best_move,
            WebNotice: phone_notice or (lambda item: self.notice(item.text, item.russian)),
            Heard: self._heard,
            StuckButton: lambda item: self.notice(
                f"the button of {item.key} is stuck; it is ignored until released",
                f"кнопка {item.key} залипла: не учитывается, пока её не отпустят",
            ),
            ButtonReleased: lambda item: self.notice(
                f"the button of {item.key} is free again", f"кнопка {item.key} снова работает"
            ),
            MicrophoneLost: self._microphone_lost,
            ListeningBehind: lambda item: log.warning(
                "распознавание речи отстаёт от жизни на %.1f с", item.lag_s
            ),
            Transcript: self._transcript,
            Voice: lambda item: self.runtime.discipline.voice(self._at(item.at)),  # after «Время!»
            WithdrawFoul: self._withdraw_foul,
            HearingLost: self._hearing_lost,
            HearingBack: self._hearing_back,
            HearingGone: lambda item: self.notice(
                f"speech recognition could not be restarted ({item.reason}); nominations are not heard",
                "слух потерян: выставления больше не слышны, ведите их с пульта",
            ),
        }

    def on(self, kind: type, handler: Callable[[Any], None]) -> None:
        """Another kind of input, handled by ``handler`` (the seat grid's, the session's)."""
        self._handlers[kind] = handler

    def told(self, item: Any) -> Any:
        """A console input of host mode shown to the table first (the table
        page's «С пульта: …»); returns the input it carries (None: none)."""
        if not isinstance(item, FromConsole):
            return item
        if isinstance(item.item, WithdrawFoul):  # shown only once a foul is taken back (_withdraw_foul)
            return WithdrawFoul(line=item.line)
        self.runtime.note(ConsoleUsed(t=self.runtime.sched.now, text=item.line))
        return item.item

    def take(self, item: Any) -> None:
        handler = self._handlers.get(type(item))
        if handler is not None:
            handler(item)

    def _at(self, stamped: float) -> float:
        """The game time of something stamped ``stamped`` on the wall clock."""
        sched = self.runtime.sched
        return sched.now - max(0.0, self.clock.now() - stamped) * self.speed

    def _host_key(self, key: HostKey) -> None:
        """A key of the host's (his console, his keyboard beside the panel).
        In host mode a seat key has no command to complete, and it is no
        seat's press either: whoever holds the console may be a player, and a
        seat is pressed only by its own button or its own phone."""
        if self.assist is None and isinstance(key.press.key, int):
            log.info("host mode: the host's seat key %s is no seat's press; ignored", key.press.key)
            return
        self._press(key.press, from_host=True)

    def _press(self, item: Press, from_host: bool) -> None:
        at = self._at(item.at)
        if self.cards is not None and self.runtime.game.phase is Phase.ROLES and isinstance(item.key, int):
            self.cards.press(item.key)
        elif self.assist is not None:
            self.assist.press(item.key, at=at, from_host=from_host or isinstance(item.key, str))
        else:
            self.runtime.press(item.key, at=at)

    def _phone_press(self, item: PhonePress) -> None:
        """A seat phone's press counts only in the step it was made in (the runtime says)."""
        if self.runtime.made_here(item.key, item.made_in, self._at(item.at)):
            self._press(item, from_host=False)

    def _held(self, item: Held) -> None:
        if item.key == "pause" and self.power_off:
            self.leave()

    def _heard(self, item: Heard, how: Hearing | None = None) -> None:
        """What the listener heard (``how`` None: with the utterance it was heard in), or what was typed."""
        if self.assist is not None:
            self.assist.heard(item.intent, item.words)
        how = how or Hearing(context=item.context)
        self.runtime.heard(item.intent, at=self._at(item.at), text=item.words, how=how)

    def _withdraw_foul(self, item: WithdrawFoul) -> None:
        """The console takes back the device's foul (the step's last input);
        the table page says so («С пульта: фол снят») only once it is."""
        if self.runtime.discipline.withdraw():
            if item.line:
                self.runtime.note(ConsoleUsed(t=self.runtime.sched.now, text=item.line))
            return
        self.notice(
            "no device foul to withdraw (only the last input can be)",
            "снять нечего: снимается только замечание устройства, пока после него ничего не было",
        )

    def _typed(self, line: TypedLine) -> None:
        """Words typed for the current speaker: taken as if he had said them,
        except that a forbidden word in them never gives the device's foul
        (the host's transcription is not what the device heard: the remark at most)."""
        if not self.typed_speech:
            return
        game = self.runtime.game
        if self.show_typed:
            speaker = game.state.speaker
            who = f"игрок {speaker}" if speaker is not None and game.phase in FLOOR else "не во время речи"
            self.print_line(f"{elapsed(self.runtime.sched.now)}    набрано ({who}): «{line.text}»")
        patterns = for_step(self.patterns, game.preset, game.state)  # the round's, the best move's
        for intent in patterns.parse(line.text, game.preset.seats):
            self._heard(Heard(intent, line.at, line.text), TYPED)

    def _best_move(self, item: BestMoveEntry) -> None:
        """The best move entered on the console, for the speaker of the last
        word; said why when the engine refuses it."""
        speaker = self.runtime.game.state.speaker
        if speaker is None:
            self.notice(
                "a best move entered while nobody speaks", "лучший ход не принят: сейчас никто не говорит"
            )
            return
        inp = BestMove(seat=speaker, seats=item.seats)
        if self.runtime.handle(inp, by_host=True):
            self.notice(f"best move entered: {inp}", f"записано: {describe(inp)}")
        elif (refusal := self.runtime.refusal) is not None:
            self.notice(f"best move not accepted: {refusal}", f"лучший ход не принят: {in_russian(refusal)}")

    def _microphone_lost(self, item: MicrophoneLost) -> None:
        if self.mic_lost:
            return
        self.mic_lost = True
        self.runtime.say("microphone_missing")
        self.notice(
            f"the microphone is lost ({item.reason}); the game goes on", "микрофон потерян: игра идёт дальше"
        )

    def _hearing_lost(self, item: HearingLost) -> None:
        """The decoding process died: said once, as it is being restarted."""
        self.runtime.say("hearing_lost")
        self.notice(f"speech recognition stopped ({item.reason}); restarting it", "слух потерян: перезапуск")

    def _hearing_back(self, item: HearingBack) -> None:
        self.runtime.say("hearing_back")
        self.notice("speech recognition restarted", "слух восстановлен")

    def _transcript(self, item: Transcript) -> None:
        if self.assist is not None:
            self.assist.heard_text(item.text)
        elif self.verbose:
            print(f"  «{item.text}»", flush=True)
