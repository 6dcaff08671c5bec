"""The club database's errors: each one line, the URL shown without its password."""

from __future__ import annotations

import re

from host_device.base.errors import HostDeviceError


class ClubDbError(HostDeviceError):
    """Anything wrong with the club's database, as one line."""


class BadUrl(ClubDbError):
    """The URL does not read as a PostgreSQL address."""


class Unreachable(ClubDbError):
    """No server answers (down, no network, a timeout): try again later."""


class AccessDenied(ClubDbError):
    """The server refuses this user or password."""


class WrongSchema(ClubDbError):
    """The database is of another schema version, or not a club's database."""


class Refused(ClubDbError):
    """The club's database will not take this game (another box sent a different record of it)."""


def shown(url: str) -> str:
    """The URL as a message shows it: the password replaced by ***."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


class DiskFull(Unreachable):
    """The server's disk is full: nothing was stored; the box keeps the game and tries again later."""
