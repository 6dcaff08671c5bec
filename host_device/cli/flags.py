"""Flags that several commands share, each written once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.presets import CLASSIC, MAX_SEATS, PRESETS, TABLE_SIZES, table_of
from hardware.factory import AUDIO, PANELS
from host_device.base.club_address import CLUB_DB_EXAMPLE
from host_device.base.errors import HostDeviceError
from host_device.cli.arguments import SPEED, table_size
from host_device.config import load_config
from host_device.session.options import DeviceOptions
from voices.words import preset_name

NO_DATABASE = f"не задана база клуба: укажите --club-db {CLUB_DB_EXAMPLE} или [club] database в конфиге"
PANEL_HELP = "gpio (по умолчанию): кнопки и огоньки стола; keyboard: клавиши терминала; mock: без пульта"


def devices(p: Any, *, panel_help: str = PANEL_HELP) -> None:
    """The table's panel, its sound, a WAV for the microphone, and the config that names them."""
    p.add_argument("--panel", default="gpio", choices=PANELS, help=panel_help)
    p.add_argument(
        "--audio",
        default="device",
        choices=AUDIO,
        help="device (по умолчанию): микрофон и динамик; null: без звука; file: микрофон слышит --wav",
    )
    p.add_argument("--wav", metavar="ФАЙЛ.wav", help="с --audio file: что слышит микрофон")
    config(p)


def device_options(args: Any) -> DeviceOptions:
    """The devices' flags (:func:`devices`, :func:`model`, :func:`store`) as the session takes them."""

    def path(name: str) -> Path | None:
        value = getattr(args, name, None)
        return Path(value) if value else None

    return DeviceOptions(
        config=path("config"),
        panel=getattr(args, "panel", "gpio"),
        audio=getattr(args, "audio", "device"),
        wav=path("wav"),
        model=path("model"),
        store=path("store"),
    )


def config(p: Any, help: str = "файл настроек (выводы пульта, звуковые устройства, правила)") -> None:
    p.add_argument("--config", metavar="ФАЙЛ.toml", help=help)


def seats(p: Any, *, default: int | None = 10, help: str = "мест за столом (по умолчанию 10)") -> None:
    p.add_argument("--seats", type=table_size, default=default, metavar="N", help=help)


def preset(p: Any, *, default: str | None = CLASSIC.name, help: str = "правила") -> None:
    """The rules: a name of engine.presets.PRESETS, each named in the help with its table."""
    p.add_argument("--preset", default=default, choices=tuple(PRESETS), help=f"{help}: {rule_sets()}")


def rule_sets() -> str:
    """«classic — классика, 10 мест; …»: every preset, from the presets' table."""
    sizes = f"от {TABLE_SIZES[0]} до {MAX_SEATS} мест, --seats"
    return "; ".join(
        f"{name} — {preset_name(name)}, {sizes if table_of(rules) else f'{rules.seats} мест'}"
        for name, rules in PRESETS.items()
    )


def auto(p: Any) -> None:
    p.add_argument("--auto", action="store_true", help="за столом никого: кнопки нажимает сам пульт mock")


def store(p: Any) -> None:
    p.add_argument("--store", metavar="ПУТЬ", help="хранилище игр (по умолчанию: в папке данных)")


def model(p: Any) -> None:
    p.add_argument("--model", metavar="ПАПКА", help="модель речи (по умолчанию: установленная)")


def speed(p: Any, help: str = "во сколько раз быстрее жизни (по умолчанию 1)") -> None:
    p.add_argument("--speed", type=SPEED, default=1.0, metavar="N", help=help)


def web(p: Any) -> None:
    p.add_argument(
        "--web",
        metavar="[АДРЕС:]ПОРТ",
        help="показывать страницы стола (ПОРТ: на всех сетях машины; 127.0.0.1:ПОРТ: только на ней)",
    )


def pretty(p: Any) -> None:
    p.add_argument("--pretty", action="store_true", help="JSON с отступами")


def mode(p: Any, help: str) -> None:
    """Host mode (the device hosts the game) or assist mode (a human host leads)."""
    p.add_argument("--mode", default="host", choices=("host", "assist"), help=help)


def club_db(p: Any, default: str = "по умолчанию: [club].database") -> None:
    """The club's PostgreSQL database (by default the config's [club] database)."""
    p.add_argument(
        "--club-db",
        metavar="URL",
        help=f"база клуба, postgresql://ПОЛЬЗОВАТЕЛЬ[:ПАРОЛЬ]@СЕРВЕР[:ПОРТ]/БАЗА ({default})",
    )


def club_db_url(args: Any) -> str:
    """The URL ``club_db`` asks for: --club-db, else [club] database of the config; neither: bad input."""
    url: str | None = getattr(args, "club_db", None)
    if not url:
        url = load_config(Path(args.config) if getattr(args, "config", None) else None).club_database
    if not url:
        raise HostDeviceError(NO_DATABASE)
    return url
