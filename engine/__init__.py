"""The rules of sport Mafia as a deterministic state machine without I/O."""

from engine.errors import HostDeviceError, IllegalInput, UnknownPreset
from engine.game import Game
from engine.inputs import Advance, Check, DealRoles, Foul, Input, Nominate, Shot, Tally, Vote, Withdraw
from engine.presets import CLASSIC, EVENT, PRESETS, Preset, get_preset
from engine.roles import Role, Team
from engine.state import Phase, State
from engine.view import public_view

__all__ = [
    "CLASSIC",
    "EVENT",
    "PRESETS",
    "Advance",
    "Check",
    "DealRoles",
    "Foul",
    "Game",
    "HostDeviceError",
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
    "Vote",
    "Withdraw",
    "get_preset",
    "public_view",
]
