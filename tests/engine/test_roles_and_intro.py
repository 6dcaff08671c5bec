"""Seats, roles and the introduction night (rules matrix rows 1-3)."""

import pytest

from engine import (
    Advance,
    Check,
    DealRoles,
    Game,
    IllegalInput,
    Phase,
    Role,
    Shot,
    Team,
    UnknownPreset,
    get_preset,
)
from engine.outputs import PhaseStarted, StartTimer
from tests.helpers.table import Table, of, phrases


def test_presets_seat_and_role_counts():
    classic, event = get_preset("classic"), get_preset("event")
    assert classic.seats == 10 and event.seats == 12
    assert {r: n for r, n in classic.roles} == {Role.SHERIFF: 1, Role.DON: 1, Role.MAFIA: 2}
    assert {r: n for r, n in event.roles} == {Role.COMMISSAR: 1, Role.MAFIA: 3}


def test_unknown_preset_names_the_known_ones():
    with pytest.raises(UnknownPreset, match="unknown preset 'town'; known presets: city, classic, event"):
        get_preset("town")
    with pytest.raises(LookupError):
        Game("nope")


def test_teams():
    assert Role.DON.team is Team.BLACK and Role.MAFIA.team is Team.BLACK
    assert {Role.CIVILIAN.team, Role.SHERIFF.team, Role.COMMISSAR.team} == {Team.RED}


@pytest.mark.parametrize(
    ("roles", "message"),
    [
        (((3, Role.DON), (5, Role.MAFIA), (6, Role.SHERIFF)), "needs 2 mafia, got 1"),
        (((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA)), "needs 1 sheriff, got 0"),
        (((3, Role.DON), (5, Role.MAFIA), (11, Role.MAFIA), (6, Role.SHERIFF)), "seat 11 is not a seat"),
        (((3, Role.DON), (3, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF)), "seat 3 is given two roles"),
        (((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.COMMISSAR)), "commissar is not in"),
    ],
)
def test_bad_deals_are_refused_and_change_nothing(roles, message):
    game = Game("classic")
    with pytest.raises(IllegalInput, match=message) as info:
        game.handle(DealRoles(roles=roles))
    assert info.value.phase == "roles"
    assert game.phase is Phase.ROLES and game.record == ()


def test_explicit_civilians_are_allowed_in_a_deal():
    game = Game("classic")
    roles = ((1, Role.CIVILIAN), (3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF))
    game.handle(DealRoles(roles=roles))
    assert game.state.roles == {3: Role.DON, 5: Role.MAFIA, 8: Role.MAFIA, 6: Role.SHERIFF}


def test_nothing_but_the_deal_before_roles():
    game = Game("classic")
    with pytest.raises(IllegalInput, match="the roles are not dealt yet"):
        game.handle(Advance())
    assert game.legal_inputs() == []


def test_a_second_deal_is_refused():
    table = Table()
    with pytest.raises(IllegalInput, match="deal_roles is not allowed now"):
        table.do(DealRoles(roles=()))


def test_classic_introduction_night():
    table = Table("classic")
    assert phrases(table.outputs) == ["night_falls", "mafia_wakes", "agreement"]
    assert of(StartTimer, table.outputs) == [StartTimer(seconds=60, purpose="agreement")]
    assert table.game.phase is Phase.INTRO_MAFIA
    out = table.advance()
    assert phrases(out) == ["mafia_sleeps", "role_wakes"]
    assert of(PhaseStarted, out)[0].role is Role.DON
    out = table.advance()
    assert of(PhaseStarted, out)[0].role is Role.SHERIFF
    out = table.advance()
    assert table.game.phase is Phase.MORNING and table.state.day == 1
    assert phrases(out) == ["role_sleeps", "morning"]  # no kill result on the first morning


def test_event_introduction_night_has_no_don():
    table = Table("event")
    table.advance()
    assert table.game.phase is Phase.INTRO_MEET and table.state.step_role is Role.COMMISSAR
    table.advance()
    assert table.game.phase is Phase.MORNING


@pytest.mark.parametrize("preset", ["classic", "event"])
def test_no_checks_and_no_shots_on_the_introduction_night(preset):
    table = Table(preset)
    for _ in range(3):
        if table.game.phase is Phase.MORNING:
            break
        for inp in (Check(seat=3, target=6), Shot(seat=5, target=1)):
            with pytest.raises(IllegalInput, match="is not allowed now"):
                table.do(inp)
        table.advance()
    assert table.game.phase is Phase.MORNING
