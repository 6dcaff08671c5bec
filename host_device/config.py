"""The config file (TOML): the panel's pins and the sound devices.

    [panel]            # see hardware/pinmap.py; leave out for the default pins
    debounce_ms = 30
    stuck_after_s = 5
    [audio]
    microphone = "USB PnP Sound Device"   # a name (or part of one) or an index
    speaker = 0
    [assist]           # assist mode (run --mode assist)
    auto_accept = false        # heard nominations take effect without the host's "y"
    votes = "buttons"          # or "counts": the host enters the hands counted
    night = "host"             # or "buttons": the device runs the night as in host mode
    timers = [90, 120]         # free timers (seconds) beyond 60 s, 30 s and the agreement minute
    [city]             # the city rules' table (run --preset city); --seats overrides seats
    seats = 12
    mafia = 3                  # default (seats + 2) // 4
    lover = false              # default: from 8 seats
    [web]
    listen = "8000"            # serve the table page on every interface (or "127.0.0.1:8000"); as --web
    seats = [4, 9]             # these seats play with phones (/seat/N) beside a GPIO panel; --panel web: all
    [ambience]         # the night's sound (run; --no-ambience turns it off)
    enabled = true
    volume = 0.3               # 0 … 1 of the bed's level (-18 dBFS at 1)
    file = "/home/pi/night.wav"  # the club's own loop (mono 16-bit WAV, at most 60 s); default: generated
    [fouls]            # the fouls the device gives from what it hears (docs/fouls.md)
    strictness = "warn"        # "off"; "warn": it says a remark, gives no foul; "foul": it gives it
    confidence = 0.75          # the least word confidence of a forbidden word heard (0 … 1; bench/fouls.py)
    [box]              # run --box: the appliance
    power_off = true           # hold «пауза» 5 s to power the Pi off; default: true on a Pi
    [club]             # the club's record
    scoring = "our-scoring.toml"  # the club's scoring table (beside this file); default: FIIM's
    show_names = false         # names on the TV in the game too (before the deal and after the end: always)
    database = "postgresql://club:ПАРОЛЬ@server/club"  # the club's PostgreSQL: finished games sent there
    [stream]           # the overlay for a broadcast (OBS's Browser Source): off unless enabled
    enabled = false            # serve /overlay (behind its own token, printed by run --web)
    delay_s = 60               # the overlay lags the table by the stream's delay (seconds, 0 … 3600)
    roles = "hidden"           # "delayed": roles, checks, shots, best move after delay_s (at least 30 s)

The file is $HOST_DEVICE_CONFIG, else ~/.config/host-device/config.toml; a
missing file means every default.
"""

from __future__ import annotations

import os
import time
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.presets import MAX_SEATS, TABLE_SIZES
from hardware.microphone import Microphone
from hardware.pinmap import PinMap, pinmap_from_config
from hardware.speaker import Speaker
from host_device.base.club_address import CLUB_DB_EXAMPLE, CLUB_DB_SCHEMES
from host_device.base.errors import HostDeviceError, os_reason, toml_place
from host_device.base.files import read_text


class ConfigError(HostDeviceError, ValueError):
    pass


class WebError(HostDeviceError):
    """A ``--web`` address that is no address, or a server that cannot listen on it."""


def parse_address(text: str) -> tuple[str, int]:
    """``8000`` (every interface: the table's Wi-Fi) or ``HOST:PORT``."""
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise WebError(f"--web {text!r}: укажите порт (8000) или HOST:PORT (127.0.0.1:8000)")
    return host or "0.0.0.0", number


@dataclass(frozen=True)
class AssistSettings:
    auto_accept: bool = False  # heard nominations take effect at once
    votes: str = "buttons"  # "buttons": windows timed on the buttons; "counts": the host enters hands
    night: str = "host"  # "host": the host enters the result; "buttons": the device runs it as in host mode
    timers: tuple[int, ...] = ()  # free timers beyond 60 s, 30 s and the agreement minute


class Strictness(StrEnum):
    """How strict the device is with what it hears (docs/fouls.md)."""

    OFF = "off"  # it gives no foul and says nothing
    WARN = "warn"  # it says the remark and gives no foul
    FOUL = "foul"  # it gives the foul (assist mode: proposes it to the host)


@dataclass(frozen=True)
class FoulSettings:
    """[fouls]: how strict the device is; the least word confidence of a
    forbidden word (None: the listener's default)."""

    strictness: Strictness = Strictness.WARN
    confidence: float | None = None


@dataclass(frozen=True)
class StreamSettings:
    """``[stream]``: the broadcast overlay. Off by default; on, it lags the table by ``delay_s``
    and shows the roles (and checks, shots, best move) only with ``roles = "delayed"``."""

    enabled: bool = False
    delay_s: float = 60.0
    roles: str = "hidden"  # "hidden" | "delayed"

    @property
    def secrets(self) -> bool:
        return self.enabled and self.roles == "delayed"


@dataclass(frozen=True)
class Ambience:
    """[ambience]: the night's sound."""

    enabled: bool = True
    volume: float = 0.3
    file: Path | None = None


def on_a_pi(model: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return "Raspberry Pi" in model.read_text(errors="replace")
    except OSError:
        return False


@dataclass(frozen=True)
class Config:
    path: Path | None
    panel: dict[str, Any] = field(default_factory=dict)
    microphone: int | str | None = None
    speaker: int | str | None = None
    assist: AssistSettings = field(default_factory=AssistSettings)
    web: str | None = None  # [web].listen: the pages' [HOST:]PORT, as --web
    web_seats: tuple[int, ...] = ()  # [web].seats: seats played with phones beside the panel
    city: dict[str, Any] = field(default_factory=dict)  # [city]: seats, mafia, lover (the city table)
    ambience: Ambience = field(default_factory=lambda: Ambience())
    power_off: bool = field(default_factory=lambda: on_a_pi())  # [box].power_off
    scoring: Path | None = None  # [club].scoring: the club's scoring table, None: the default (FIIM)
    show_names: bool = False  # [club].show_names: names on the public page before the game ends
    club_database: str | None = None  # [club].database: the club's PostgreSQL URL, None: none
    fouls: FoulSettings = field(default_factory=FoulSettings)  # [fouls]
    stream: StreamSettings = field(default_factory=StreamSettings)  # [stream]: the broadcast overlay

    def open_audio(
        self, kind: str, events: Any, rate: int, wav: Path | None = None
    ) -> tuple[Microphone, Speaker]:
        """The microphone and speaker of ``--audio KIND`` on the devices this
        config's [audio] names (``wav``: what ``--audio file`` hears)."""
        from hardware.factory import make_audio

        return make_audio(kind, time.monotonic, events, rate, self.microphone, self.speaker, wav)

    def pinmap(self, seats: int) -> PinMap:
        where = f"{self.path}: [panel]" if self.path else "[panel]"
        return pinmap_from_config(self.panel, seats, where)


def default_config_path() -> Path:
    if os.environ.get("HOST_DEVICE_CONFIG"):
        return Path(os.environ["HOST_DEVICE_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "host-device" / "config.toml"


def load_config(path: Path | None = None) -> Config:
    explicit = path is not None or bool(os.environ.get("HOST_DEVICE_CONFIG"))  # named: it must be there
    path = path or default_config_path()
    if not path.is_file():
        if explicit:
            named = "" if path != default_config_path() else " (его называет $HOST_DEVICE_CONFIG)"
            raise ConfigError(f"{path}: нет такого файла настроек{named}")
        return Config(None)
    if path.stat().st_size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: больше {MAX_CONFIG_BYTES:,} байт (предел); это точно файл настроек?")
    try:
        data = tomllib.loads(read_text(path, MAX_CONFIG_BYTES))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: ошибка в TOML{toml_place(exc)}") from None
    except RecursionError:
        raise ConfigError(f"{path}: списки или таблицы вложены слишком глубоко") from None
    except ValueError:  # a number of thousands of digits
        raise ConfigError(f"{path}: ошибка в TOML: слишком длинное число") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: не удалось прочитать: {os_reason(exc)}") from None
    unknown = sorted(set(data) - set(SECTIONS))
    if unknown:
        raise ConfigError(f"{path}: [{unknown[0]:.40}]: нет такого раздела; разделы: {', '.join(SECTIONS)}")
    for section, value in data.items():
        if not isinstance(value, dict):
            raise ConfigError(
                f"{path}: {section} = {value!r:.40}: [{section}] — раздел с настройками, а не значение"
            )
    audio = data.get("audio", {})
    for key in audio:
        if key not in ("microphone", "speaker"):
            raise ConfigError(
                f"{path}: [audio].{key:.40}: нет такой настройки; настройки: microphone, speaker"
            )
        value = audio[key]
        if isinstance(value, bool) or not isinstance(value, int | str) or not 0 <= _index(value) <= 999:
            raise ConfigError(
                f"{path}: [audio].{key}: имя устройства или его номер (0 …), а не {value!r:.40}"
            )
    assist = assist_settings(data.get("assist", {}), f"{path}: [assist]")
    web = web_listen(data.get("web", {}), f"{path}: [web]")
    seats = web_seats(data.get("web", {}), f"{path}: [web]")
    city = city_table(data.get("city", {}), f"{path}: [city]")
    ambience = ambience_settings(data.get("ambience", {}), f"{path}: [ambience]", path.parent)
    power_off = box_settings(data.get("box", {}), f"{path}: [box]")
    scoring, show_names, club_database = club_settings(data.get("club", {}), f"{path}: [club]", path.parent)
    return Config(
        path,
        data.get("panel", {}),
        audio.get("microphone"),
        audio.get("speaker"),
        assist,
        web,
        seats,
        city,
        ambience,
        on_a_pi() if power_off is None else power_off,
        scoring,
        show_names,
        club_database,
        foul_settings(data.get("fouls", {}), f"{path}: [fouls]"),
        stream_settings(data.get("stream", {}), f"{path}: [stream]"),
    )


SECTIONS = ("ambience", "assist", "audio", "box", "city", "club", "fouls", "panel", "stream", "web")
ROLES_SHOWN = ("hidden", "delayed")
LEAST_SECRET_DELAY_S = 30  # roles on a stream that lags less: a player at the table could read them off it


def stream_settings(data: dict[str, Any], where: str) -> StreamSettings:
    """``[stream]``: enabled (true/false), delay_s (0 … 3600), roles ("hidden" or "delayed")."""
    for key, value in data.items():
        if key == "enabled":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.enabled: true или false, а не {value!r:.40}")
        elif key == "delay_s":
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 3600:
                raise ConfigError(
                    f"{where}.delay_s: секунды от 0 до 3600 (задержка трансляции), а не {value!r:.40}"
                )
        elif key == "roles":
            if value not in ROLES_SHOWN:
                raise ConfigError(f'{where}.roles: "hidden" или "delayed", а не {value!r:.40}')
        else:
            raise ConfigError(f"{where}.{key:.40}: нет такой настройки; настройки: delay_s, enabled, roles")
    settings = StreamSettings(
        data.get("enabled", False), float(data.get("delay_s", 60.0)), data.get("roles", "hidden")
    )
    if settings.roles == "delayed" and settings.delay_s < LEAST_SECRET_DELAY_S:
        raise ConfigError(
            f'{where}: roles = "delayed" — только с задержкой не меньше {LEAST_SECRET_DELAY_S} с '
            f"(delay_s = {settings.delay_s:g}: за столом успели бы прочесть роли с трансляции)"
        )
    return settings


def foul_settings(data: dict[str, Any], where: str) -> FoulSettings:
    """``[fouls]``: strictness ("off", "warn", "foul") and confidence (0 … 1)."""
    for key in data:
        if key not in ("strictness", "confidence"):
            raise ConfigError(f"{where}.{key:.40}: нет такой настройки; настройки: confidence, strictness")
    strictness = data.get("strictness", Strictness.WARN.value)
    if strictness not in {s.value for s in Strictness}:
        raise ConfigError(f'{where}.strictness: "off", "warn" или "foul", а не {strictness!r:.40}')
    confidence = data.get("confidence")
    if confidence is not None and (
        isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1
    ):
        raise ConfigError(f"{where}.confidence: число от 0 до 1, например 0.9, а не {confidence!r:.40}")
    return FoulSettings(Strictness(strictness), None if confidence is None else float(confidence))


def _beside(base: Path, value: str) -> Path:
    """A file named in the config, beside the config; a bare name with no such file stays bare
    (a table shipped with the device: scoring = "maf-world-cup.toml"), a path is only a path."""
    beside = base.absolute() / value  # a config given as a relative path: beside it all the same
    return Path(value) if Path(value).name == value and not beside.exists() else beside


def club_settings(data: dict[str, Any], where: str, base: Path) -> tuple[Path | None, bool, str | None]:
    """``[club]``: the club's scoring table (host_device/club/scoring.py reads it), whether
    names are public during the game (show_names) and the club's database (its URL)."""
    for key, value in data.items():
        if key == "scoring":
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(
                    f'{where}.scoring: путь к таблице очков, например "our-scoring.toml", а не {value!r:.40}'
                )
        elif key == "show_names":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.show_names: true или false, а не {value!r:.40}")
        elif key == "database":
            if not isinstance(value, str) or not value.startswith(CLUB_DB_SCHEMES):
                raise ConfigError(
                    f'{where}.database: адрес базы клуба, например "{CLUB_DB_EXAMPLE}", а не {value!r:.40}'
                )
        else:
            raise ConfigError(
                f"{where}.{key:.40}: нет такой настройки; настройки: database, scoring, show_names"
            )
    scoring = None if "scoring" not in data else _beside(base, data["scoring"])
    return scoring, bool(data.get("show_names", False)), data.get("database")


def ambience_settings(data: dict[str, Any], where: str, base: Path) -> Ambience:
    for key, value in data.items():
        if key == "enabled":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.enabled: true или false, а не {value!r:.40}")
        elif key == "volume":
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ConfigError(f"{where}.volume: число от 0 до 1 (0.3 — тихо), а не {value!r:.40}")
        elif key == "file":
            if not isinstance(value, str) or not value:
                raise ConfigError(f'{where}.file: путь к файлу WAV ("night.wav"), а не {value!r:.40}')
            if not (base / value).is_file():
                raise ConfigError(
                    f"{where}.file: {base / value}: нет такого файла (нужна петля WAV: моно, 16 бит)"
                )
        else:
            raise ConfigError(f"{where}.{key:.40}: нет такой настройки; настройки: enabled, file, volume")
    file = data.get("file")
    return Ambience(data.get("enabled", True), float(data.get("volume", 0.3)), base / file if file else None)


def box_settings(data: dict[str, Any], where: str) -> bool | None:
    for key, value in data.items():
        if key != "power_off":
            raise ConfigError(f"{where}.{key:.40}: нет такой настройки; настройки: power_off")
        if not isinstance(value, bool):
            raise ConfigError(f"{where}.power_off: true или false, а не {value!r:.40}")
    return data.get("power_off")


def web_listen(data: dict[str, Any], where: str) -> str | None:
    from host_device.config import WebError, parse_address

    for key in data:
        if key not in ("listen", "seats"):
            raise ConfigError(f"{where}.{key:.40}: нет такой настройки; настройки: listen, seats")
    listen = data.get("listen")
    if listen is None:
        return None
    try:
        parse_address(str(listen) if isinstance(listen, int) and not isinstance(listen, bool) else listen)
    except (WebError, AttributeError, TypeError):
        raise ConfigError(
            f'{where}.listen: порт ("8000") или "HOST:PORT" ("127.0.0.1:8000"), а не {listen!r:.40}'
        ) from None
    return str(listen)


def city_table(data: dict[str, Any], where: str) -> dict[str, Any]:
    """``[city]``: the city table's seats (6 … 16), mafia count and whether the Lover plays."""
    from engine import BadTable, city_preset

    kinds = {"seats": int, "mafia": int, "lover": bool}
    for key, value in data.items():
        if key not in kinds:
            raise ConfigError(f"{where}.{key:.40}: нет такой настройки; настройки: lover, mafia, seats")
        if isinstance(value, bool) is not (kinds[key] is bool) or not isinstance(value, kinds[key]):
            what = "true или false" if kinds[key] is bool else "целое число"
            raise ConfigError(f"{where}.{key}: {what}, а не {value!r:.40}")
    try:
        city_preset(data.get("seats", 10), data.get("mafia"), data.get("lover"))
    except BadTable as exc:
        said = {
            "seats": f"seats = {exc.seats}: «город» играют за столом от {TABLE_SIZES[0]} до {MAX_SEATS} мест",
            "no_mafia": f"mafia = {exc.mafia}: нужна хотя бы одна мафия",
            "mafia_majority": f"mafia = {exc.mafia} при {exc.seats} местах: "
            "мафии должно быть меньше, чем остальных",
        }
        raise ConfigError(f"{where}: {said[exc.code]}") from None
    return dict(data)


def web_seats(data: dict[str, Any], where: str) -> tuple[int, ...]:
    seats = data.get("seats", [])
    numbers = seats if isinstance(seats, list) else [None]
    if not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_SEATS for n in numbers):
        raise ConfigError(f"{where}.seats: список номеров мест (seats = [4, 9]), а не {seats!r:.40}")
    if len(set(numbers)) != len(numbers):
        raise ConfigError(f"{where}.seats: место указано дважды в {seats!r:.40}")
    return tuple(sorted(numbers))


def _index(value: int | str) -> int:
    return value if isinstance(value, int) else 0


MAX_CONFIG_BYTES = 100_000
MAX_TIMERS = 6  # free timers beyond the three built in (keys t 4 … t 9)
ASSIST_CHOICES = {"votes": ("buttons", "counts"), "night": ("host", "buttons")}


def assist_settings(data: dict[str, Any], where: str) -> AssistSettings:
    for key, value in data.items():
        if key == "auto_accept":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.auto_accept: true или false, а не {value!r:.40}")
        elif key in ASSIST_CHOICES:
            if value not in ASSIST_CHOICES[key]:
                choices = " или ".join(f'"{c}"' for c in ASSIST_CHOICES[key])
                raise ConfigError(f"{where}.{key}: {choices}, а не {value!r:.40}")
        elif key == "timers":
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 3600 for v in value
            ):
                raise ConfigError(
                    f"{where}.timers: список секунд от 1 до 3600, например [90, 120], а не {value!r:.60}"
                )
            if len(value) > MAX_TIMERS:
                raise ConfigError(f"{where}.timers: таймеров {len(value)}; можно не больше {MAX_TIMERS}")
        else:
            raise ConfigError(
                f"{where}.{key:.40}: нет такой настройки; настройки: auto_accept, night, timers, votes"
            )
    return AssistSettings(
        auto_accept=data.get("auto_accept", False),
        votes=data.get("votes", "buttons"),
        night=data.get("night", "host"),
        timers=tuple(data.get("timers", ())),
    )
