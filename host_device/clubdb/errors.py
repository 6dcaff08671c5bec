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


# A refusal that is not one: the game was stored, only its tournament link was not (another game
# holds its table of the round): said so, never «не принята» (clubdb/db.py, sender.py, club status)
NOT_COUNTED = "в турнир не засчитана: "


def shown(url: str) -> str:
    """The URL as a message shows it: the password replaced by ***, however the URL is
    mistyped (a password with ``/`` or ``@`` in it, a scheme without ``//`` or none, the
    password as a ``password=`` parameter)."""
    text = re.sub(r"(?i)(password\s*=\s*)[^&\s]*", r"\1***", url)
    head, at, tail = text.rpartition("@")
    if not at:
        return text
    slashes = head.find("//")
    if slashes >= 0:
        prefix, userinfo = head[: slashes + 2], head[slashes + 2 :]
        user, colon, _ = userinfo.partition(":")
        return f"{prefix}{user}{':***' if colon else ''}@{tail}"
    first = head.find(":")  # "postgresql:/club:pw@…" or "club:pw@…": no telling user from scheme
    prefix = head[: first + 1] if first >= 0 else ""
    rest = head[len(prefix) :]
    lead = len(rest) - len(rest.lstrip("/"))
    user, second, _ = rest[lead:].partition(":")
    shown_user = f"{user}:***" if second else "***"
    return f"{prefix}{rest[:lead]}{shown_user}@{tail}"


class DiskFull(Unreachable):
    """The server's disk is full: nothing was stored; the box keeps the game and tries again later."""
