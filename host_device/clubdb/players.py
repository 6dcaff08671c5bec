"""A player of the club's database found as a box's roster finds him
(host_device/store/roster.py ``Roster.player``): by his id (a merged one
resolved to the one kept), any unique start of an id, his name or his
nickname (either case, ё as е)."""

from __future__ import annotations

from host_device.base.names import terminal
from host_device.base.text import printable, shorten
from host_device.store.faults import AmbiguousPlayer, UnknownPlayer
from host_device.store.roster import MIN_ID_PREFIX, SHOWN_ID, Player


def _fold(text: str) -> str:
    return text.casefold().replace("ё", "е")


def resolve(pid: str, merged: dict[str, str | None]) -> str:
    """The id a (perhaps merged) id counts as: the end of its merged_into chain (a loop stops)."""
    seen = {pid}
    while merged.get(pid):
        nxt = str(merged[pid])
        if nxt in seen or nxt not in merged:
            break
        seen.add(nxt)
        pid = nxt
    return pid


def find_player(names: dict[str, tuple[str, str | None]], merged: dict[str, str | None], text: str) -> Player:
    # a name written to the database by hand (or before the one door) is shown without its escapes
    every = {
        pid: Player(pid, terminal(name), terminal(nick) if nick else None)
        for pid, (name, nick) in names.items()
    }
    text = " ".join(printable(text).split())
    if text.lower() in every:
        return every[resolve(text.lower(), merged)]
    kept = [p for p in every.values() if resolve(p.id, merged) == p.id]
    for field in ("name", "nickname"):
        found = [p for p in kept if _fold(getattr(p, field) or "") == _fold(text)]
        if len(found) == 1:
            return found[0]
        if found:
            listed = "; ".join(f"{p.id[:SHOWN_ID]} — {p.label}" for p in sorted(found, key=lambda p: p.id))
            raise AmbiguousPlayer(
                f"игрок «{shorten(text, 30)}»: так в базе клуба зовут нескольких ({listed}); "
                "укажите его идентификатор"
            )
    if len(text) >= MIN_ID_PREFIX:
        starts = {resolve(pid, merged) for pid in every if pid.startswith(text.lower())}
        if len(starts) == 1:
            return every[starts.pop()]
    raise UnknownPlayer(f"игрок «{shorten(text, 30)}»: нет в базе клуба")
