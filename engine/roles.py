"""Roles and teams."""

from __future__ import annotations

from enum import StrEnum


class Team(StrEnum):
    RED = "red"
    BLACK = "black"


class Role(StrEnum):
    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    COMMISSAR = "commissar"
    MAFIA = "mafia"
    DON = "don"
    DOCTOR = "doctor"  # 003: heals one player a night
    LOVER = "lover"  # 003: her night's visit gives that player an alibi for the next day

    @property
    def team(self) -> Team:
        return Team.BLACK if self in BLACK_ROLES else Team.RED


BLACK_ROLES = frozenset({Role.MAFIA, Role.DON})
