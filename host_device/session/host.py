"""``host-device run``: one game at the table, from the opened devices to the last word.

One inbox for everything the table does (panel presses from gpiozero's or
the keyboard's threads, intents and warnings from the listener's thread); the
scheduler follows the wall clock and handles each input the moment it
arrives (session/inputs.py). What the runtime asks is carried out on the
devices (session/effects.py); the devices' health is checked as it runs
(session/health.py). The session keeps the game in the store, asks whether
to carry on an unfinished one, serves the pages with ``--web``, draws the
screen or the status line, and has the game sent to the club's database
(session/club_sending.py).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import queue
import shutil
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine import Game, Phase
from engine.steps import NIGHT
from hardware.events import TypedLine
from hardware.factory import make_panel
from host_device.base.stopping import INTERRUPTED, SaidInterrupted
from host_device.config import Config, load_config, parse_address
from host_device.listening.intents import russian_patterns
from host_device.listening.listener import Gate
from host_device.runtime.assist import Assist, runtime_settings
from host_device.runtime.cards import CardRegistration
from host_device.runtime.clock import REAL, Clock, Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.screens.narration import Narration, PlainLines, StatusLine, status
from host_device.screens.terminal import Screen
from host_device.screens.titles import ended, title
from host_device.screens.views import Console
from host_device.session.club_sending import attach, club_url
from host_device.session.deal import deal, show_roles
from host_device.session.devices import (
    Devices,
    TerminalLines,
    host_keyboard,
    is_terminal,
    needs_typed_speech,
    night_bed,
    phone_seats,
    speech_model,
    store_path,
    table_preset,
)
from host_device.session.effects import Effects
from host_device.session.evening import AfterGame
from host_device.session.health import Health
from host_device.session.inputs import Inputs
from host_device.session.options import GameOptions
from host_device.session.phone_notices import PhoneNotices
from host_device.session.phone_wait import PhoneWait
from host_device.session.question import Question
from host_device.session.resume import ask_to_resume, game_to_resume, how_it_ended, record, trial_days
from host_device.session.seating import TableSeating
from host_device.tournament.playing import say_table, seater_for

if TYPE_CHECKING:
    from host_device.clubdb.sender import Sender

log = logging.getLogger(__name__)

SCREEN_S = 0.25


class Host:
    def __init__(
        self,
        options: GameOptions,
        devices: Devices | None = None,
        clock: Clock = REAL,
        console_token: str | None = None,  # the evening's console address, kept from its last game
    ) -> None:
        from voices.catalogue import russian

        self.options = o = options
        self.clock = devices.clock if devices is not None else clock
        self.devices = devices
        self.web_server: Any = None
        self.lines: Any = None  # host mode: what the table may know, as lines, and the status line
        self.drawn_at = 0.0  # the wall time the screen or the status line was last drawn
        config = load_config(o.config)
        self.preset = table_preset(o.preset, o.seats, config.city)
        listen = o.web or config.web
        self.web = parse_address(listen) if listen else None  # named before any device is opened
        self.scoring = config.scoring  # the club's scoring table, for the club's pages
        self.stream = config.stream  # [stream]: the broadcast overlay (its pages with --web)
        self.club_url = club_url(o, config)  # the club's database
        self.sender: Sender | None = None  # run's own sender to it
        self.phone_seats = phone_seats(o.panel, config.web_seats, self.preset.seats, self.web is not None)
        self.publisher: Any = None  # the pages' side, with --web
        self.phone_wait: PhoneWait | None = None  # the deal, or a resumed game, waits for the phones
        self.console: Console | None = None
        self.inbox: queue.Queue[Any] = devices.inbox if devices else queue.Queue()
        self.sched = Scheduler()
        catalogue = russian()
        self.deal_kind = o.deal_kind
        pack = self._open_devices(config)
        self.gate = Gate()
        self.assist: Assist | None = None
        self.screen: Screen | None = None
        self.keys: Any = None  # the host's keyboard in assist mode, beside a GPIO panel
        settings = Settings(**runtime_settings(config.assist)) if o.mode == "assist" else Settings()
        settings = dataclasses.replace(settings, fouls=o.fouls or config.fouls.strictness)
        self.runtime = Runtime(Game(self.preset), self.sched, self.announcer.duration, settings)
        if o.mode == "assist":
            self._assist_mode(config)
        self.listener = self._listener(config.fouls.confidence)
        self.runtime.settings = dataclasses.replace(
            self.runtime.settings, watch_time=self.listener is not None
        )
        bed = night_bed(config.ambience, pack.sample_rate) if o.ambience else None
        self.effects = Effects(
            self.runtime, self.sched, self.panel, self.speaker, self.announcer, self.gate, self.listener, bed
        )
        self.runtime.step_hooks.append(self._on_step)
        self.health = Health(
            self.runtime, self.clock, self.panel, self.microphone, self.speaker, self.effects, self._notice
        )
        self.store: Any = None
        self.game_id: int | None = None
        self.trial_days: int | None = None  # the game is a trial begun for this many days (--days)
        self.resumed = False
        # lines typed on the terminal: the speaker's words without a model (host mode), the resume answer
        keyboard = o.panel == "keyboard"
        self.lines_in = TerminalLines(self.inbox, self.clock) if not keyboard and self.keys is None else None
        missing = needs_typed_speech(self.listener, o.panel)  # assist mode too: a foul proposed, never given
        self.typed_speech = keyboard or self.keys is not None or missing  # a keyboard: Tab types words
        if o.mode == "host" and not o.quiet:
            self.lines = self._host_lines()
            Narration(self.runtime, catalogue.text, self.lines.write_line)
        self.inputs = Inputs(
            self.runtime,
            self.clock,
            self.assist,
            keyboard=keyboard,
            power_off=bool(devices and devices.power_off),
            typed_speech=self.typed_speech,
            show_typed=self.lines is not None,
            verbose=o.verbose,
            notice=self._notice,
            leave=self.effects.leave,
            print_line=self._print,
            phone_notice=lambda item: self.phones.tell(item),
            speed=o.speed,
        )
        if self.web is not None:
            whole = o.panel == "web"
            self.console = Console(self.runtime, self.assist, whole_table=whole, typed=self.typed_speech)
        self.phones = PhoneNotices(self._notice, self.console, self.assist is None, lambda: self.game.state)
        self.seating = (  # the seat grid and the phones' names (with --web)
            None
            if self.console is None
            else TableSeating.attached(
                self.console.seating,
                self.inputs,
                config,
                self.phones.passing,  # a name's lines go when the day begins, as the phones' arrivals do
                self._seating_changed,
                lambda: self.assist is None and self.game.phase in NIGHT,
            )
        )
        self.question = Question(
            self.inbox, self.clock, self.console, lambda: self.publisher.refresh(), self._print
        )
        self.console_token = console_token
        self.after = None if self.console is None else AfterGame(self.console, self.inputs.take, self._notice)

    def _open_devices(self, config: Config) -> Any:
        """The panel, the microphone, the speaker and the announcer: the box's, or opened
        here from the options and the config; returns the voice pack."""
        from host_device.sound.announcer import Announcer
        from voices.catalogue import russian
        from voices.installed import current

        o, devices = self.options, self.devices
        if devices is not None:
            self.panel, self.microphone, self.speaker = devices.panel, devices.microphone, devices.speaker
            self.announcer = devices.announcer
            return devices.announcer.pack
        catalogue = russian()
        voice = current(catalogue)  # chosen (voices use), else RHVoice where installed, else espeak-ng
        print(f"host-device: {voice.line()}", flush=True)  # which voice speaks and why: run's first line
        pack = voice.pack
        pinmap = config.pinmap(self.preset.seats)
        self.panel = make_panel(o.panel, pinmap, self.clock.now, self.inbox, draw=o.mode == "host")
        self.microphone, self.speaker = config.open_audio(o.audio, self.inbox, pack.sample_rate, o.wav)
        self.announcer = Announcer(catalogue, pack, self.speaker)
        return pack

    def _assist_mode(self, config: Config) -> None:
        """A human host leads: his screen on the terminal, his keys beside a panel that lacks them."""
        o = self.options
        self.assist = Assist(self.runtime, config.assist, role_entry=self.deal_kind == "host")
        self.screen = Screen(self.assist, sys.stdout)
        if o.panel != "keyboard":
            self.keys = host_keyboard(self.preset.seats, self.inbox, self.clock)
        self.screen.typing = getattr(self.keys or self.panel, "typing_line", None)
        if not is_terminal() and self.web is None:  # with --web, the console on his phone
            log.warning(
                "режим помощника без терминала: до игры доходят только кнопки ведущего на пульте "
                "(дальше, пауза, отмена)%s",
                "; роли не ввести (--deal cards или --deal device)" if self.deal_kind == "host" else "",
            )

    def _host_lines(self) -> Any:
        """Host mode: where what the table may know is written (the keyboard panel's screen, a
        status line on a terminal, plain lines to a log)."""
        if self.options.panel == "keyboard":
            return self.panel
        if is_terminal():
            return StatusLine(sys.stdout, shutil.get_terminal_size((80, 24)).columns)
        return PlainLines(sys.stdout)

    def _listener(self, confidence: float | None) -> Any:
        from host_device.listening.hearing import FORBIDDEN_CONF
        from host_device.listening.listener import Listener

        model = speech_model(self.devices, self.options.model, self._notice)
        if model is None:
            return None
        return Listener(
            model,
            self.microphone,
            russian_patterns(),
            self.preset.seats,
            self.inbox,
            self.clock.now,
            gate=self.gate,
            partials=self.options.mode == "assist",  # the host's screen shows the words as they come
            forbidden_conf=FORBIDDEN_CONF if confidence is None else confidence,
        )

    def _seating_changed(self) -> None:
        if self.publisher is not None:
            self.publisher.stream.names_changed()  # told only where names are public
            self.publisher.refresh()

    def _notice(self, text: str, russian: str) -> None:
        """A fault or a change at the table: in Russian on the terminal (assist mode: the screen's
        message line), in English in the log."""
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

    @property
    def leaving(self) -> Any:
        """«Выключаюсь» said (the pause button held at the box), or None."""
        return self.effects.leaving

    def _on_step(self, runtime: Runtime) -> None:
        s = runtime.game.state
        night = self.assist is None and s.phase in NIGHT
        if self.publisher is not None:
            self.publisher.hush(night)
        if not night and self.seating is not None and self.seating.pending:
            self.seating.release()
        self.phones.step_began()
        if s.phase is Phase.GAME_OVER and self.after is not None:
            self.after.due = True  # the console asks once the end is said (nothing shown before it is said)
            self.sched.at(runtime.opened_until, functools.partial(self.after.ask, runtime, self.game_id))
        if self.options.days is not None and s.phase is Phase.MORNING and s.day > self.options.days:
            runtime.stop()

    def _input(self, item: Any) -> None:
        if (item := self.inputs.told(item)) is None:
            return  # the console's «Весь стол» switch: shown on the table page, nothing else
        wait = self.phone_wait
        starts = wait is not None and wait.waiting and PhoneWait.starts(item)
        if self.assist is not None and isinstance(item, TypedLine) and not starts:
            self.assist.typed(item.text)  # the host's screen shows what was typed, heard or not
        if self.after is not None and self.after.waiting:
            self.after.take(item)  # the game is over: the host's answer, the seat grid
        elif wait is not None and starts:
            wait.start()
        elif wait is None or not wait.holds(item):
            self.inputs.take(item)
        if self.phone_wait is not None:
            self.phone_wait.check()
        if self.publisher is not None:
            self.publisher.after_input()

    def _heartbeat(self) -> None:
        """The screen (assist mode) or the status line (host mode) redrawn every SCREEN_S;
        the loop runs while it waits for the host (no event of the game's own is due)."""
        self._draw()
        if self.phone_wait is not None:
            self.phone_wait.check()
        if self.publisher is not None:
            self.publisher.refresh()
        if not self._over():
            self.sched.after(SCREEN_S * self.options.speed, self._heartbeat)  # every SCREEN_S of wall time

    def _draw(self) -> None:
        """The screen (assist mode) or the status line (host mode), as the game is now."""
        self.drawn_at = self.clock.now()
        if self.screen is not None:
            self.screen.draw()
        elif self.lines is not None:
            self.lines.status = status(self.runtime, timer=self.lines.live)  # no terminal: no seconds
            self.lines.draw()

    def _tick(self) -> None:
        self.health.tick()
        if self.seating is not None:
            self.seating.check()  # «games extra» from another process: shown where the seats are
        if self.sched.paused and self.clock.now() - self.drawn_at >= SCREEN_S:
            self._draw()  # the heartbeat stands still with the game: «ПАУЗА» and the keys' answers show
        if self.publisher is not None:
            self.publisher.tick()

    def _over(self) -> bool:
        if self.leaving is not None:
            return True
        done = self.game.phase is Phase.GAME_OVER or self.runtime.stopped
        after = self.after
        answered = after is None or not (after.waiting or after.due) or after.choice is not None
        return done and (answered or self.runtime.stopped) and self.sched.now >= self.runtime.speaking_until

    def _open_store(self) -> None:
        from host_device.store import Store

        o = self.options
        self.store = self.devices.store if self.devices is not None else Store(self.options.store)
        if self.store.notice and self.devices is None:
            print(f"host-device: {self.store.notice}", flush=True)
        asked = lambda latest: ask_to_resume(latest, self._print, self.effects.say_now, self.question)  # noqa: E731
        game_id = game_to_resume(self.store, o.resume, o.new, self.preset.name, o.mode, asked)
        fresh = game_id is None  # a new game: a tournament's table names its seats
        seater = seater_for(self.store, o.tournament, o.tournament_table, self.club_url) if fresh else None
        self.game_id = record(self.store, self.runtime, o.mode, game_id, o.days)
        if seater is not None:
            self._print(seater(self.game_id))
        self.sender = attach(
            self.runtime, self.devices, self.club_url, store_path(self.devices, self.options.store)
        )
        self.trial_days = trial_days(self.store, self.game_id)
        if self.seating is not None:
            self.seating.open(self.store, self.game_id)
        if game_id is None:
            return
        self.resumed = True
        if self.publisher is not None:
            self.publisher.stream.reread()  # who has left, in the resumed game
        self._print(f"host-device: продолжаем игру {game_id} ({title(self.game.state)})")

    def _start_web(self) -> None:
        from host_device.web.access import Access
        from host_device.web.club_worker import ClubPages
        from host_device.web.publisher import Private
        from host_device.web.server import start_web
        from voices.catalogue import russian

        assert self.console is not None and self.web is not None
        access = Access.new(self.phone_seats, host=self.console_token)
        self.console_token = access.host
        private = Private(access, self.console, self.inbox, self.stream)
        club = ClubPages(store_path(self.devices, self.options.store), scoring=self.scoring)
        club.current = lambda: self.game_id
        club.hold(lambda: not ended(self.runtime))  # the pages never tell the game, nor before it is said
        self.web_server = start_web(
            self.web, self.runtime, russian().text, self.options.speed, self._print, private, self.clock, club
        )
        self.publisher = self.web_server.publisher
        self.publisher.stream.seating = self.console.seating

    def _start(self) -> None:
        """Everything before the game's first event: the terminal, the pages,
        the store (and the resume question), the listener, the screens, the
        game's first words and its deal."""
        if self.lines_in is not None and self.devices is None:  # the box reads the terminal for all its games
            self.lines_in.start(sys.stdin)
        if self.options.panel == "keyboard" and self.options.mode == "host":
            self._print(
                "host-device: клавиши: места 1…9, 0, -, =; n — дальше, p — пауза; "
                "Tab — слова говорящего, Enter — отправить"
            )
        if self.web is not None:
            self._start_web()
        self._open_store()
        if self.console is not None and self.assist is not None and is_terminal():
            # the host's screen is about to take the terminal and the QR code with it
            self.question.ask("Пульт ведущего готов? Начать игру", "Начать", None, "n — начать игру")
        if self.listener is not None:
            self.listener.start()
        if self.typed_speech and self.lines_in is not None:
            self._print(
                "host-device: наберите слова говорящего и Enter («я выставляю игрока номер семь», «спасибо»)"
            )
        if self.screen is not None or self.lines is not None or self.publisher is not None:
            self._heartbeat()
        living = frozenset(self.phone_seats) & frozenset(self.game.state.alive())
        if self.resumed and living:  # the phones come back with new tokens; its step begins again then
            self._wait_for_phones(living, self._resume, resumed=title(self.game.state))
        elif self.resumed:
            self._resume()
        elif self.phone_seats and self.assist is None and self.deal_kind != "host":
            self._wait_for_phones(self.phone_seats, self._begin)
        else:
            self._begin()

    def _wait_for_phones(self, seats: Iterable[int], then: Any, resumed: str | None = None) -> None:
        """The deal (and the names) or a resumed game waits for its phones (session/phone_wait.py)."""
        assert self.console is not None  # phone seats: the pages are served
        write = (lambda text: self._print(f"host-device: {text}")) if self.assist is None else self.assist.say
        self.phone_wait = PhoneWait.on_pages(seats, then, self.console, self.publisher, write, resumed)
        self.phone_wait.check()

    def _resume(self) -> None:
        self.runtime.resume()
        self._begin()

    def _begin(self) -> None:
        """The game's first words (or the resumed step's), its night sound and its deal."""
        if not self.resumed:
            self.runtime.say("game_starts")
            say_table(self.store, self.game_id, self.runtime.say)
        self.effects.night_sound()
        if self.game.phase is not Phase.ROLES or self.deal_kind == "host":
            return  # resumed after the deal, or the host types the roles on his screen
        if self.deal_kind == "cards":
            self.inputs.cards = CardRegistration(self.runtime, self.runtime.handle)
            self.inputs.cards.start()
        else:
            dealt = deal(self.preset, self.options.seed)
            show_roles(self.runtime, dealt, lambda: self.runtime.handle(dealt))

    def run(self) -> int:
        """The game to its end (0), or to Ctrl-C: «остановлено», how to resume, exit 130 (main's)."""
        interrupted = False
        self._start()
        try:
            self.sched.run_real(
                self.options.speed,
                stop=self._over,
                inbox=self.inbox,
                on_input=self._input,
                tick=self._tick,
                clock=self.clock,
            )
        except KeyboardInterrupt:
            self._print(INTERRUPTED)
            interrupted = True  # a box's game too: Ctrl-C stops the box, not only its game
        finally:
            self._close()
        o = self.options
        print(f"host-device: {how_it_ended(self.game, self.game_id, o.mode, self.trial_days)}", flush=True)
        if interrupted:
            raise SaidInterrupted
        return 0

    def _close(self) -> None:
        if self.screen is not None:
            self.screen.draw()  # the game as it ends
        if self.listener is not None:
            self.listener.stop()
            if self.devices is None:  # the box's model serves its next game
                self.listener.model.close()
        self.effects.close()
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
        if self.sender is not None:  # run's own (the box's ends with the box)
            self.sender.close()
