"""The game store (SQLite): a :class:`Store` holds its games (reading and
writing them), its roster and its outbox, over one connection; its frozen
migrations; what happens when the disk misbehaves, and salvage from a
damaged store."""

from host_device.store.db import Store, default_store_path
from host_device.store.faults import AmbiguousPlayer, DamagedGame, StoreError, UnknownGame, UnknownPlayer
from host_device.store.games import GameRow, record_runtime
from host_device.store.migrations import MIGRATIONS, SCHEMA_VERSION
from host_device.store.roster import EXTRA_POINTS_RANGE, EXTRA_POINTS_STEP, Player

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
