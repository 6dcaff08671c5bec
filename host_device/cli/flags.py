"""Flags that several commands share, each written once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hardware.factory import AUDIO, PANELS
from host_device.base.club_address import CLUB_DB_EXAMPLE
from host_device.base.errors import HostDeviceError
from host_device.cli.arguments import SPEED, table_size
from host_device.config import load_config

NO_DATABASE = f"не задана база клуба: укажите --club-db {CLUB_DB_EXAMPLE} или [club] database в конфиге"


def devices(p: Any, *, panel_help: str = "gpio (default), keyboard or mock") -> None:
    """The table's panel, its sound, a WAV for the microphone, and the config that names them."""
    p.add_argument("--panel", default="gpio", choices=PANELS, help=panel_help)
    p.add_argument("--audio", default="device", choices=AUDIO, help="device (default), null or file")
    p.add_argument("--wav", metavar="FILE.wav", help="with --audio file: what the microphone hears")
    config(p)


def config(p: Any, help: str = "the config file (pins, sound devices, rules)") -> None:
    p.add_argument("--config", metavar="FILE.toml", help=help)


def seats(p: Any, *, default: int | None = 10, help: str = "seats at the table (default 10)") -> None:
    p.add_argument("--seats", type=table_size, default=default, help=help)


def auto(p: Any) -> None:
    p.add_argument("--auto", action="store_true", help="nobody at the table: the mock pins press themselves")


def store(p: Any) -> None:
    p.add_argument("--store", metavar="PATH", help="the game store (default: in the data directory)")


def model(p: Any) -> None:
    p.add_argument("--model", metavar="DIR", help="the speech model (default: the installed one)")


def speed(p: Any, help: str = "how many times faster than life (default 1)") -> None:
    p.add_argument("--speed", type=SPEED, default=1.0, help=help)


def web(p: Any) -> None:
    p.add_argument(
        "--web", metavar="[HOST:]PORT", help="serve the table page (PORT: every interface; 127.0.0.1:PORT)"
    )


def pretty(p: Any) -> None:
    p.add_argument("--pretty", action="store_true", help="indent the JSON result")


def mode(p: Any, help: str) -> None:
    """Host mode (the device hosts the game) or assist mode (a human host leads)."""
    p.add_argument("--mode", default="host", choices=("host", "assist"), help=help)


def club_db(p: Any, default: str = "default: [club] database") -> None:
    """The club's PostgreSQL database (by default the config's [club] database)."""
    p.add_argument(
        "--club-db",
        metavar="URL",
        help=f"the club's database, postgresql://USER[:PASSWORD]@HOST[:PORT]/DB ({default})",
    )


def club_db_url(args: Any) -> str:
    """The URL ``club_db`` asks for: --club-db, else [club] database of the config; neither: bad input."""
    url: str | None = getattr(args, "club_db", None)
    if not url:
        url = load_config(Path(args.config) if getattr(args, "config", None) else None).club_database
    if not url:
        raise HostDeviceError(NO_DATABASE)
    return url
