"""What a command asks of the table, as the command line gave it, built once
in ``cli/`` and handed down typed: the devices (:class:`DeviceOptions`) and
a game's settings besides (:class:`GameOptions`, for ``run`` and the box)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.presets import CLASSIC
from host_device.config import Strictness
from host_device.tournament.seating_file import FileTable

Mode = Literal["host", "assist"]
Deal = Literal["device", "cards", "host"]


@dataclass(frozen=True, kw_only=True)
class DeviceOptions:
    """The table's devices: the config that names them, the panel, the sound
    (a WAV for the microphone with ``audio="file"``), the speech model and the store."""

    config: Path | None = None
    panel: str = "gpio"
    audio: str = "device"
    wav: Path | None = None
    model: Path | None = None
    store: Path | None = None


@dataclass(frozen=True, kw_only=True)
class GameOptions(DeviceOptions):
    """``run``: one game (or the box's games) at the table."""

    mode: Mode = "host"
    preset: str = CLASSIC.name
    seats: int | None = None  # the city's table (None: the config's, or 10)
    deal: Deal | None = None  # None: the device deals in host mode, the host in assist mode
    seed: int | None = None
    speed: float = 1.0
    days: int | None = None  # stop after this many days (a trial)
    verbose: bool = False
    quiet: bool = False
    club_db: str | None = None
    web: str | None = None
    resume: int | None = None
    new: bool = False
    ambience: bool = True
    fouls: Strictness | None = None  # the device's own fouls (the box's menu); None: the config's [fouls]
    tournament: tuple[str, int, int] | None = None  # (name, table, round): seats named from its seating
    tournament_table: FileTable | None = None  # a table of a round read from a seating file

    @property
    def deal_kind(self) -> Deal:
        return self.deal or ("host" if self.mode == "assist" else "device")
