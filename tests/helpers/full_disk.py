"""A game store's SQLite connection on a disk that fills: while ``full``,
every write is refused as SQLite refuses it when the disk has no room
(ENOSPC: ``SQLITE_FULL``); reads go on."""

import sqlite3


class FullDisk:
    def __init__(self, db, full=True):
        self.db, self.full = db, full

    def execute(self, sql, *params):
        if self.full and sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            exc = sqlite3.OperationalError("database or disk is full")
            exc.sqlite_errorname = "SQLITE_FULL"
            raise exc
        return self.db.execute(sql, *params)

    def __getattr__(self, name):
        return getattr(self.db, name)
