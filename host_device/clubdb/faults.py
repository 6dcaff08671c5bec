"""What goes wrong with the club's database, said in one Russian line of
errors.py's kinds: psycopg's and the OS's errors read (their SQLSTATE where
the server sent one, else libpq's words), the URL shown without its
password, and the password never quoted from a message."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import psycopg

from host_device.base.club_address import CLUB_DB_EXAMPLE as EXAMPLE
from host_device.base.club_address import CLUB_DB_SCHEMES
from host_device.base.text import one_line
from host_device.clubdb.errors import (
    AccessDenied,
    BadUrl,
    ClubDbError,
    DiskFull,
    Unreachable,
    WrongSchema,
    shown,
)

CONNECT_TIMEOUT_S = 5

LOST = (
    "server closed the connection",
    "terminating connection",
    "consuming input failed",
    "connection is lost",
    "connection is closed",
    "connection is bad",
    "the connection is closed",
    "could not receive data",
    "could not send data",
    "ssl syscall",
    "eof detected",
    "connection lost",
)


def password_of(url: str) -> str | None:
    try:
        raw = urlsplit(url).password
    except ValueError:
        match = re.search(r"://[^:/@]+:([^@/]*)@", url)
        raw = match.group(1) if match else None
    return raw


def hidden(text: str, url: str) -> str:
    """A message with the URL shown and its password (raw or decoded) replaced by ***."""
    text = text.replace(url, shown(url))
    secret = password_of(url)
    if secret:
        for each in {secret, unquote(secret)}:
            if each:
                text = text.replace(each, "***")
    return one_line(text, 240)


def checked_url(url: str) -> str:
    """The URL when it reads as a PostgreSQL address (the scheme, a host, its parts), else BadUrl."""
    if not url.strip():
        raise BadUrl(f"адрес базы клуба пуст; нужен, например, {EXAMPLE}")
    if not url.startswith(CLUB_DB_SCHEMES):
        raise BadUrl(f"{shown(url)}: это не адрес PostgreSQL; нужен, например, {EXAMPLE}")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        said = str(exc).lower()
        why = (
            "порт — не число от 0 до 65535"
            if "port" in said
            else "лишние пробелы"
            if "space" in said
            else "скобки адреса IPv6 не закрыты"
            if "ipv6" in said
            else hidden(str(exc), url)
        )
        raise BadUrl(f"{shown(url)}: адрес не читается ({why}); нужен, например, {EXAMPLE}") from None
    del port
    if not parts.hostname:
        raise BadUrl(f"{shown(url)}: в адресе нет сервера; нужен, например, {EXAMPLE}")
    try:
        psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error as exc:
        raise BadUrl(
            f"{shown(url)}: адрес не читается ({hidden(str(exc), url)}); нужен, например, {EXAMPLE}"
        ) from None
    return url


def _where(url: str) -> tuple[str, str, str]:
    try:
        parts = urlsplit(url)
        host = parts.hostname or "?"
        port = str(parts.port or 5432)
        user = unquote(parts.username or "")
    except ValueError:
        return "?", "5432", ""
    return host, port, user


def failure(exc: BaseException, url: str, doing: str = "") -> ClubDbError:
    """The one line for an error met while connecting to (or talking with) the club's database."""
    if isinstance(exc, ClubDbError):
        return exc
    where = shown(url)
    host, port, user = _where(url)
    message = hidden(str(exc), url)
    low = str(exc).lower()
    state = getattr(exc, "sqlstate", None) or ""
    what = f" ({doing})" if doing else ""
    if state == "53100" or "no space left on device" in low:
        return DiskFull(
            f"{where}: на сервере базы клуба кончилось место на диске{what}; ничего не записано, "
            f"игры ждут на столах — освободите место на сервере ({message})"
        )
    if (
        state in ("28P01", "28000")
        or "password authentication failed" in low
        or "no password supplied" in low
    ):
        return AccessDenied(
            f"{where}: сервер не принял пользователя {user!r} с этим паролем; проверьте имя и пароль в адресе"
        )
    if state == "42501" or "permission denied" in low:
        return AccessDenied(
            f"{where}: у пользователя {user!r} нет прав на базу клуба{what}; дайте их: "
            f"ALTER DATABASE … OWNER TO {user or 'club'} ({message})"
        )
    if re.search(r'role ".*" does not exist', low):
        return AccessDenied(
            f"{where}: на сервере нет пользователя {user!r}; создайте его: createuser -P {user or 'club'}"
        )
    if state == "3D000" or re.search(r'database ".*" does not exist', low):
        name = urlsplit(url).path.lstrip("/") or user
        return WrongSchema(
            f"{where}: на сервере нет базы {name!r}; создайте её: createdb -O {user or 'club'} {name}, "
            f"затем host-device club init --club-db URL"
        )
    if state.startswith("42P01") or state == "42703":  # a table or column of ours is missing
        return WrongSchema(
            f"{where}: таблицы базы клуба не те, что ждёт эта версия ({message}); host-device club init"
        )
    if "for connection option" in low or "invalid uri" in low or "invalid connection option" in low:
        return BadUrl(f"{where}: адрес не читается ({message}); нужен, например, {EXAMPLE}")
    if "failed to resolve host" in low or "could not translate host name" in low:
        return Unreachable(f"{where}: сервер {host!r} не найден (нет сети или опечатка в адресе)")
    if "connection refused" in low:
        return Unreachable(
            f"{where}: сервер {host}:{port} не принимает соединений "
            "(PostgreSQL не запущен или слушает другой порт)"
        )
    if state == "57014":  # the statement timeout: a server too slow or stuck
        return Unreachable(
            f"{where}: сервер базы клуба не ответил вовремя{what}; игры ждут, отправка повторится"
        )
    if "invalid sslmode" in low:
        return BadUrl(f"{where}: sslmode: одно из disable, allow, prefer, require, verify-ca, verify-full")
    if "timeout expired" in low or "timed out" in low:
        return Unreachable(f"{where}: сервер {host}:{port} не ответил за {CONNECT_TIMEOUT_S} с (нет сети?)")
    if state in ("57P01", "57P02", "57P03") or state.startswith("08") or any(w in low for w in LOST):
        return Unreachable(
            f"{where}: связь с сервером базы клуба прервалась{what}; повторите позже ({message})"
        )
    if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError, OSError)):
        return Unreachable(f"{where}: база клуба недоступна{what} ({message})")
    return ClubDbError(f"{where}: ошибка базы клуба{what}: {message}")
