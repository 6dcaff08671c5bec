"""The rules of sport Mafia as a deterministic state machine without I/O."""

from engine.errors import BadTable, IllegalInput, UnknownPreset
from engine.game import Game
from engine.inputs import (
    Advance,
    BestMove,
    Check,
    DealRoles,
    Foul,
    GoldenMinute,
    Input,
    Nominate,
    Shot,
    Tally,
    Visit,
    Vote,
    Withdraw,
)
from engine.presets import CITY, CLASSIC, EVENT, PRESETS, Preset, city_preset, get_preset
from engine.roles import Role, Team
from engine.state import Phase, State
from engine.view import public_view

__all__ = [
    "CITY",
    "CLASSIC",
    "EVENT",
    "PRESETS",
    "Advance",
    "BadTable",
    "BestMove",
    "Check",
    "DealRoles",
    "Foul",
    "Game",
    "GoldenMinute",
    "IllegalInput",
    "Input",
    "Nominate",
    "Phase",
    "Preset",
    "Role",
    "Shot",
    "State",
    "Tally",
    "Team",
    "UnknownPreset",
    "Visit",
    "Vote",
    "Withdraw",
    "city_preset",
    "get_preset",
    "public_view",
]
