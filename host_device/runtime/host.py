"""``host-device run --mode host``: the runtime on the table's hardware.

One inbox for everything the table does (panel presses from gpiozero's or
the keyboard's threads, intents and warnings from the listener's thread); the
scheduler follows the real clock and handles each input the moment it
arrives. Phrases are played through the announcer at their scheduled times
and added to the gate, so the listener never hears the device; LEDs go to the
panel; the listener hears speeches.

Roles dealt by the device (``--deal device``, seeded): before the first
night each seat in turn is told to open his eyes and look at his own LED for
ROLE_LIGHT_S, the same time for everyone: steady = civilian, slow pulse =
Sheriff (Commissar), blinking = mafia, fast blinking = Don.
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import queue
import random
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import DealRoles, Game, HostDeviceError, Phase, Preset, Role, get_preset
from hardware.events import ButtonReleased, Held, HostKey, MicrophoneLost, Press, StuckButton, TypedLine
from hardware.factory import AUDIO, PANELS, make_panel
from hardware.microphone import Microphone
from hardware.panel import LedPattern, Panel
from hardware.speaker import Playback, Speaker
from host_device.base.sound import Samples
from host_device.cli.arguments import SPEED, game_id, number_in
from host_device.config import Ambience, load_config
from host_device.listening.hearing import Heard
from host_device.listening.intents import russian_patterns
from host_device.listening.listener import Gate, ListeningBehind, Transcript
from host_device.runtime.assist import Assist, runtime_settings
from host_device.runtime.cards import CardRegistration
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import TIMED, Runtime, Settings, when_said
from host_device.runtime.signals import ROLE_SIGNALS
from host_device.screens.narration import Narration, PlainLines, StatusLine, status
from host_device.screens.terminal import Screen
from host_device.screens.titles import elapsed, title
from host_device.screens.views import Console
from host_device.store.faults import StoreError
from host_device.web.server import WebNotice, parse_address
from voices.words import WINS, local_time

log = logging.getLogger(__name__)

ROLE_LIGHT_S = 4.0
SHOW_SLOT_S = 10.0  # each seat's turn: the phrase, the light, «Закройте глаза»
PATTERNS = {
    "off": LedPattern("off"),
    "on": LedPattern("on"),
    "blink": LedPattern("blink", 0.25, 0.25),
    "fast": LedPattern("blink", 0.08, 0.08),
    "pulse": LedPattern("pulse", 0.6, 0.6),
    "flash": LedPattern("blink", 0.1, 0.7),
    "slow": LedPattern("blink", 1.0, 1.0),
}
POLL_S = 0.5
SCREEN_S = 0.25
NIGHT = {  # the phases under the night's sound: the deal and every night step
    Phase.ROLES,
    Phase.INTRO_MAFIA,
    Phase.INTRO_MEET,
    Phase.NIGHT_HUNT,
    Phase.NIGHT_CHECK,
    Phase.NIGHT_VISIT,
}


@dataclass
class Devices:
    """What the box opens once and lends to each game it hosts: a game on
    borrowed devices leaves them open when it ends."""

    inbox: queue.Queue[Any]
    panel: Panel
    microphone: Microphone
    speaker: Speaker
    announcer: Any
    store: Any
    model: Any  # the speech model (loaded once), or None
    power_off: bool  # hold «пауза» to power off (the box's setting)


def night_bed(ambience: Ambience, rate: int) -> Samples | None:
    """The night's sound at the config's volume, or None when it is off."""
    from voices.ambience import club_bed, generated_bed, scaled

    if not ambience.enabled or ambience.volume == 0:
        return None
    bed = club_bed(ambience.file, rate) if ambience.file else generated_bed(rate)
    return scaled(bed, ambience.volume)


def load_model(path: str | None) -> Any:
    """The speech model (``--model`` or the installed one), with a warning
    naming the pattern words it lacks; ModelMissing when there is none."""
    from host_device.listening.speech_model import SpeechModel, find_model
    from host_device.listening.vocabulary import warn_unknown_words

    model = SpeechModel(find_model(Path(path) if path else None))
    warn_unknown_words(model, russian_patterns())
    return model


def deal(preset: Preset, seed: int | None) -> DealRoles:
    """Roles dealt at random (the runtime's randomness, handed to the engine as an input)."""
    rng = random.Random(seed)
    seats = rng.sample(range(1, preset.seats + 1), preset.seats)
    roles: list[tuple[int, Role]] = []
    for role, count in preset.roles:
        roles += [(seat, role) for seat in seats[:count]]
        seats = seats[count:]
    return DealRoles(roles=tuple(sorted(roles)))


def needs_typed_speech(listener: Any, panel: str) -> bool:
    """Typed speech stands in for a missing model, except on the keyboard
    panel, which reads the same terminal key by key (Tab opens a line there)."""
    return listener is None and panel != "keyboard"


class TerminalLines:
    """Lines typed on the terminal (a line at a time), each put in the inbox
    as a :class:`TypedLine`: the current speaker's words without a speech
    model, or an answer to the resume question."""

    def __init__(self, inbox: queue.Queue[Any]) -> None:
        self.inbox = inbox

    def start(self, stream: Any) -> threading.Thread:
        thread = threading.Thread(target=self.read, args=(stream,), daemon=True)
        thread.start()
        return thread

    def read(self, stream: Any) -> None:
        try:
            for line in stream:
                if line.strip():
                    self.inbox.put(TypedLine(text=line.strip(), at=time.monotonic()))
        except (OSError, ValueError):  # no terminal (a service, a closed stdin): nothing is typed
            return


YES = {"n", "т", "д", "да", "y", "yes", "next", "дальше"}  # the resume question, typed
NO = {"u", "г", "н", "нет", "no", "undo", "отмена"}


def show_roles(runtime: Runtime, dealt: DealRoles, then: Callable[[], Any]) -> None:
    """Each seat in turn sees his role on his own LED; the same time for everyone."""
    roles = dict(dealt.roles)

    def show(seat: int) -> None:
        runtime.say("look_at_your_light", seat=seat)
        start = runtime.speaking_until
        runtime.sched.at(
            start, functools.partial(runtime.led, seat, ROLE_SIGNALS[roles.get(seat, Role.CIVILIAN)])
        )
        runtime.sched.at(start + ROLE_LIGHT_S, functools.partial(hide, seat))

    def hide(seat: int) -> None:
        runtime.led(seat, "off")
        runtime.say("close_your_eyes")

    runtime.say(runtime.game.preset.deal_phrase())
    t = runtime.speaking_until
    for seat in range(1, runtime.game.preset.seats + 1):
        runtime.sched.at(t, functools.partial(show, seat))
        t += SHOW_SLOT_S
    runtime.sched.at(t, lambda: then() and None)


class Host:
    def __init__(self, args: argparse.Namespace, devices: Devices | None = None) -> None:
        from host_device.sound.announcer import Announcer
        from voices.catalogue import russian
        from voices.pack import ensure_builtin

        self.args = args
        self.web_server: Any = None
        self.lines: Any = None  # host mode: what the table may know, as lines, and the status line
        config = load_config(Path(args.config) if args.config else None)
        self.preset = table_preset(args.preset, getattr(args, "seats", None), config.city)
        listen = getattr(args, "web", None) or config.web
        self.web = parse_address(listen) if listen else None  # named before any device is opened
        self.phone_seats = phone_seats(args.panel, config.web_seats, self.preset.seats, self.web is not None)
        self.publisher: Any = None  # the pages' side, with --web
        self.console: Console | None = None
        self.devices = devices
        self.inbox: queue.Queue[Any] = devices.inbox if devices else queue.Queue()
        self.sched = Scheduler()
        catalogue = russian()
        pack = devices.announcer.pack if devices else ensure_builtin(catalogue)
        self.deal_kind = args.deal or ("host" if args.mode == "assist" else "device")
        if self.deal_kind == "host" and args.mode != "assist":
            raise HostDeviceError(
                "--deal host: the host enters the roles only in assist mode (--mode assist)"
            )
        if devices is not None:
            self.panel, self.microphone, self.speaker = devices.panel, devices.microphone, devices.speaker
            self.announcer = devices.announcer
        else:
            self.panel = make_panel(
                args.panel,
                config.pinmap(self.preset.seats),
                time.monotonic,
                self.inbox,
                draw=args.mode == "host",
            )
            self.microphone, self.speaker = config.open_audio(
                args.audio, self.inbox, pack.sample_rate, args.wav
            )
            self.announcer = Announcer(catalogue, pack, self.speaker)
        self.bed = (
            None if getattr(args, "no_ambience", False) else night_bed(config.ambience, pack.sample_rate)
        )
        self.bed_on = False
        # (game time, the night's sound on): the same whatever the roles
        self.beds: list[tuple[float, bool]] = []
        self.leaving: Playback | None = None  # «Выключаюсь» said: the game stops, the box powers off
        self.gate = Gate()
        self.assist: Assist | None = None
        self.screen: Screen | None = None
        self.keys: Any = None  # the host's keyboard in assist mode, beside a GPIO panel
        settings = Settings()
        if args.mode == "assist":
            settings = Settings(**runtime_settings(config.assist))
        self.runtime = Runtime(Game(self.preset), self.sched, self.announcer.duration, settings)
        if args.mode == "assist":
            self.assist = Assist(self.runtime, config.assist, role_entry=self.deal_kind == "host")
            self.screen = Screen(self.assist, sys.stdout)
            if args.panel != "keyboard":
                self.keys = host_keyboard(self.preset.seats, self.inbox)
            if not _terminal() and self.web is None:  # with --web, the console on his phone
                log.warning(
                    "assist mode without a terminal: only the panel's host buttons (next, pause, undo) "
                    "reach the game%s",
                    "; the roles cannot be typed (use --deal cards or --deal device)"
                    if self.deal_kind == "host"
                    else "",
                )
        self.runtime.recorders.append(self._carry_out)
        self.runtime.step_hooks.append(self._on_step)
        self.listener = self._listener()
        self.mic_lost = False
        self.days = args.days
        self.cards: CardRegistration | None = None
        self.speaker_lost = False
        self._polled = 0.0
        self.store: Any = None
        self.game_id: int | None = None
        self.resumed = False
        self.patterns = russian_patterns()
        # lines typed on the terminal: the speaker's words without a model (host mode), the resume answer
        self.lines_in = TerminalLines(self.inbox) if args.panel != "keyboard" and self.keys is None else None
        self.typed_speech = args.mode == "host" and (
            needs_typed_speech(self.listener, args.panel) or args.panel == "keyboard"
        )
        if args.mode == "host" and not getattr(args, "quiet", False):
            if args.panel == "keyboard":
                self.lines = self.panel
            elif _terminal():
                self.lines = StatusLine(sys.stdout, shutil.get_terminal_size((80, 24)).columns)
            else:
                self.lines = PlainLines(sys.stdout)
            Narration(self.runtime, catalogue.text, self.lines.write_line)
        if self.web is not None:
            self.console = Console(
                self.runtime, self.assist, whole_table=args.panel == "web", typed=self.typed_speech
            )

    def _listener(self) -> Any:
        from host_device.listening.listener import Listener
        from host_device.listening.speech_model import ModelMissing

        if self.devices is not None:
            model = self.devices.model
            if model is None:
                return None  # the box said so once, at its start
        else:
            try:
                model = load_model(self.args.model)
            except ModelMissing as exc:
                self._notice(
                    f"{exc}; nominations are not heard in this game",
                    "модели речи нет: выставления в этой игре не слышны "
                    "(установить: host-device model install)",
                )
                return None
        return Listener(
            model,
            self.microphone,
            russian_patterns(),
            self.preset.seats,
            self.inbox,
            time.monotonic,
            gate=self.gate,
            partials=self.args.mode == "assist",  # the host's screen shows the words as they come
        )

    def _notice(self, text: str, russian: str) -> None:
        """A fault or a change at the table: in Russian on the terminal, or in
        assist mode on the host's screen's message line (the screen owns the
        terminal); in English in the log."""
        log.info(text)
        if self.assist is not None:
            self.assist.say(russian)
        else:
            self._print(f"host-device: {russian}")
            if self.console is not None:
                self.console.notice(russian)

    def _print(self, text: str) -> None:
        """A line on the terminal, above the status line if there is one."""
        if self.lines is not None:
            self.lines.write_line(text)
        else:
            print(text, flush=True)

    @property
    def game(self) -> Game:
        return self.runtime.game  # replaced by an undo

    # -------------------------------------------------------------- effects to the table

    def _carry_out(self, entry: dict[str, Any]) -> None:
        kind = entry["type"]
        if kind == "say":  # a step skipped before its announcement began is not announced
            when_said(self.runtime, entry, self._play)
        elif kind == "led":
            self.panel.set_led(entry["seat"], PATTERNS[entry["pattern"]])
        elif kind == "tone":
            self.sched.at(entry["t"], lambda: self.gate.add(self.announcer.beep()))
        elif kind == "timer" and entry["purpose"] == "speech" and self.listener is not None:
            self.sched.at(entry["t"], self.listener.open_window)

    def _play(self, entry: dict[str, Any], slots: dict[str, Any]) -> None:
        self.gate.add(self.announcer.say(entry["key"], **slots))

    def _on_step(self, runtime: Runtime) -> None:
        if self.listener is not None:
            self.listener.close_window()
        self._night_sound()
        s = runtime.game.state
        if self.days is not None and s.phase is Phase.MORNING and s.day > self.days:
            runtime.stop()

    # -------------------------------------------------------------- the table to the runtime

    def _night_sound(self) -> None:
        """The night's sound on in the night phases, off by day: it follows the
        phases, whose times never depend on a secret."""
        night = self.game.phase in NIGHT and not self.runtime.stopped
        if self.bed is None or night == self.bed_on:
            return
        self.bed_on = night
        self.speaker.set_bed(self.bed if night else None)
        self.beds.append((self.sched.now, night))

    def _leave(self) -> None:
        """«Пауза» held: say «Выключаюсь» and end the game here (it is in the
        store, every input of it; the next start offers it)."""
        if self.leaving is None:
            log.warning("the pause button was held: powering off")
            self.speaker.set_bed(None)
            self.leaving = self.announcer.say("powering_off")
            self.gate.add(self.leaving)

    def _input(self, item: Any) -> None:
        self._take(item)
        if self.publisher is not None:
            self.publisher.refresh()  # what the input changed, on the console and the phones at once

    def _take(self, item: Any) -> None:
        now_mono = time.monotonic()
        from_host = self.args.panel == "keyboard"  # one keyboard: every key is the host's
        if isinstance(item, HostKey):
            item, from_host = item.press, True
        if isinstance(item, Press):
            at = self.sched.now - max(0.0, now_mono - item.at)
            if self.cards is not None and self.game.phase is Phase.ROLES and isinstance(item.key, int):
                self.cards.press(item.key)
            elif self.assist is not None:
                self.assist.press(item.key, at=at, from_host=from_host or isinstance(item.key, str))
            else:
                self.runtime.press(item.key, at=at)
        elif isinstance(item, Held) and item.key == "pause" and self.devices and self.devices.power_off:
            self._leave()
        elif isinstance(item, TypedLine):
            self._typed(item)
        elif isinstance(item, WebNotice):
            self._notice(item.text, item.russian)
        elif isinstance(item, Heard):
            if self.assist is not None:
                self.assist.heard(item.intent, item.words)
            self.runtime.heard(item.intent, at=self.sched.now - max(0.0, now_mono - item.at), text=item.words)
        elif isinstance(item, StuckButton):
            self._notice(
                f"the button of {item.key} is stuck; it is ignored until released",
                f"кнопка {item.key} залипла: не учитывается, пока её не отпустят",
            )
        elif isinstance(item, ButtonReleased):
            self._notice(f"the button of {item.key} is free again", f"кнопка {item.key} снова работает")
        elif isinstance(item, MicrophoneLost) and not self.mic_lost:
            self.mic_lost = True
            self.runtime.say("microphone_missing")
            self._notice(
                f"the microphone is lost ({item.reason}); the game goes on",
                "микрофон потерян: игра идёт дальше",
            )
        elif isinstance(item, ListeningBehind):
            log.warning("speech recognition is %.1f s behind real time", item.lag_s)
        elif isinstance(item, Transcript) and self.assist is not None:
            self.assist.heard_text(item.text)
        elif isinstance(item, Transcript) and self.args.verbose:
            print(f"  «{item.text}»", flush=True)

    def _typed(self, line: TypedLine) -> None:
        """Words typed for the current speaker: heard as if he had said them."""
        if not self.typed_speech:
            return
        speaker = self.game.state.speaker
        if self.lines is not None:
            who = (
                f"игрок {speaker}" if speaker is not None and self.game.phase in TIMED else "не во время речи"
            )
            self._print(f"{elapsed(self.sched.now)}    набрано ({who}): «{line.text}»")
        for intent in self.patterns.parse(line.text, self.preset.seats):
            self._take(Heard(intent, line.at, line.text))

    def _tick(self) -> None:
        """Every POLL_S of wall time, paused or not: stuck buttons, a lost
        microphone, a lost speaker (the game waits, LEDs blinking, until it is back)."""
        now = time.monotonic()
        if now - self._polled < POLL_S:
            return
        self._polled = now
        self.runtime.retry_unrecorded()  # a store that could not record: the game goes on once it can
        self.panel.poll()
        self.microphone.poll()
        alive = getattr(self.speaker, "alive", True)
        if not alive and not self.speaker_lost:
            self.speaker_lost = True
            if not self.sched.paused:
                self.sched.pause()
            self.panel.all_leds(PATTERNS["blink"])
            self._notice("the speaker is lost; the game waits until it is back", "динамик потерян: игра ждёт")
        if self.speaker_lost and self.speaker.reopen():  # type: ignore[attr-defined]
            self.speaker_lost = False
            self.panel.all_leds(PATTERNS["off"])
            for seat, pattern in self.runtime.leds.items():
                self.panel.set_led(seat, PATTERNS[pattern])
            self.runtime.resume_clock(self.sched.now)
            self._notice("the speaker is back; the game goes on", "динамик снова работает")

    def _heartbeat(self) -> None:
        """The screen (assist mode) or the status line (host mode) is redrawn
        every SCREEN_S, and the loop runs while it waits for the host (no
        event of the game's own is due)."""
        if self.screen is not None:
            self.screen.draw()
        elif self.lines is not None:
            self.lines.status = status(self.runtime)
            self.lines.draw()
        if self.publisher is not None:
            self.publisher.refresh()
        if not self._over():
            self.sched.after(SCREEN_S * self.args.speed, self._heartbeat)  # every SCREEN_S of wall time

    def _over(self) -> bool:
        if self.leaving is not None:
            return True
        done = self.game.phase is Phase.GAME_OVER or self.runtime.stopped
        return done and self.sched.now >= self.runtime.speaking_until

    def _deal(self, roles: DealRoles) -> None:
        self.runtime.handle(roles)

    def _open_store(self) -> None:
        from host_device.store import Store, record_runtime

        if self.devices is not None:
            self.store = self.devices.store
        else:
            self.store = Store(Path(self.args.store) if self.args.store else None)
        if self.store.notice and self.devices is None:
            print(f"host-device: {self.store.notice}", flush=True)
        game_id = self._game_to_resume()
        if game_id is None:
            trial = {"trial_days": self.days} if self.days is not None else {}
            self.game_id = record_runtime(self.store, self.runtime, self.args.mode, settings=trial)
            return
        game = self.store.replay(game_id)
        self.runtime.game = game
        self.runtime.day_start = len(game.record)  # undo reaches back to the restart, no further
        self.game_id = record_runtime(self.store, self.runtime, "host", game_id=game_id)
        self.resumed = True
        if self.publisher is not None:
            self.publisher.stream.reread()  # who has left, in the resumed game
        self._print(f"host-device: продолжаем игру {game_id} ({title(game.state)})")

    def _game_to_resume(self) -> int | None:
        """--resume ID, --new, or the table's choice when an unfinished game is found."""
        preset = self.preset.name
        if self.args.resume is not None:
            row = self.store.game(self.args.resume)
            if row.preset != preset:
                raise StoreError(
                    f"game {row.id} is a {row.preset} game and this table is set up for {preset}: "
                    f"run it with --preset {row.preset}"
                )
            if row.finished_at is not None:
                raise StoreError(f"game {row.id} is finished; see: host-device games show {row.id}")
            return int(self.args.resume)  # a damaged game is named by the replay, before anything is written
        if self.args.new:
            return None
        unfinished = [g for g in self.store.unfinished() if self._offered(g)]
        if not unfinished:
            return None
        latest = unfinished[-1]
        which = f"{latest.id} (начата {local_time(latest.started_at)}) не окончена"
        question = f"Игра {which}"
        self._print(
            f"host-device: игра {which}: "
            "«Дальше» — продолжить её, «Отмена» — новая игра (или наберите n или u и Enter)"
        )
        self.gate.add(self.announcer.say("unfinished_game"))
        again = f"n — продолжить игру {latest.id}, u — новая игра"
        return int(latest.id) if self._ask(question, "Продолжить", "Новая игра", again) else None

    def _ask(self, text: str, yes: str, no: str | None, again: str) -> bool:
        """Wait for the host's answer: «Дальше» (yes) or «Отмена» (no), from
        the panel, the keyboard, a typed line or the console on his phone."""
        if self.console is not None:
            self.console.question = {"text": text, "yes": yes, **({"no": no} if no else {})}
            self.publisher.refresh()
        try:
            while True:
                item = self.inbox.get()
                if isinstance(item, HostKey):  # the host's keyboard beside the panel, his console
                    item = item.press
                if isinstance(item, WebNotice):
                    self._print(f"host-device: {item.russian}")
                    continue
                answer = item.text.lower() if isinstance(item, TypedLine) else None
                if (isinstance(item, Press) and item.key == "next") or answer in YES:
                    return True
                if no is not None and ((isinstance(item, Press) and item.key == "undo") or answer in NO):
                    return False
                if answer is not None:
                    self._print(f"host-device: «{item.text}»: {again}")
        finally:
            if self.console is not None:
                self.console.question = None

    def _start_web(self) -> None:
        from host_device.web.access import Access
        from host_device.web.server import Private, start_web
        from voices.catalogue import russian

        assert self.console is not None and self.web is not None
        private = Private(Access.new(self.phone_seats), self.console, self.inbox)
        self.web_server = start_web(
            self.web, self.runtime, russian().text, self.args.speed, self._print, private
        )
        self.publisher = self.web_server.publisher

    def _offered(self, game: Any) -> bool:
        """An unfinished game the table is asked about: a game of this table's
        rules played at a table (not a simulation), and not a trial (--days)."""
        if game.preset != self.preset.name or game.mode not in ("host", "assist"):
            return False
        try:
            return not self.store.settings(game.id).get("trial_days")
        except HostDeviceError:  # damaged settings: not offered (games check names it)
            return False

    def run(self) -> int:
        if self.lines_in is not None:
            self.lines_in.start(sys.stdin)
        if self.args.panel == "keyboard" and self.args.mode == "host":
            self._print(
                "host-device: клавиши: места 1…9, 0, -, =; n — дальше, p — пауза, u — отмена; "
                "Tab — слова говорящего, Enter — отправить"
            )
        if self.web is not None:
            self._start_web()
        self._open_store()
        if self.console is not None and self.assist is not None and _terminal():
            # the host's screen is about to take the terminal and the QR code with it
            self._ask("Пульт ведущего готов? Начать игру", "Начать", None, "n — начать игру")
        if self.listener is not None:
            self.listener.start()
        if self.typed_speech and self.lines_in is not None:
            self._print(
                "host-device: наберите слова говорящего и Enter («я выставляю игрока номер семь», «спасибо»)"
            )
        if self.screen is not None or self.lines is not None or self.publisher is not None:
            self._heartbeat()
        if self.resumed:
            self.runtime.resume()
        else:
            self.runtime.say("game_starts")
        self._night_sound()
        if self.game.phase is not Phase.ROLES:
            pass  # resumed after the deal
        elif self.deal_kind == "host":
            pass  # the host types the roles on his screen
        elif self.deal_kind == "cards":
            self.cards = CardRegistration(self.runtime, self._deal)
            self.cards.start()
        else:
            dealt = deal(self.preset, self.args.seed)
            show_roles(self.runtime, dealt, lambda: self.runtime.handle(dealt))
        try:
            self.sched.run_real(
                self.args.speed, stop=self._over, inbox=self.inbox, on_input=self._input, tick=self._tick
            )
        except KeyboardInterrupt:
            self._print("host-device: остановлено")
        finally:
            if self.screen is not None:
                self.screen.draw()  # the game as it ends
            if self.listener is not None:
                self.listener.stop()
            if self.bed_on:
                self.speaker.set_bed(None)
            if self.leaving is not None:
                self.leaving.wait(10)  # «Выключаюсь» is heard whole
            if self.lines is not None:
                self.lines.close()  # the status line goes (the keyboard panel's with the panel)
            if self.devices is None:  # the box's devices stay open for its next game
                self.speaker.close()
                self.panel.close()
                if self.store is not None:
                    self.store.close()
            if self.keys is not None:
                self.keys.close()
            if self.web_server is not None:
                self.web_server.stop()
        winner = self.game.state.winner
        if winner is not None:
            print(f"host-device: игра окончена: {WINS[winner]}", flush=True)
        else:
            again = f" (продолжить: host-device run --resume {self.game_id})" if self.game_id else ""
            print(f"host-device: игра не окончена{again}", flush=True)
        return 0


class HostKeys(queue.Queue[Any]):
    """Where the host's keyboard puts its events: into the inbox, each press marked as his."""

    def __init__(self, inbox: queue.Queue[Any]) -> None:
        super().__init__()
        self.inbox = inbox

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        self.inbox.put(HostKey(item) if isinstance(item, Press) else item)


def table_preset(name: str, seats: int | None, city: dict[str, Any]) -> Preset:
    """The rules at this table: a city table from --seats and the config's [city]."""
    if name == "city":
        return get_preset(name, **{**city, **({"seats": seats} if seats else {})})
    return get_preset(name, seats)


def phone_seats(panel: str, listed: tuple[int, ...], seats: int, web: bool) -> tuple[int, ...]:
    """The seats played with phones: every seat with ``--panel web``, else
    the config's ``[web] seats`` (beside a panel that lacks their buttons)."""
    if panel == "web":
        if not web:
            raise HostDeviceError(
                "--panel web: the seats' buttons are phones, so the pages must be served: "
                "add --web PORT (or listen in the config's [web])"
            )
        return tuple(range(1, seats + 1))
    if listed and not web:
        raise HostDeviceError(
            "[web].seats: those seats' buttons are phones, so the pages must be served: "
            "add --web PORT (or listen in the config's [web])"
        )
    beyond = [seat for seat in listed if seat > seats]
    if beyond:
        raise HostDeviceError(f"[web].seats: seat {beyond[0]} is not at this table (seats 1…{seats})")
    return listed


def _terminal() -> bool:
    try:
        return os.isatty(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return False


def host_keyboard(seats: int, inbox: queue.Queue[Any]) -> Any:
    """The terminal's keys as the host's keys (assist mode beside a GPIO panel), if there is a terminal."""
    from hardware.keyboard_panel import KeyboardPanel

    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):
        return None
    return KeyboardPanel(seats, time.monotonic, HostKeys(inbox), keys_fd=fd, draw=False)


def cmd_run(args: argparse.Namespace) -> int:
    if args.box:
        from host_device.appliance.box import Box

        return Box(args).run()
    return Host(args).run()


def add_commands(commands: Any) -> None:
    p = commands.add_parser("run", help="host a game at the table")
    p.add_argument(
        "--mode",
        default="host",
        choices=("host", "assist"),
        help="host: the device hosts the game; assist: a human host leads from his keys and screen",
    )
    p.add_argument(
        "--preset",
        default="classic",
        help="classic (10 seats), event (12 seats) or city (6 … 16 seats, --seats)",
    )
    p.add_argument(
        "--seats",
        type=number_in(6, 16, "--seats"),
        help="city: the table's size (default 10, or [city] seats)",
    )
    p.add_argument(
        "--deal",
        choices=("device", "cards", "host"),
        help="device (host mode's default): the device deals and shows each role on its LED; cards: "
        "players drew cards and register them on the buttons; host (assist mode's default): the host "
        "types the roles on his screen",
    )
    p.add_argument("--seed", type=int, help="the deal's random seed (default: a new deal every game)")
    p.add_argument(
        "--panel",
        default="gpio",
        choices=PANELS,
        help="gpio: the table's buttons and LEDs; keyboard: this terminal's keys; mock: no hardware; "
        "web: phones (/seat/N) as every seat's button and LED (needs --web)",
    )
    p.add_argument("--audio", default="device", choices=AUDIO)
    p.add_argument("--wav", metavar="FILE.wav", help="with --audio file: what the microphone hears")
    p.add_argument("--model", metavar="DIR", help="the speech model (default: the installed one)")
    p.add_argument("--config", metavar="FILE.toml")
    p.add_argument(
        "--speed",
        type=SPEED,
        default=1.0,
        help="how many times faster than life (for trying it out; default 1)",
    )
    p.add_argument(
        "--days", type=number_in(1, 100, "--days"), help="stop after this many days (for trying it out)"
    )
    p.add_argument("--verbose", action="store_true", help="print what is heard")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="host mode: print nothing of the game (no phrases, no status line)",
    )
    p.add_argument("--store", metavar="PATH", help="the game store (default: in the data directory)")
    p.add_argument(
        "--web", metavar="[HOST:]PORT", help="serve the table page (PORT: every interface; 127.0.0.1:PORT)"
    )
    p.add_argument("--resume", type=game_id, metavar="ID", help="resume this unfinished game")
    p.add_argument("--new", action="store_true", help="start a new game even if one is unfinished")
    p.add_argument(
        "--box",
        action="store_true",
        help="the appliance: ready at start, run by the host buttons (next: a game; hold next: the menu; "
        "hold pause: power off), game after game",
    )
    p.add_argument("--no-ambience", action="store_true", help="no night sound under the night phases")
    p.set_defaults(func=cmd_run)
