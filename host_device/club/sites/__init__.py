"""A finished game in a rating site's own format (``games export --format
mafiaratings | mwt | polemica``): each site's module maps the club's record
(host_device/club/record.py) to the site's game object, field by field as the
site's source defines it (docs/club.md quotes it), and says what the format
cannot carry and which players have no id on the site (named and counted,
never dropped)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.roles import Role
from host_device.base.errors import HostDeviceError
from host_device.club.record import GameRecord, SeatRecord, vote_rounds


class NotCarried(HostDeviceError):
    """A game the site's format cannot hold at all (its rules, its roles, an unfinished game)."""


@dataclass(frozen=True)
class SiteGame:
    site: str
    game: int
    data: dict[str, object]  # the site's game object, ready for JSON
    lost: tuple[str, ...] = ()  # what of the record the format cannot carry (Russian)
    unlinked: tuple[str, ...] = ()  # the players (or «место N») without an id on the site

    def line(self) -> str:
        """The one Russian line a game: what the format lost, who has no id on the site."""
        lost = "не переносится: " + "; ".join(self.lost) if self.lost else "переносится всё"
        if self.unlinked:
            who = f"без id на сайте: {len(self.unlinked)} ({', '.join(self.unlinked)})"
            hint = "связать: host-device players link ИМЯ --" + self.site + " ID"
            return f"игра {self.game} → {self.site}: {lost}; {who} — {hint}"
        return f"игра {self.game} → {self.site}: {lost}; у всех игроков есть id на сайте"


CLASSIC_ROLES = {Role.CIVILIAN: 6, Role.SHERIFF: 1, Role.MAFIA: 2, Role.DON: 1}


def classic_only(record: GameRecord, site: str) -> None:
    """The sites keep the sport game only: ten seats, six civilians, a sheriff, two mafia, a don."""
    if not record.finished:
        raise NotCarried(f"игра {record.id} не окончена: на сайт уходят только оконченные игры")
    counts = {role: sum(s.role is role for s in record.seats) for role in Role}
    if {r: n for r, n in counts.items() if n} != CLASSIC_ROLES:
        raise NotCarried(
            f"игра {record.id}: формат {site} — только спортивная игра на десять мест "
            "(шесть мирных, шериф, две мафии, дон)"
        )


def unlinked(record: GameRecord, ids: Mapping[str, str]) -> tuple[str, ...]:
    """Who has no id on the site, by his name (an unnamed seat: «место N»)."""
    return tuple(_label(s) for s in record.seats if s.player is None or s.player not in ids)


def _label(seat: SeatRecord) -> str:
    return seat.name if seat.player is not None and seat.name else f"место {seat.seat}"


def alive_on_day(seat: SeatRecord, day: int) -> bool:
    """Whether ``seat`` was still at the table on ``day`` (night N follows day N)."""
    left = seat.left
    if left is None:
        return True
    if left.day is not None:
        return left.day >= day
    return left.night is not None and left.night >= day


@dataclass(frozen=True)
class Vote:
    """One seat's vote in one round of a day: a candidate, or the all-leave answer (True: yes)."""

    day: int
    round: int
    voter: int
    target: int | bool


def votes_of(record: GameRecord) -> list[Vote]:
    """Each seat's vote in each round, in order. A seat that did not press in a round whose
    count gave the non-voters' votes to the last candidate (the rules' default) voted for him;
    in the all-leave question every seat at the table answered (not pressing: no)."""
    found = []
    for counted in vote_rounds(record):
        cast = {b.voter: b.target for b in record.ballots if (b.day, b.round) == (counted.day, counted.round)}
        here = [s.seat for s in record.seats if alive_on_day(s, counted.day)]
        silent = [seat for seat in here if seat not in cast]
        total = sum(n for _, n in counted.counts)
        for voter in here:
            vote: int | bool | None
            if counted.kind == "all":
                vote = voter in cast
            elif voter in cast:
                vote = cast[voter]
            elif counted.counts and total - len(cast) == len(silent):
                vote = counted.counts[-1][0]
            else:
                vote = None
            if vote is not None:
                found.append(Vote(counted.day, counted.round, voter, vote))
    return found
