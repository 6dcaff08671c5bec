"""The roles the host types before the introduction night (assist mode, cards dealt by hand)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import DealRoles, Role
from engine.roles import BLACK_ROLES
from host_device.runtime.host_keys import SHORT
from voices.forms import ROLE_WORDS, cardinal
from voices.words import ROLE_GENITIVE


@dataclass
class RoleEntry:
    """The host types the roles before the introduction night: the black
    seats, then the Don among them, then each red role (the screen shows
    what he selects only to him)."""

    steps: list[tuple[Role | None, int]]
    index: int = 0
    selected: set[int] = field(default_factory=set)
    roles: dict[int, Role] = field(default_factory=dict)

    @classmethod
    def for_preset(cls, preset: Any) -> RoleEntry:
        black = sum(n for role, n in preset.roles if role in BLACK_ROLES)
        specials = [(role, n) for role, n in preset.roles if role is not Role.MAFIA]
        return cls([(None, black), *sorted(specials, key=lambda step: step[0] not in BLACK_ROLES)])

    @property
    def step(self) -> tuple[Role | None, int]:
        return self.steps[self.index]

    def prompt(self) -> str:
        role, count = self.step
        if role is None:
            what = f"{players(count)} чёрных игроков" if count > 1 else "чёрного игрока"
            if any(r is Role.DON for r, _ in self.steps):
                what += " (мафию и Дона)"
        else:
            what = ROLE_GENITIVE[role] if role in ROLE_GENITIVE else ROLE_NAMES[role]
            what += " среди чёрных" if role in BLACK_ROLES else ""
        chosen = ", ".join(map(str, sorted(self.selected))) or "—"
        # the key named as the console's button names it (the keyboard's Enter)
        return f"Роли: отметьте {what}; выбрано: {chosen}; «{SHORT['enter']}» — дальше"

    def confirm(self) -> str | None:
        """The group is taken (None) or the reason it is not."""
        role, count = self.step
        black = {seat for seat, r in self.roles.items() if r in BLACK_ROLES}
        refusal = None
        if len(self.selected) != count:
            refusal = f"нужно мест: {count}, отмечено: {len(self.selected)}"
        elif role in BLACK_ROLES and not self.selected <= black:
            refusal = f"{ROLE_NAMES[role]} должен быть среди чёрных"
        elif role is not None and role not in BLACK_ROLES and self.selected & set(self.roles):
            refusal = "это место уже чёрное или занято другой ролью"
        if refusal is not None:
            self.selected = set()  # a fresh selection: the wrong seats never stay marked
            return refusal
        self.roles.update(dict.fromkeys(self.selected, Role.MAFIA if role is None else role))
        self.selected = set()
        self.index += 1
        return None

    @property
    def done(self) -> bool:
        return self.index == len(self.steps)

    def deal(self) -> DealRoles:
        return DealRoles(roles=tuple(sorted(self.roles.items())))


ROLE_NAMES = ROLE_WORDS  # the Russian role names the device speaks, on the host's screen too


def players(n: int) -> str:
    """A count of players after «отметьте»: "двух", "трёх", "четырёх", "пять"."""
    return {2: "двух", 3: "трёх", 4: "четырёх"}.get(n, cardinal(n))
