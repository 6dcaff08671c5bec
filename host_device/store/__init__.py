"""The game store (SQLite): every game's record, what happens when the disk
misbehaves, salvage from a damaged store, and the ``games`` commands."""

from host_device.store.db import (
    MIGRATIONS,
    SCHEMA_VERSION,
    DamagedGame,
    GameRow,
    Store,
    UnknownGame,
    default_store_path,
    record_runtime,
)
from host_device.store.faults import StoreError

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "DamagedGame",
    "GameRow",
    "Store",
    "StoreError",
    "UnknownGame",
    "default_store_path",
    "record_runtime",
]
