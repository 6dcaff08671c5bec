"""Who sits where in the game at the table, from the console's seat grid and
the seats' phones, written to the store on the runtime's thread (the
store's connection lives there) and shown on the console, the phones and —
where :mod:`host_device.screens.public` allows — the table page. Names are
shown, never spoken: the device keeps saying seat numbers."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.screens.seating import Seating
from host_device.store.faults import StoreError
from host_device.web.inputs import ExtraPoints, SeatName

log = logging.getLogger(__name__)
TOURNAMENT_SEAT = "Турнирная игра: за местом — игрок по рассадке; изменить может только ведущий"


class TableSeating:
    """The session's side of :class:`Seating`: read from the store, and each
    :class:`SeatName` or :class:`ExtraPoints` from the pages written there."""

    def __init__(
        self,
        seating: Seating,
        notice: Callable[[str, str], None],
        changed: Callable[[], None],
        hold: Callable[[], bool] = lambda: False,
    ) -> None:
        self.seating, self.notice, self.changed, self.hold = seating, notice, changed, hold
        self.store: Any = None
        self.game_id: int | None = None
        # host mode at night: a phone's pick waits for the morning (the console may be a
        # player's, and a phone busy while a role is woken would show who woke)
        self.pending: dict[int, SeatName] = {}
        # seat -> the player its phone added to the roster this game (one a game; a second new name
        # renames him while he sits there: a typo corrected, the roster not grown)
        self.added_by_phone: dict[int, str] = {}

    @classmethod
    def attached(
        cls,
        seating: Seating,
        inputs: Any,
        config: Any,
        notice: Callable[[str, str], None],
        changed: Callable[[], None],
        hold: Callable[[], bool],
    ) -> TableSeating:
        """The seating of a game with pages, taking the pages' names and extra points from ``inputs``;
        the config says whether names are public and the scoring table the extra points' range."""
        from host_device.club.scoring import load_table

        seating.show_names = config.show_names
        try:
            table = load_table(config.scoring)
            seating.extra_limits = (table.extra_min, table.extra_max, table.extra_step)
        except HostDeviceError as exc:  # the game goes on; the club's pages say the same
            log.warning("таблица очков не читается (%s): доп. баллы — по таблице по умолчанию", exc)
        made = cls(seating, notice, changed, hold)
        inputs.on(SeatName, made.name)
        inputs.on(ExtraPoints, made.extra)
        return made

    def release(self) -> None:
        """The night is over: the phones' picks made in it are carried out."""
        pending, self.pending = self.pending, {}
        self.seating.held = {}
        for item in pending.values():
            self.name(item)

    def open(self, store: Any, game_id: int) -> None:
        """The game the store keeps (a new one or a resumed one): its seats read."""
        if game_id != self.game_id:
            self.added_by_phone = {}
        self.store, self.game_id = store, game_id
        self.seating.enabled = True
        self.reread()

    def check(self) -> None:
        """The store written by another process (``games extra``, ``games seat``): read again, so
        the console, the phones and the TV show what the record holds (each tick; microseconds)."""
        if self.store is not None and self.game_id is not None and self.store.connection.changed_elsewhere():
            self.reread()

    def reread(self) -> None:
        assert self.store is not None and self.game_id is not None
        self.store.connection.changed_elsewhere()  # what is read now is what the file holds
        try:
            self.seating.players = self.store.roster.seating(self.game_id)
            self.seating.extras = self.store.roster.extras(self.game_id)
            self.seating.roster = tuple(self.store.roster.players())
            linked = self.store.tournaments.link_of(self.game_id)
            self.seating.table = None if linked is None else f"Стол {linked[2]} · игра {linked[1]}"
        except StoreError as exc:
            log.warning("рассадка игры %s не читается: %s", self.game_id, exc)
        self.changed()

    def name(self, item: SeatName) -> None:
        if self.store is None or self.game_id is None:
            return
        if item.by_phone and self.seating.table is not None:
            self._tournament_seat(item)
            return
        if item.by_phone and self.hold():
            self.pending[item.seat] = item
            # his phone says it is kept for the morning (its next view; nothing public changes at night)
            self.seating.held[item.seat] = self._label(item)
            return
        if item.by_phone and (elsewhere := self._seated_elsewhere(item)) is not None:
            player, seat = elsewhere  # a phone never moves another seat's player: the host may
            self.notice(
                f"seat {item.seat}: the phone picked the player of seat {seat}: refused",
                f"место {item.seat}: «{player.label}» уже за местом {seat}; пересадить может ведущий",
            )
            return
        second = item.by_phone and item.new is not None and item.seat in self.added_by_phone
        if second and not self._known(item.new or ""):
            self._second_new(item)
            return
        try:
            if item.new is not None:
                player, added, _ = self.store.roster.seat_by_name(self.game_id, item.seat, item.new)
                if added and item.by_phone and player is not None:
                    self.added_by_phone[item.seat] = player.id
            else:
                self.store.roster.seat_player(self.game_id, item.seat, item.player)
                player = None if item.player is None else self.store.roster.player(item.player)
        except StoreError as exc:
            self.notice(f"seat {item.seat}: the name was not kept: {exc}", f"место {item.seat}: {exc}")
            return
        self.seating.refused.pop(item.seat, None)
        if item.by_phone and player is not None:  # the host sees it and may correct it
            self.notice(
                f"seat {item.seat}: the phone picked a name",
                f"место {item.seat}: игрок выбрал имя «{player.label}»",
            )
        self.reread()

    def _tournament_seat(self, item: SeatName) -> None:
        """A tournament game (issue 51): the seating names the seats, and only the organiser changes
        them (the console, whose change the table page shows and the store keeps); a phone's rename
        or removal would credit another player with the game, or drop it from his line: refused,
        the phone says why and the host is told once a seat."""
        self._refuse(
            item.seat,
            TOURNAMENT_SEAT,
            f"seat {item.seat}: a phone's name in a tournament game refused",
            f"место {item.seat}: турнирная игра — имя с телефона не принято; пересадить может ведущий",
        )

    def _refuse(self, seat: int, shown: str, logged: str, told: str) -> None:
        """A phone's name refused: its page says ``shown``; the host is told once a seat."""
        again = seat in self.seating.refused
        self.seating.refused[seat] = shown
        log.info("%s", logged)
        if not again:
            self.notice(logged, told)
        self.changed()

    def _known(self, name: str) -> bool:
        """Whether ``name`` is the roster's already (a pick, not an addition)."""
        assert self.store is not None
        try:
            self.store.roster.player(name)
        except StoreError:  # unknown, or ambiguous: the store's own answer follows
            return False
        return True

    def _second_new(self, item: SeatName) -> None:
        """A phone adds one new name to the roster a game (the host adds any on the console): a
        second renames the one it added while he sits at its seat (a typo corrected), else it is
        refused, the phone says why and the host is told once."""
        assert self.store is not None and self.game_id is not None and item.new is not None
        added = self.added_by_phone[item.seat]
        sitting = self.seating.players.get(item.seat)
        if sitting is not None and sitting.id == added:
            try:
                player = self.store.roster.rename_player(added, item.new)
            except StoreError as exc:
                self.notice(f"seat {item.seat}: the name was not kept: {exc}", f"место {item.seat}: {exc}")
                return
            self.seating.refused.pop(item.seat, None)
            self.notice(
                f"seat {item.seat}: the phone corrected the new name it gave",
                f"место {item.seat}: игрок выбрал имя «{player.label}»",
            )
            self.reread()
            return
        self._refuse(
            item.seat,
            "Новое имя с телефона — одно за игру: найдите себя в списке или попросите ведущего",
            f"seat {item.seat}: the phone's second new name this game was refused",
            f"место {item.seat}: второе новое имя с телефона не добавлено (одно за игру)",
        )

    def _label(self, item: SeatName) -> str:
        """The name a phone picked, as the pages show it (a new one as typed)."""
        if item.new is not None or item.player is None:
            return item.new or ""
        return next((p.label for p in self.seating.roster if p.id == item.player), "")

    def _seated_elsewhere(self, item: SeatName) -> tuple[Any, int] | None:
        """The roster's player a phone picked and the other seat of this game he sits at, if he does."""
        assert self.store is not None
        if item.player is None and item.new is None:  # nobody named: nobody moved
            return None
        try:
            player = self.store.roster.player(item.player if item.new is None else item.new)
        except StoreError:  # unknown (a new name) or ambiguous: the store's own answer follows
            return None
        seats = [s for s, p in self.seating.players.items() if p.id == player.id and s != item.seat]
        return (player, seats[0]) if seats else None

    def extra(self, item: ExtraPoints) -> None:
        if self.store is None or self.game_id is None:
            return
        try:
            if item.steps:
                self.store.roster.add_extra(self.game_id, item.seat, item.steps, self.seating.extra_limits)
            else:
                self.store.roster.set_extra(self.game_id, item.seat, item.points, self.seating.extra_limits)
        except StoreError as exc:
            self.notice(f"seat {item.seat}: extra points refused: {exc}", f"место {item.seat}: {exc}")
            return
        self.reread()
