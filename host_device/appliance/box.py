"""``host-device run --box``: the Pi as an appliance. It opens the table's
devices once, says it is ready, and from then on is run by the panel's
three host buttons alone (host_device/appliance/controls.py): a game, back to
ready, the next game, and power-off, with nobody at a terminal.

The menu's choice (rules, deal) is kept in the data directory (box.json) for
the next start; its voice is the voice in use (voices/installed.py), which the
menu switches among the voices whose packs are ready. An unfinished game is offered at start only if it is the
latest game played at this table (so a table that chose a new game is not
asked again about the old one).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import queue
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from engine.presets import table_of
from hardware.factory import make_panel
from hardware.panel import OFF
from host_device.appliance.controls import DEALS, RULES, VOICE_SAMPLE, Choice, Controls, Outcome
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import read_small, replacing
from host_device.base.paths import data_dir
from host_device.base.stopping import Stopped, said_stopped, stopped_by_signals
from host_device.base.text import one_line
from host_device.config import Config, Strictness, load_config, parse_address
from host_device.runtime.clock import REAL, Clock, Scheduler
from host_device.session.club_sending import club_url, start_sender
from host_device.session.devices import Devices, TerminalLines, load_model, table_preset
from host_device.session.evening import NEXT
from host_device.session.host import Host
from host_device.session.options import GameOptions
from host_device.store.faults import StoreError
from host_device.tournament.seating_file import FileTable
from voices.words import preset_name

log = logging.getLogger(__name__)

POWER_OFF = ("systemctl", "poweroff")  # the one command that powers the Pi off
TICK_S = 0.1  # how often the panel is polled between games (holds are seen this soon)
CHOICE_BYTES = 4096  # box.json holds two words: anything bigger is not the box's


def run_command(command: Sequence[str]) -> None:
    try:
        subprocess.run(list(command), check=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("не могу выключить (%s): %s", " ".join(command), os_reason(exc))


def load_choice(path: Path, default: Choice) -> Choice:
    """The menu's choice kept in box.json, or ``default``: none kept yet
    (the box's first start), or a bad file, said in one line (a FIFO, a
    device, a file over CHOICE_BYTES, bad JSON, rules or a deal it has not)."""
    try:
        data = json.loads(read_small(path, CHOICE_BYTES))
        deal = next((kind for kind in DEALS if kind == data["deal"]), None)
        if data["preset"] not in RULES or deal is None:
            raise ValueError(f"no rules {data['preset']!r} or no deal {data['deal']!r}")
        fouls = Strictness(data.get("fouls", default.fouls))  # a box.json from before issue 39 has none
        choice = Choice(str(data["preset"]), deal, fouls)
    except FileNotFoundError:
        return default
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
        log.warning(
            "%s: не выбор меню (%s); коробка начнёт с правилами %s, раздача %s",
            path,
            one_line(why, 120),
            default.preset,
            default.deal,
        )
        return default
    return choice


def say_store_unusable(announcer: Any) -> None:
    """The box cannot record games (a read-only or full disk): it says so
    before it ends with the one line (exit 2), as nobody reads its terminal."""
    announcer.say("store_unusable").wait(10)


def power_off_allowed(config: bool, panel: str) -> bool:
    """The config's switch, and never from the keyboard panel (a laptop is not the box)."""
    return config and panel != "keyboard"


class Box:
    def __init__(
        self,
        options: GameOptions,
        power_off: Callable[[Sequence[str]], None] = run_command,
        clock: Clock = REAL,
    ) -> None:
        from host_device.store import Store
        from voices.catalogue import russian
        from voices.installed import current

        if options.mode != "host":
            raise HostDeviceError("--box: коробка ведёт игру сама (--mode host); помощнику нужен ведущий")
        self.options = o = options
        self.config: Config = load_config(o.config)
        self.power_off = power_off
        self.clock = clock  # the wall clock of the box and of every game it hosts
        self.choice_path = o.store.parent / "box.json" if o.store else data_dir() / "box.json"
        self.choice = self._load_choice()
        table_preset(self.choice.preset, None, self.config.city)  # a bad [city] is said now
        self.inbox: queue.Queue[Any] = queue.Queue()
        catalogue = russian()
        now = current(catalogue)  # the voice chosen (voices use, the menu), else RHVoice, else espeak-ng
        print(f"host-device: {now.line()}", flush=True)  # which voice speaks and why: the box's first line
        voice, pack = now.name, now.pack
        panel = make_panel(o.panel, self.config.pinmap(self.seats(self.choice.preset)), clock.now, self.inbox)
        try:
            microphone, speaker = self.config.open_audio(o.audio, self.inbox, pack.sample_rate, o.wav)
        except HostDeviceError:
            panel.close()
            raise
        self.announcers = self._voices(catalogue, voice, pack, speaker)
        self.choice = dataclasses.replace(self.choice, voice=voice)
        announcer = self.announcers[voice]
        try:
            self.store = Store(o.store)
        except StoreError:
            say_store_unusable(announcer)
            speaker.close()
            panel.close()
            raise
        self.devices = Devices(
            inbox=self.inbox,
            panel=panel,
            microphone=microphone,
            speaker=speaker,
            announcer=announcer,
            store=self.store,
            model=self._model(panel),
            power_off=power_off_allowed(self.config.power_off, o.panel),
            clock=clock,
            sender=start_sender(club_url(o, self.config), self.store.path),  # None: no club database
        )
        self._polled = 0.0
        listen = o.web or self.config.web
        self.web = parse_address(listen) if listen else None  # the pages, of a game or between games
        self.console_token: str | None = None  # the console's address, kept across the box's games
        self.last_game: int | None = None  # the review /game/current shows between games

    @property
    def panel(self) -> Any:
        """The panel the box holds now (reopened when the table's size changes)."""
        return self.devices.panel

    # ------------------------------------------------------------ set-up

    def _model(self, panel: Any) -> Any:
        from host_device.listening.speech_model import ModelMissing

        try:
            model = load_model(self.options.model)
        except ModelMissing as exc:
            self._line(f"host-device: {exc}; выставления не слышны", panel)
            return None
        return model

    def _line(self, text: str, panel: Any = None) -> None:
        """A line on the box's terminal: above the keyboard panel's line of lights where it draws one
        (a print ran on from the end of it)."""
        if self.options.panel == "keyboard":
            (panel or self.panel).write_line(text)
        else:
            print(text, flush=True)

    @staticmethod
    def _voices(catalogue: Any, voice: str, pack: Any, speaker: Any) -> dict[str, Any]:
        """An announcer for each voice the menu can switch to: the one speaking, espeak-ng's,
        and each of RHVoice's and the installed Piper voices whose pack is ready at the speaker's
        rate (none is rendered here: ``voices use`` renders)."""
        from host_device.sound.announcer import Announcer
        from voices.installed import BUILTIN, offered, ready_pack
        from voices.pack import ensure_builtin

        packs = {voice: pack}
        for name in offered():
            ready = ensure_builtin(catalogue) if name == BUILTIN else ready_pack(name, catalogue)
            if name not in packs and ready is not None and ready.sample_rate == pack.sample_rate:
                packs[name] = ready
        return {name: Announcer(catalogue, p, speaker) for name, p in sorted(packs.items())}

    def seats(self, preset: str) -> int:
        return table_preset(preset, None, self.config.city).seats

    def _load_choice(self) -> Choice:
        deal: Literal["device", "cards"] = "cards" if self.options.deal == "cards" else "device"
        fouls = self.options.fouls or self.config.fouls.strictness
        return load_choice(self.choice_path, Choice(self.options.preset, deal, fouls))

    def _save_choice(self, choice: Choice) -> None:
        try:
            self.choice_path.parent.mkdir(parents=True, exist_ok=True)
            with replacing(self.choice_path) as tmp:
                tmp.write_text(
                    json.dumps({"preset": choice.preset, "deal": choice.deal, "fouls": choice.fouls.value}),
                    encoding="utf-8",
                )
        except OSError as exc:
            log.warning("%s: не могу сохранить выбор меню: %s", self.choice_path, os_reason(exc))

    def _chosen(self, choice: Choice) -> None:
        """The menu's choice, kept the moment it is made (the box may be stopped before the next game)."""
        from voices.installed import use

        if choice.voice != self.choice.voice:
            self.devices.announcer = self.announcers[choice.voice]
            try:
                use(choice.voice)
            except HostDeviceError as exc:
                log.warning("не сохранить выбор голоса: %s", one_line(str(exc), 200))
        self.choice = choice
        self._save_choice(choice)

    def _offer(self) -> int | None:
        """The latest game at this table, if it is unfinished and can be carried on."""
        table = [g for g in self.store.games.all() if g.mode in ("host", "assist") and g.preset in RULES]
        table = [g for g in table if not self._trial(g.id)]
        if not table or table[-1].finished_at is not None or table[-1].mode != "host":
            return None  # a human host's game (assist mode) is his to carry on: the box hosts only
        resumable = {g.id for g in self.store.games.unfinished()}
        return table[-1].id if table[-1].id in resumable else None

    def _trial(self, game_id: int) -> bool:
        try:
            return bool(self.store.games.settings(game_id).get("trial_days"))
        except HostDeviceError:
            return True  # damaged settings: not offered

    def _panel_for(self, seats: int) -> None:
        """The panel sized for this table (a 12-seat table needs 12 seats' pins)."""
        if self.panel.seats != seats:
            self.panel.close()
            self.devices.panel = make_panel(
                self.options.panel, self.config.pinmap(seats), self.clock.now, self.inbox
            )

    # ------------------------------------------------------------ the box

    def between_games(self, offer: int | None) -> Outcome:
        """Ready (or the question) until the buttons decide."""
        from voices.installed import describe

        sched = Scheduler()

        def voice(slots: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
            """The voice speaking, or the one the menu offers (VOICE_SAMPLE's slot), and the slots."""
            said = {k: v for k, v in slots.items() if k != "voice"}
            return self.announcers.get(slots.get("voice", ""), self.devices.announcer), said

        def play(key: str, slots: dict[str, Any]) -> None:
            announcer, said = voice(slots)
            announcer.say(key, **said)
            which = f" (голос {describe(slots['voice'])})" if key == VOICE_SAMPLE else ""  # and its licence
            self._line(f"host-device: Ведущий: {announcer.catalogue.text(key, said)}{which}")

        def duration(key: str, slots: dict[str, Any]) -> float:
            announcer, said = voice(slots)
            return float(announcer.duration(key, said))

        controls = Controls(
            sched,
            play,
            duration,
            self.choice,
            self.seats,
            offer=offer,
            power_off=self.devices.power_off,
            chosen=self._chosen,
            voices=tuple(self.announcers),
        )
        controls.start()
        keyboard = self.options.panel == "keyboard"  # its keys: n «Дальше», N «Дальше» held, u «Отмена»
        if controls.state == "ready":
            keys = (
                "n — игра; N — меню (в меню: n — дальше, u — выбрать)"
                if keyboard
                else "«Дальше» — игра; держать «Дальше» 3 с — меню; держать «Пауза» 5 с — выключить"
            )
            if self.options.panel == "mock":
                keys = "наберите и Enter: n — игра; N — меню (в меню: n — дальше, u — выбрать)"
            where = ""
            if self.options.tournament is not None:  # which table of which tournament this box is
                where = f"; турнир «{self.options.tournament[0]}», стол {self.options.tournament[1]}"
            self._line(
                f"host-device: готов: {preset_name(self.choice.preset)}, {self.seats(self.choice.preset)} "
                f"игроков{where} ({keys})"
            )
        else:
            keys = "n — продолжить, u — новая" if keyboard else "«Дальше» — продолжить, «Отмена» — новая"
            if self.options.panel == "mock":
                keys = "наберите и Enter: n — продолжить, u — новая"
            self._line(f"host-device: игра {offer} прервана: {keys}")

        def beat() -> None:
            sched.after(TICK_S, beat)

        beat()
        pages = self._club_pages()
        try:
            sched.run_real(  # at speed 1 whatever --speed says: holds, the menu, its phrases are a person's
                1.0,
                stop=lambda: controls.outcome is not None and sched.now >= controls.speaking_until,
                inbox=self.inbox,
                on_input=controls.input,
                tick=self._tick,
                clock=self.clock,
            )
        finally:
            if pages is not None:  # the next game's pages take the address
                pages.stop()
        self._panel_for(self.seats(self.choice.preset))
        assert controls.outcome is not None
        return controls.outcome

    def _club_pages(self) -> Any:
        """Between games, the club's pages of the box's store on its pages' address (None: no address)."""
        if self.web is None:
            return None
        from host_device.web.club_worker import ClubPages
        from host_device.web.server import WebServer, lan_address

        club = ClubPages(self.store.path, scoring=self.config.scoring)
        club.current = lambda: self.last_game
        server = WebServer(None, *self.web, club=club)
        bound, port = server.start()
        shown = lan_address() if bound == "0.0.0.0" else bound
        self._line(f"host-device: страницы клуба: http://{shown}:{port}/club")
        return server

    def _tick(self) -> None:
        now = self.clock.now()
        if now - self._polled >= TICK_S:
            self._polled = now
            self.panel.poll()

    def _game_options(self, outcome: Outcome) -> GameOptions:
        game = dataclasses.replace(
            self.options,
            preset=self.choice.preset,
            deal=self.choice.deal,
            fouls=self.choice.fouls,
            new=True,
            resume=None,
            seats=None,
        )
        if outcome.kind != "resume" and self.options.tournament is not None:
            found = self._tournament_round(self.options.tournament)  # asked once: the game asks no more
            table = found if isinstance(found, FileTable) else None
            spec = None if isinstance(found, FileTable) else found
            game = dataclasses.replace(game, tournament=spec, tournament_table=table)
        if outcome.kind == "resume":
            assert outcome.game_id is not None
            preset = self.store.games.preset(outcome.game_id)
            seats = table_of(preset).get("seats")
            game = dataclasses.replace(
                game,
                preset=preset.name,
                resume=outcome.game_id,
                new=False,
                tournament=None,  # a resumed game keeps its seats and its link
                seats=seats if isinstance(seats, int) else None,
            )
            self._panel_for(preset.seats)
        return game

    def _tournament_round(self, spec: tuple[str, int, int]) -> tuple[str, int, int] | FileTable | None:
        """``--box --tournament NAME --table T``: each new game is the table's next round (the one
        after the last it finished here, or ``--round`` if later); when the tournament has no
        such round, or its seating cannot be had, said in one line, and the game is an
        ordinary one (the host names the seats on the console)."""
        from host_device.tournament.playing import table_source

        name, table, first = spec
        try:
            round_no = max(first, self.store.tournaments.last_finished_round(name, table) + 1)
            return table_source(self.store, (name, table, round_no), club_url(self.options, self.config))
        except HostDeviceError as exc:  # the table hears it too: no «Стол…, игра…» will follow
            self._line(f"host-device: {exc}; эта игра — не турнирная")
            self._announce("no_tournament_table")
            return None

    def _announce(self, key: str) -> None:
        """A phrase of the box's own, said to its end and written like every phrase of the evening."""
        announcer = self.devices.announcer
        announcer.say(key).wait(10)
        self._line(f"host-device: Ведущий: {announcer.catalogue.text(key, {})}")

    def run(self) -> int:
        off = False
        try:
            with stopped_by_signals():
                off = self._games()
        except Stopped as exc:
            said_stopped(exc)
        finally:
            self.close()
        if off:
            print("host-device: выключаюсь", flush=True)
            self.power_off(POWER_OFF)
        return 0

    def _games(self) -> bool:
        """Game after game: from «готов», or at once when the host asked for the next one after
        an end (session/evening.py); True when the box is to power off."""
        if self.devices.model is None:
            self._announce("model_missing")
        offer = self._offer()
        if self.options.panel != "keyboard":  # a line typed on the terminal stands in for a button
            TerminalLines(self.inbox, self.clock).start(sys.stdin)
        outcome = self.between_games(offer)
        while outcome.kind != "off":
            host = Host(self._game_options(outcome), self.devices, console_token=self.console_token)
            try:
                host.run()
            except StoreError:  # the game cannot be recorded: said, then the one line
                say_store_unusable(self.devices.announcer)
                raise
            self.console_token, self.last_game = host.console_token, host.game_id
            if host.leaving is not None:
                return True
            self.panel.all_leds(OFF)
            self._panel_for(self.seats(self.choice.preset))
            next_now = host.after is not None and host.after.choice == NEXT
            outcome = Outcome("new") if next_now else self.between_games(None)
        return True

    def close(self) -> None:
        """Everything closed, the store last written and closed, before any power-off."""
        self.devices.speaker.set_bed(None)
        self.devices.speaker.close()
        self.panel.close()
        if self.devices.sender is not None:  # before the store: it ends between two games it sends
            self.devices.sender.close()
        self.store.close()
