"""The night: shooting, checks, the morning, last words (matrix rows 13-16)."""

import pytest

from engine import Check, IllegalInput, Phase, Role, Shot
from engine.outputs import (
    CheckMade,
    PlayerLeft,
    RoleRevealed,
    Say,
    ShotTaken,
    ShowCheck,
    StartTimer,
)
from tests.helpers.table import Table, of, phrases


def night(preset="classic"):
    table = Table(preset)
    table.day_speeches()
    table.advance()  # no candidates: night falls
    assert table.game.phase is Phase.NIGHT_HUNT
    return table


def morning(table):
    return table.until(Phase.MORNING)


@pytest.mark.parametrize(
    ("shots", "killed"),
    [
        ({3: 1, 5: 1, 8: 1}, 1),  # every black seat, once, the same seat
        ({3: 1, 5: 1}, None),  # one did not shoot
        ({3: 1, 5: 1, 8: 2}, None),  # one shot another seat
        ({3: 5, 5: 5, 8: 5}, 5),  # mafia may shoot their own
        ({}, None),
    ],
)
def test_classic_kill_needs_every_black_seat_on_the_same_target(shots, killed):
    table = night()
    table.do(*[Shot(seat=s, target=t) for s, t in shots.items()])
    morning(table)
    left = of(PlayerLeft, table.outputs)
    if killed is None:
        assert left == [] and Say(phrase="nobody_killed") in table.outputs
    else:
        assert left == [PlayerLeft(seat=killed, how="shot", night=1)]
        assert Say(phrase="killed", seat=killed) in table.outputs


def test_shooting_twice_is_a_miss():
    table = night()
    table.do(Shot(seat=3, target=1), Shot(seat=3, target=1), Shot(seat=5, target=1), Shot(seat=8, target=1))
    morning(table)
    assert of(PlayerLeft, table.outputs) == []


def test_presses_of_red_seats_at_night_have_no_effect():
    table = night()
    out = table.do(Shot(seat=1, target=2), Shot(seat=6, target=2))
    assert out == []
    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])
    morning(table)
    assert of(PlayerLeft, table.outputs) == [PlayerLeft(seat=2, how="shot", night=1)]


def test_black_shots_are_recorded_privately():
    table = night()
    out = table.do(Shot(seat=5, target=2))
    assert out == [ShotTaken(night=1, seat=5, target=2)]


def test_a_dead_mafia_member_is_not_needed_for_a_kill():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 6, 7], [])  # 5 (mafia) leaves
    table.to_night()
    table.do(Shot(seat=3, target=1), Shot(seat=8, target=1))
    morning(table)
    assert PlayerLeft(seat=1, how="shot", night=1) in table.outputs


def test_shots_at_the_dead_and_by_the_dead_are_refused():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 6, 7], [])
    table.to_night()
    with pytest.raises(IllegalInput, match="seat 5 is out of the game") as info:
        table.do(Shot(seat=5, target=1))
    assert (info.value.phase, info.value.seat) == ("night_hunt", 5)
    with pytest.raises(IllegalInput, match="target 5 is out of the game"):
        table.do(Shot(seat=3, target=5))


def test_classic_checks_don_then_sheriff():
    table = night()
    table.advance()  # the hunt is over
    assert table.game.phase is Phase.NIGHT_CHECK and table.state.step_role is Role.DON
    out = table.do(Check(seat=3, target=6))
    assert of(CheckMade, out) == [CheckMade(night=1, by=Role.DON, seat=3, target=6, result=True)]
    assert of(ShowCheck, out) == [ShowCheck(seat=3, result=True)]
    table.advance()
    assert table.state.step_role is Role.SHERIFF
    out = table.do(Check(seat=6, target=1))
    assert of(ShowCheck, out) == [ShowCheck(seat=6, result=False)]
    out = table.do(Check(seat=6, target=8))  # a second check the same night: no effect
    assert out == []


@pytest.mark.parametrize(("target", "result"), [(5, True), (3, True), (1, False), (6, False)])
def test_sheriff_finds_black(target, result):
    table = night()
    table.advance(2)
    out = table.do(Check(seat=6, target=target))
    assert of(ShowCheck, out) == [ShowCheck(seat=6, result=result)]


@pytest.mark.parametrize(("target", "result"), [(6, True), (5, False), (1, False)])
def test_don_finds_the_sheriff(target, result):
    table = night()
    table.advance()
    assert of(ShowCheck, table.do(Check(seat=3, target=target))) == [ShowCheck(seat=3, result=result)]


def test_event_commissar_checks_for_mafia():
    table = night("event")
    table.advance()
    assert table.state.step_role is Role.COMMISSAR
    out = table.do(Check(seat=4, target=7))
    assert of(CheckMade, out)[0].result is True
    table.advance()
    assert table.game.phase is Phase.MORNING


def test_other_seats_pressing_during_a_check_have_no_effect():
    table = night()
    table.advance()
    assert table.do(Check(seat=5, target=6)) == []  # mafia, not the Don
    assert table.do(Check(seat=6, target=3)) == []  # the Sheriff, in the Don's step


def test_the_night_sounds_the_same_whatever_the_secret_state():
    """The phrases and timers of a night depend on nothing secret: not who
    shot, not whether the Don is alive, not what anyone pressed."""

    def night_effects(shots, checks, kill_don_first):
        table = Table()
        if kill_don_first:
            table.day_speeches({1: 3, 2: 4})
            table.advance()
            table.vote([1, 2, 4, 5, 6, 7], [])  # the Don (3) leaves
        else:
            table.day_speeches({1: 9, 2: 4})
            table.advance()
            table.vote([1, 2, 4, 5, 6, 7], [])  # a civilian (9) leaves
        table.to_night()
        start = len(table.outputs)
        table.do(*[Shot(seat=s, target=t) for s, t in shots])
        table.advance()
        for _ in range(2):  # the Don's step, then the Sheriff's: the same presses in each
            table.do(*[c for c in (Check(seat=s, target=t) for s, t in checks) if table.game.is_legal(c)])
            table.advance()
        return [
            o
            for o in table.outputs[start:]
            if isinstance(o, (Say, StartTimer))
            and o.__dict__.get("phrase") not in ("killed", "nobody_killed")
        ]

    a = night_effects([(5, 1), (8, 1)], [(3, 6), (6, 5)], kill_don_first=True)
    b = night_effects([], [(1, 2)], kill_don_first=False)
    assert a == b
    assert phrases(a) == ["mafia_sleeps", "role_wakes", "role_sleeps", "role_wakes", "role_sleeps", "morning"]


def test_morning_gives_the_killed_a_last_word():
    table = night()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    out = morning(table)
    table.advance()
    assert table.game.phase is Phase.LAST_WORD and table.state.speaker == 1
    assert Say(phrase="last_word", seat=1, seconds=60) in table.outputs
    table.advance()
    assert table.game.phase is Phase.SPEECH and table.state.speaker == 2  # day 2 opens at 2
    assert of(RoleRevealed, out) == []  # classic keeps the card hidden


def test_event_reveals_the_killed_players_card():
    table = night("event")
    table.do(*[Shot(seat=s, target=1) for s in (2, 7, 11)])
    out = morning(table)
    assert of(RoleRevealed, out) == [RoleRevealed(seat=1, role=Role.CIVILIAN)]
    assert Say(phrase="reveal_role", seat=1, role=Role.CIVILIAN) in out
    assert table.state.revealed == {1: Role.CIVILIAN}
    table.advance()
    assert table.game.phase is Phase.LAST_WORD  # a civilian has a last word


def test_event_killed_commissar_has_no_last_word():
    table = night("event")
    table.do(*[Shot(seat=s, target=4) for s in (2, 7, 11)])
    morning(table)
    assert of(RoleRevealed, table.outputs) == [RoleRevealed(seat=4, role=Role.COMMISSAR)]
    table.advance()
    assert table.game.phase is Phase.SPEECH
    assert "last_word" not in phrases(table.outputs)


def test_classic_killed_sheriff_has_a_last_word():
    table = night()
    table.do(*[Shot(seat=s, target=6) for s in (3, 5, 8)])
    morning(table)
    table.advance()
    assert table.game.phase is Phase.LAST_WORD and table.state.speaker == 6


def test_checks_of_the_night_victim_are_still_allowed():
    """The kill takes effect in the morning: the checks' number calls must not
    skip the victim, or the night would leak who was shot."""
    table = night()
    table.do(*[Shot(seat=s, target=6) for s in (3, 5, 8)])
    table.advance()
    assert table.game.is_legal(Check(seat=3, target=6))
    table.advance()
    assert table.game.is_legal(Check(seat=6, target=5))  # the victim still checks


def test_kill_rule_hook_directly():
    from engine.presets import unanimous_single_shot

    assert unanimous_single_shot([(3, 1)], frozenset()) is None  # no black seat left
    assert unanimous_single_shot([(3, 1), (5, 1), (1, 4)], frozenset({3, 5})) == 1  # red presses ignored
    assert unanimous_single_shot([(3, 1), (5, 2)], frozenset({3, 5})) is None
