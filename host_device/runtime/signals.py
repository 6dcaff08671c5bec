"""What a seat's own LED says to its player: his role at the device's deal,
a check's answer at night. The one table of these signals: the host's
runtime lights them, a seat's phone page spells them out."""

from __future__ import annotations

from engine import Phase, Preset, Role
from engine.roles import BLACK_ROLES
from voices.forms import ROLE_WORDS

ROLE_SIGNALS = {  # the deal: steady, slow pulse, blinking, fast blinking; 003's Doctor and Lover: two more
    Role.CIVILIAN: "on",
    Role.SHERIFF: "pulse",
    Role.COMMISSAR: "pulse",
    Role.MAFIA: "blink",
    Role.DON: "fast",
    Role.DOCTOR: "flash",  # short flashes, long pauses
    Role.LOVER: "slow",  # slow blinking
}


def signal_words(preset: Preset, phase: Phase, step_role: Role | None, pattern: str) -> str | None:
    """A seat's LED, in words, when it carries a secret for him alone: None otherwise."""
    if pattern == "off":
        return None
    if phase is Phase.ROLES:
        dealt = [Role.CIVILIAN, *(r for r, _ in preset.roles)]  # civilians: every seat not dealt a role
        role = next((r for r in dealt if ROLE_SIGNALS[r] == pattern), None)
        return None if role is None else f"Ваша роль: {ROLE_WORDS[role]}"
    if phase is Phase.NIGHT_CHECK and step_role is not None:
        return check_words(preset, step_role, pattern == "on")  # a found target steady, the others blinking
    return None


def check_words(preset: Preset, checker: Role, found: bool) -> str | None:
    """A check's answer, in words («Проверка: чёрный»); None for a role that checks nothing."""
    rule = next((rule for rule in preset.checks if rule.checker is checker), None)
    if rule is None:
        return None
    if rule.finds == BLACK_ROLES:
        return "Проверка: чёрный" if found else "Проверка: красный"
    named = ", ".join(sorted(ROLE_WORDS[r] for r in rule.finds))
    return f"Проверка: {named}" if found else f"Проверка: не {named}"
