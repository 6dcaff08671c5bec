"""The club's roster (``store.roster``), who sat where in each game, and the host's extra points.

    players(id, name, nickname, merged_into, added_at)  -- id: a UUID (records of several devices merge)
    seats(game, seat, player)                           -- who sat where; a seat without a row: nobody named
    extras(game, seat, points)                          -- the host's extra points for a seat

Two entries that are the same person are merged: the one gone stays, with
``merged_into`` pointing at the one kept, so an id from another device still
resolves; every seat of it counts for the one kept (resolved when read, never
rewritten). Names are the club's data, shown on the host's console and after
the game; what is public is decided in host_device/screens/public.py alone.
"""

from __future__ import annotations

import datetime
import math
import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from host_device.base.names import MAX_NAME as MAX_NAME  # the one door's: a name's limit
from host_device.base.names import BadName, player_id, player_name, terminal
from host_device.base.text import printable, shorten
from host_device.store.connection import Connection
from host_device.store.faults import AmbiguousPlayer, StoreError, UnknownPlayer
from host_device.store.games import Games
from voices.words import preset_name

# The host's extra points for a seat: the range and the step when no scoring
# table is given (the default table's [extra], host_device/club/data/fiim.toml,
# a test keeps the two equal); a club's own table states its own, and the
# session hands them to set_extra.
EXTRA_POINTS_RANGE = (-1.0, 1.0)
EXTRA_POINTS_STEP = 0.1
EXTRA_POINTS = (*EXTRA_POINTS_RANGE, EXTRA_POINTS_STEP)  # (low, high, step)
SHOWN_ID = 8  # characters of an id shown in a list; any unique start of an id (4+) is accepted
MIN_ID_PREFIX = 4
SITES = ("mafiaratings", "mwt", "polemica")  # the rating sites a player may be linked to
MAX_SITE_ID = 64


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    nickname: str | None = None

    @property
    def label(self) -> str:
        """As a list or a message shows him: «Имя (ник)»."""
        return f"{self.name} ({self.nickname})" if self.nickname else self.name


def clean_name(text: str, what: str = "имя игрока") -> str:
    """A name as it is stored: printable, one line, spaces collapsed, not
    empty, at most :data:`MAX_NAME` characters; else one clear error (the one
    door, host_device/base/names.py, as the store's error)."""
    try:
        return player_name(text, what)
    except BadName as exc:
        raise StoreError(str(exc)) from None


def _when(added_at: str | None) -> str:
    """A row's time of adding as kept: an ISO time as given, else now."""
    if isinstance(added_at, str) and len(added_at) <= 40:
        try:
            datetime.datetime.fromisoformat(added_at)
            return added_at
        except ValueError:
            pass
    return _now()


def imported_row(row: tuple[str | None, ...], where: str) -> tuple[str, str, str | None, str | None, str]:
    """A row of another roster (id, name, nickname, merged_into, added_at) as this store keeps
    it, through the one door; one line naming ``where`` (the file, the row) when refused."""
    try:
        pid, name, nickname, into, added_at = row
    except (TypeError, ValueError):
        raise StoreError(f"{where}: не строка списка игроков") from None
    try:
        kept = player_id(pid)
        where = f"{where} (id {kept})"
        return (
            kept,
            player_name(name),
            player_name(nickname, "ник") if nickname else None,
            player_id(into, "объединён с") if into else None,
            _when(added_at),
        )
    except BadName as exc:
        raise StoreError(f"{where}: {exc}") from None


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _tenths(value: float, sign: str = "") -> str:
    """A limit as the console writes it: at least one decimal (1,0; 0,25)."""
    text = f"{value:{sign}.6f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _comma(number: str) -> str:
    return number.replace(".", ",")  # a Russian decimal


def _write_extra(
    db: sqlite3.Connection, game_id: int, seat: int, points: float | None, limits: tuple[float, float, float]
) -> None:
    """Inside a transaction: a seat's extra points checked against ``limits`` and written
    (0 or None: removed)."""
    if points is None or points == 0:
        db.execute("DELETE FROM extras WHERE game = ? AND seat = ?", (game_id, seat))
        return
    low, high, step = limits
    steps = points / step
    if (
        not math.isfinite(points)
        or not low - 1e-9 <= points <= high + 1e-9
        or abs(steps - round(steps)) > 1e-6
    ):
        raise StoreError(
            f"доп. баллы {_comma(shorten(points, 12))}: можно от {_comma(_tenths(low, '+'))} до "
            f"{_comma(_tenths(high, '+'))} с шагом {_comma(_tenths(step))}"
        )
    db.execute(
        "INSERT OR REPLACE INTO extras (game, seat, points) VALUES (?, ?, ?)",
        (game_id, seat, round(round(steps) * step, 6)),
    )


def _fold(text: str) -> str:
    return text.casefold().replace("ё", "е")


def resolve(pid: str, merged: dict[str, str | None]) -> str:
    """The id a (perhaps merged) id counts as: the end of its ``merged_into`` chain
    (``merged``: every id of the roster -> the id it was merged into)."""
    seen = {pid}
    while merged.get(pid):
        nxt = str(merged[pid])
        if nxt in seen or nxt not in merged:  # a loop or a dangling link: stop at the last one known
            break
        seen.add(nxt)
        pid = nxt
    return pid


class Roster:
    """The roster and the seats, through the store's connection; a game is
    checked to exist (and a seat to be at its table) through its ``games``."""

    def __init__(self, connection: Connection, games: Games) -> None:
        self.connection = connection
        self.games = games
        self._read = connection.read

    def _rows(self) -> list[tuple[str, str, str | None, str | None]]:
        return self._read(
            None, "SELECT id, name, nickname, merged_into FROM players ORDER BY added_at, id", ()
        )

    def merges(self) -> dict[str, str | None]:
        """Every id of the roster -> the id it was merged into (None: kept)."""
        return {pid: into for pid, _, _, into in self._rows()}

    def _table(self) -> tuple[dict[str, Player], dict[str, str | None]]:
        rows = self._rows()
        # a name kept before the one door (or by hand) is shown without its control characters
        every = {
            pid: Player(pid, terminal(name), terminal(nick) if nick else None) for pid, name, nick, _ in rows
        }
        merged = {pid: into for pid, _, _, into in rows}
        return every, merged

    def add_player(self, name: str, nickname: str | None = None) -> Player:
        player = Player(
            str(uuid.uuid4()), clean_name(name), clean_name(nickname, "ник") if nickname else None
        )
        self.connection.write(
            "игрока",
            "INSERT INTO players (id, name, nickname, added_at) VALUES (?, ?, ?, ?)",
            (player.id, player.name, player.nickname, _now()),
        )
        return player

    def players(self) -> list[Player]:
        """The roster, merged entries left out, in alphabetical order."""
        every, merged = self._table()
        kept = [p for p in every.values() if not merged[p.id] or resolve(p.id, merged) == p.id]
        return sorted(kept, key=lambda p: (_fold(p.name), _fold(p.nickname or ""), p.id))

    def known_as(self, name: str) -> list[Player]:
        """The entries (merged ones left out) whose name or nickname is ``name``
        (either case, ё as е): whom ``player(name)`` would find by it."""
        text = _fold(" ".join(printable(name).split()))
        if not text:
            return []
        return [p for p in self.players() if text in (_fold(p.name), _fold(p.nickname or ""))]

    def player(self, id_or_name: str) -> Player:
        """A player by his id (a merged one resolved to the one kept), any
        unique start of an id, his name or his nickname (either case)."""
        every, merged = self._table()
        text = " ".join(printable(id_or_name).split())
        if text in every:
            return every[resolve(text, merged)]
        kept = self.players()
        for field in ("name", "nickname"):
            found = [p for p in kept if _fold(getattr(p, field) or "") == _fold(text)]
            if len(found) == 1:
                return found[0]
            if found:
                listed = "; ".join(f"{p.id[:SHOWN_ID]} — {p.label}" for p in found)
                raise AmbiguousPlayer(
                    f"игрок «{shorten(text, 30)}»: так в списке клуба зовут нескольких ({listed}); "
                    "укажите его идентификатор (см.: host-device players list)"
                )
        if len(text) >= MIN_ID_PREFIX:
            starts = {resolve(pid, merged) for pid in every if pid.startswith(text.lower())}
            if len(starts) == 1:
                return every[starts.pop()]
        raise UnknownPlayer(
            f"игрок «{shorten(text, 30)}»: нет в списке клуба; см.: host-device players list "
            "(добавить: host-device players add ИМЯ)"
        )

    def link_site(self, id_or_name: str, site: str, site_id: str) -> Player:
        """His id on a rating site (``SITES``), replacing the one it had; "" unlinks him there."""
        player = self.player(id_or_name)
        site_id = " ".join(printable(site_id).split())
        if site not in SITES:
            raise StoreError(f"сайт «{shorten(site, 30)}»: неизвестен; известны: {', '.join(SITES)}")
        if len(site_id) > MAX_SITE_ID:
            raise StoreError(f"номер игрока на сайте {site}: не длиннее {MAX_SITE_ID} знаков")
        if site_id:
            sql = "INSERT OR REPLACE INTO player_sites (player, site, site_id) VALUES (?, ?, ?)"
            self.connection.write("номер игрока на сайте", sql, (player.id, site, site_id))
        else:
            sql = "DELETE FROM player_sites WHERE player = ? AND site = ?"
            self.connection.write("номер игрока на сайте", sql, (player.id, site))
        return player

    def site_ids(self, site: str) -> dict[str, str]:
        """Each player's id on ``site`` (a merged entry's counts for the one kept, unless he has his own)."""
        merged = self.merges()
        rows = self._read(None, "SELECT player, site_id FROM player_sites WHERE site = ?", (site,))
        found: dict[str, str] = {}
        for pid, site_id in sorted(rows, key=lambda row: resolve(row[0], merged) != row[0]):
            found.setdefault(resolve(pid, merged), site_id)
        return found

    def rename_player(self, id: str, name: str, nickname: str | None = None) -> Player:
        """His name and nickname, both as given (no nickname: none)."""
        player = self.player(id)
        renamed = Player(player.id, clean_name(name), clean_name(nickname, "ник") if nickname else None)
        self.connection.write(
            "имя игрока",
            "UPDATE players SET name = ?, nickname = ? WHERE id = ?",
            (renamed.name, renamed.nickname, renamed.id),
        )
        return renamed

    def merge_players(self, keep_id: str, gone_id: str) -> Player:
        """``gone`` is the same person as ``keep``: every seat of his counts
        for ``keep`` from now on; his entry stays, pointing at ``keep``."""
        keep, gone = self.player(keep_id), self.player(gone_id)
        if keep.id == gone.id:
            raise StoreError(f"«{keep.label}» и «{gone.label}» — уже один и тот же игрок")
        both = self._read(
            None,
            "SELECT a.game, a.seat, b.seat FROM seats a JOIN seats b ON a.game = b.game "
            "WHERE a.player IN (SELECT id FROM players WHERE id = ? OR merged_into = ?) "
            "AND b.player IN (SELECT id FROM players WHERE id = ? OR merged_into = ?) LIMIT 1",
            (keep.id, keep.id, gone.id, gone.id),
        )
        if both:
            game, one, other = both[0]
            raise StoreError(
                f"«{keep.label}» и «{gone.label}» сидели в одной игре (игра {game}, места {one} и {other}): "
                "это разные люди"
            )
        self.connection.write(
            "объединение игроков",
            "UPDATE players SET merged_into = ? WHERE id = ? OR merged_into = ?",
            (keep.id, gone.id, gone.id),
        )
        return keep

    def _check_seat(self, game_id: int, seat: int) -> None:
        row = self.games.game(game_id)
        seats = self.games.preset(game_id).seats
        if not 1 <= seat <= seats:
            raise StoreError(f"место {seat}: в этой игре ({preset_name(row.preset)}) места 1..{seats}")

    def seat_player(self, game_id: int, seat: int, player_id: str | None) -> int | None:
        """Who sits at a seat (before the deal, during the game or after it);
        None: nobody named. A player sits once a game: seated elsewhere in it,
        he moves; returns the seat he left (None: he sat nowhere else)."""
        self._check_seat(game_id, seat)
        if player_id is None:
            self.connection.write("место", "DELETE FROM seats WHERE game = ? AND seat = ?", (game_id, seat))
            return None
        player = self.player(player_id)
        left = [s for s, p in self.seating(game_id).items() if p.id == player.id and s != seat]
        with self.connection.transaction("место") as db:
            for other in left:
                db.execute("DELETE FROM seats WHERE game = ? AND seat = ?", (game_id, other))
            db.execute(
                "INSERT OR REPLACE INTO seats (game, seat, player) VALUES (?, ?, ?)",
                (game_id, seat, player.id),
            )
        return left[0] if left else None

    def seat_by_name(self, game_id: int, seat: int, text: str) -> tuple[Player | None, bool, int | None]:
        """A seat named as a person types it: a roster name, nickname or id;
        a name the roster does not know is added to it; empty or «-» clears.
        Returns the player, whether he was added, and the seat he left."""
        self._check_seat(game_id, seat)
        if not text.strip() or text.strip() == "-":
            self.seat_player(game_id, seat, None)
            return None, False, None
        try:
            player, added = self.player(text), False
        except AmbiguousPlayer:
            raise
        except UnknownPlayer:
            player, added = self.add_player(text), True
        return player, added, self.seat_player(game_id, seat, player.id)

    def seating(self, game_id: int) -> dict[int, Player]:
        """Who sat where in a game (merged entries resolved to the one kept)."""
        self.games.game(game_id)
        every, merged = self._table()
        rows = self._read(game_id, "SELECT seat, player FROM seats WHERE game = ? ORDER BY seat", (game_id,))
        return {int(seat): every[resolve(pid, merged)] for seat, pid in rows if pid in every}

    def names(self, game_id: int) -> dict[str, str]:
        """The seating as the export and ``games show`` print it: seat (text) -> name."""
        return {str(seat): player.name for seat, player in self.seating(game_id).items()}

    def set_extra(
        self, game_id: int, seat: int, points: float | None, limits: tuple[float, float, float] = EXTRA_POINTS
    ) -> None:
        """The host's extra points for a seat, a multiple of the step within
        the range (``limits``: low, high, step, the scoring table's); None (or 0) removes them."""
        self._check_seat(game_id, seat)
        with self.connection.transaction("доп. баллы") as db:
            _write_extra(db, game_id, seat, points, limits)

    def add_extra(
        self, game_id: int, seat: int, steps: int, limits: tuple[float, float, float] = EXTRA_POINTS
    ) -> float:
        """A step (or several) up or down from the extra points the store holds for a seat now —
        not from a copy a page was shown: ``games extra`` from another process is kept. Read and
        written in one transaction; returns the new value (refused past the range)."""
        self._check_seat(game_id, seat)
        with self.connection.transaction("доп. баллы") as db:
            row = db.execute(
                "SELECT points FROM extras WHERE game = ? AND seat = ?", (game_id, seat)
            ).fetchone()
            now = float(row[0]) if row else 0.0
            value = round(now + steps * limits[2], 6)
            _write_extra(db, game_id, seat, value, limits)
        return value

    def extras(self, game_id: int) -> dict[int, float]:
        self.games.game(game_id)
        rows = self._read(game_id, "SELECT seat, points FROM extras WHERE game = ? ORDER BY seat", (game_id,))
        return {int(seat): float(points) for seat, points in rows}

    def known_ids(self) -> set[str]:
        """Every id the roster has, merged ones too."""
        return {pid for pid, *_ in self._rows()}

    def player_for_name(self, name: str) -> Player:
        """The one entry of this name or nickname; a name the roster does not
        know (or several have) is a new entry."""
        try:
            return self.player(clean_name(name))
        except UnknownPlayer:
            return self.add_player(name)

    def import_players(self, rows: Sequence[tuple[str | None, ...]], source: str = "список игроков") -> int:
        """Players of another roster (a recovered store, the club's database, a seating) — rows of
        (id, name, nickname, merged_into, added_at): those this store lacks are added, and a merge
        it does not know yet is taken; returns how many were added. All or nothing: every row
        passes the one door (host_device/base/names.py) before any is written, and the first
        that does not is one line naming ``source`` and the row."""
        checked = [imported_row(row, f"{source}, строка {k}") for k, row in enumerate(rows, 1)]
        every, merged = self._table()
        added = 0
        with self.connection.transaction("игроков") as db:
            for pid, name, nickname, into, added_at in checked:
                if pid not in every:
                    db.execute(
                        "INSERT INTO players (id, name, nickname, merged_into, added_at) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (pid, name, nickname, None if into == pid else into, added_at),
                    )
                    every[pid] = Player(pid, name, nickname)  # a row given twice: its first is kept
                    merged[pid] = None if into == pid else into
                    added += 1
                elif into and not merged.get(pid) and into != pid:
                    db.execute("UPDATE players SET merged_into = ? WHERE id = ?", (into, pid))
                    merged[pid] = into
        return added

    def problems(self) -> list[str]:
        """What ``games check`` says of the roster: entries that do not read,
        merges that point nowhere, seats of players the roster lacks."""
        try:
            every, merged = self._table()
        except StoreError as exc:
            return [f"список игроков: {exc}"]
        problems = [
            f"игрок {pid[:SHOWN_ID]}: объединён с {str(into)[:SHOWN_ID]}, которого нет в списке"
            for pid, into in merged.items()
            if into and into not in every
        ]
        lost = self._read(
            None, "SELECT game, seat, player FROM seats WHERE player NOT IN (SELECT id FROM players)", ()
        )
        problems += [f"игра {g}, место {s}: игрока {str(p)[:SHOWN_ID]} нет в списке" for g, s, p in lost]
        return problems
