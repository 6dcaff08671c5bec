"""The game store (SQLite): every game's record (schema, writing, reading),
what happens when the disk misbehaves, and salvage from a damaged store."""

from host_device.store.db import Store, default_store_path
from host_device.store.faults import DamagedGame, StoreError, UnknownGame
from host_device.store.reading import GameRow
from host_device.store.roster import (
    EXTRA_POINTS_RANGE,
    EXTRA_POINTS_STEP,
    AmbiguousPlayer,
    Player,
    UnknownPlayer,
)
from host_device.store.schema import MIGRATIONS, SCHEMA_VERSION
from host_device.store.writing import record_runtime

__all__ = [
    "EXTRA_POINTS_RANGE",
    "EXTRA_POINTS_STEP",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AmbiguousPlayer",
    "DamagedGame",
    "GameRow",
    "Player",
    "Store",
    "StoreError",
    "UnknownGame",
    "UnknownPlayer",
    "default_store_path",
    "record_runtime",
]
