"""Opening what the table has, from the config and ``run``'s arguments: the
devices a box lends to each game, the speech model, the night's sound, the
table's rules, the seats played with phones, the terminal and the host's
keyboard."""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import Preset, get_preset
from engine.presets import table_of
from hardware.events import HostKey, Press, TypedLine
from hardware.microphone import Microphone
from hardware.panel import Panel
from hardware.speaker import Speaker
from host_device.base.errors import HostDeviceError
from host_device.base.sound import Samples
from host_device.base.text import printable
from host_device.config import Ambience
from host_device.listening.intents import russian_patterns
from host_device.runtime.clock import REAL, Clock

if TYPE_CHECKING:  # the heavy parts, loaded where they are opened
    from host_device.clubdb.sender import Sender
    from host_device.listening.decoder import DecoderProcess
    from host_device.sound.announcer import Announcer
    from host_device.store import Store


@dataclass
class Devices:
    """What the box opens once and lends to each game it hosts: a game on
    borrowed devices leaves them open when it ends."""

    inbox: queue.Queue[Any]
    panel: Panel
    microphone: Microphone
    speaker: Speaker
    announcer: Announcer
    store: Store
    model: DecoderProcess | None  # the speech model (loaded once), or None
    power_off: bool  # hold «пауза» to power off (the box's setting)
    clock: Clock = REAL  # the wall clock every device stamps its events with
    sender: Sender | None = None  # the box's sender to the club's database (clubdb/sender.py), or None


def night_bed(ambience: Ambience, rate: int) -> Samples | None:
    """The night's sound at the config's volume, or None when it is off."""
    from voices.ambience import club_bed, generated_bed, scaled

    if not ambience.enabled or ambience.volume == 0:
        return None
    bed = club_bed(ambience.file, rate) if ambience.file else generated_bed(rate)
    return scaled(bed, ambience.volume)


def load_model(path: Path | None) -> DecoderProcess:
    """The speech model (``--model`` or the installed one) in its decoding
    process, with a warning naming the pattern words it lacks; ModelMissing
    when there is none."""
    from host_device.listening.decoder import DecoderProcess
    from host_device.listening.speech_model import find_model
    from host_device.listening.vocabulary import warn_unknown_words

    model = DecoderProcess(find_model(path))
    try:
        warn_unknown_words(model, russian_patterns())
    except BaseException:
        model.close()
        raise
    return model


def speech_model(
    devices: Devices | None, path: Path | None, notice: Callable[[str, str], None]
) -> DecoderProcess | None:
    """The box's model (None: it said so once, at its start), or ``--model`` (or the installed one)
    loaded for this game; none installed is said as a notice, and the game goes on unheard."""
    from host_device.listening.speech_model import ModelMissing

    if devices is not None:
        return devices.model
    try:
        return load_model(path)
    except ModelMissing as exc:
        notice(
            f"{exc}; nominations are not heard in this game",
            "модели речи нет: выставления в этой игре не слышны (установить: host-device model install)",
        )
        return None


def table_preset(name: str, seats: int | None, city: dict[str, Any]) -> Preset:
    """The rules at this table: a city table from --seats and the config's [city]."""
    if table_of(get_preset(name)):  # a table of any size (city): --seats and [city] make it
        return get_preset(name, **{**city, **({"seats": seats} if seats else {})})
    return get_preset(name, seats)


def phone_seats(panel: str, listed: tuple[int, ...], seats: int, web: bool) -> tuple[int, ...]:
    """The seats played with phones: every seat with ``--panel web``, else
    the config's ``[web] seats`` (beside a panel that lacks their buttons)."""
    if panel == "web":
        if not web:
            raise HostDeviceError(
                "--panel web: кнопки мест — телефоны, им нужны страницы коробки: "
                'добавьте --web ПОРТ (или в файле настроек [web] listen = "8000")'
            )
        return tuple(range(1, seats + 1))
    if listed and not web:
        raise HostDeviceError(
            "[web].seats: кнопки этих мест — телефоны, им нужны страницы коробки: "
            'добавьте --web ПОРТ (или в файле настроек [web] listen = "8000")'
        )
    beyond = [seat for seat in listed if seat > seats]
    if beyond:
        raise HostDeviceError(f"[web].seats: места {beyond[0]} за этим столом нет (места 1…{seats})")
    return listed


def needs_typed_speech(listener: Any, panel: str) -> bool:
    """Typed speech stands in for a missing model, except on the keyboard
    panel, which reads the same terminal key by key (Tab opens a line there)."""
    return listener is None and panel != "keyboard"


def is_terminal() -> bool:
    try:
        return os.isatty(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return False


class TerminalLines:
    """Lines typed on the terminal (a line at a time), each put in the inbox
    as a :class:`TypedLine`: the current speaker's words without a speech
    model, or an answer to the resume question."""

    def __init__(self, inbox: queue.Queue[Any], clock: Clock = REAL) -> None:
        self.inbox = inbox
        self.clock = clock

    def start(self, stream: Any) -> threading.Thread:
        thread = threading.Thread(target=self.read, args=(stream,), daemon=True)
        thread.start()
        return thread

    def read(self, stream: Any) -> None:
        try:
            for line in stream:
                if printable(line).strip():  # invalid bytes typed (a lone surrogate), an escape: printable
                    self.inbox.put(TypedLine(text=printable(line).strip(), at=self.clock.now()))
        except (OSError, ValueError):  # no terminal (a service, a closed stdin): nothing is typed
            return


class HostKeys(queue.Queue[Any]):
    """Where the host's keyboard puts its events: into the inbox, each press marked as his."""

    def __init__(self, inbox: queue.Queue[Any]) -> None:
        super().__init__()
        self.inbox = inbox

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        self.inbox.put(HostKey(item) if isinstance(item, Press) else item)


def host_keyboard(seats: int, inbox: queue.Queue[Any], clock: Clock = REAL) -> Any:
    """The terminal's keys as the host's keys (assist mode beside a GPIO panel), if there is a terminal."""
    from hardware.keyboard_panel import KeyboardPanel

    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):
        return None
    return KeyboardPanel(seats, clock.now, HostKeys(inbox), keys_fd=fd, draw=False)


def store_path(devices: Devices | None, store: Path | None) -> Path:
    """The store the game is kept in (the club's pages read it): the devices' own, else ``--store``."""
    from host_device.store.db import default_store_path

    if devices is not None:
        return Path(devices.store.path)
    return store or default_store_path()
