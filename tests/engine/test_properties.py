"""Random legal games, played to the end, with the engine's invariants checked
after every input."""

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Advance,
    DealRoles,
    Foul,
    Game,
    IllegalInput,
    Phase,
    Role,
    city_preset,
    get_preset,
    public_view,
)
from engine.outputs import CheckMade, Say, ShotTaken, ShowCheck, VisitMade
from engine.roles import BLACK_ROLES

pytestmark = pytest.mark.slow  # most of this file's tests are slow (CONTRIBUTING.md)

NIGHT = {Phase.INTRO_MAFIA, Phase.INTRO_MEET, Phase.NIGHT_HUNT, Phase.NIGHT_CHECK, Phase.NIGHT_VISIT}
MORNINGS = ("morning", "city_morning", "winner")
MAX_STEPS = 800


@st.composite
def deals(draw, preset):
    preset = get_preset(preset) if isinstance(preset, str) else preset
    seats = draw(st.permutations(range(1, preset.seats + 1)))
    roles, at = [], 0
    for role, count in preset.roles:
        roles += [(seat, role) for seat in seats[at : at + count]]
        at += count
    return DealRoles(roles=tuple(sorted(roles)))


def pick(data, game):
    kind = data.draw(st.sampled_from(["advance"] * 6 + ["act"] * 4 + ["foul"]), label="kind")
    if kind == "advance":
        return Advance()
    legal = game.legal_inputs()
    acts = [i for i in legal if not isinstance(i, Advance | Foul)]
    fouls = [i for i in legal if isinstance(i, Foul)]
    pool = {"act": acts, "foul": fouls}[kind] or [Advance()]  # the city rules have no fouls
    return data.draw(st.sampled_from(pool), label="input")


def check_public_view(game):
    state = game.state
    view = game.public_view()
    assert view == public_view(state)
    if state.phase is Phase.GAME_OVER:
        assert view["roles"] and view["winner"] in ("red", "black")
        return
    assert "roles" not in view
    # the only roles shown are those the preset makes public, of seats that are out
    for seat in view["revealed"]:
        assert game.preset.reveal_role_when_shot and seat in state.out
    hidden = {json.dumps(role.value) for role in Role}
    shown = json.dumps({k: v for k, v in view.items() if k != "revealed"})
    assert not any(role in shown for role in hidden)


def check_night_outputs(game, phase_before, outputs):
    """At night no seat number is said (but for fouls, which are public), and
    a check's answer goes to the checker's own seat only."""
    if phase_before not in NIGHT:
        return
    night_part = []
    for item in outputs:
        if isinstance(item, Say) and item.phrase in MORNINGS:
            break  # the night is over: the morning, or the end of the game
        night_part.append(item)
    for item in night_part:
        if isinstance(item, Say) and item.phrase not in ("foul", "silenced", "disqualified"):
            assert item.seat is None and item.seats == (), item
        if isinstance(item, ShowCheck):
            assert phase_before is Phase.NIGHT_CHECK
            assert game.state.role(item.seat) is game.state.step_role


def play_randomly(data, preset_name):
    preset = get_preset(preset_name)
    if preset_name == "city":
        preset = city_preset(data.draw(st.integers(6, 16), label="seats"))
    game = Game(preset)
    game.handle(data.draw(deals(preset), label="deal"))
    living = len(game.state.alive())
    for _ in range(MAX_STEPS):
        if game.phase is Phase.GAME_OVER:
            break
        inp = pick(data, game)
        phase_before = game.phase
        out_before = game.state.out
        outputs = game.handle(inp)
        for item in outputs:  # no dead player ever acts
            if isinstance(item, ShotTaken | CheckMade | VisitMade):
                assert item.seat not in out_before, item
        now = len(game.state.alive())
        assert now <= living  # the number of living players never grows
        living = now
        check_public_view(game)
        check_night_outputs(game, phase_before, outputs)
    return game


def check_visits(game):
    """The Doctor (and the Lover) never visit the same seat two nights
    running, nor themselves twice; a forbidden visit counted for nothing."""
    state = game.state
    for role in (Role.DOCTOR, Role.LOVER):
        counted = [(night, target) for night, r, target in state.visits if r is role]
        assert all(not (n2 == n1 + 1 and t1 == t2) for (n1, t1), (n2, t2) in itertools.pairwise(counted))
        mine = [seat for seat, r in state.roles.items() if r is role]
        assert sum(1 for _, target in counted if target in mine) <= 1


def check_end(game):
    check_visits(game)
    state = game.state
    if state.phase is Phase.GAME_OVER:
        assert game.legal_inputs() == []
        alive = state.alive()
        black = sum(1 for s in alive if state.role(s) in BLACK_ROLES)
        assert (state.winner == "red") == (black == 0)
        assert (state.winner == "black") == (0 < black >= len(alive) - black)
    else:  # ran out of inputs: the game is still playable
        assert Advance() in game.legal_inputs() and state.winner is None
    # replaying the record gives an equal state
    assert Game.replay(game.preset, game.record).state == state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), preset=st.sampled_from(["classic", "event", "city"]))
def test_random_legal_games_keep_the_invariants(data, preset):
    check_end(play_randomly(data, preset))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), preset=st.sampled_from(["classic", "event", "city"]), seat=st.integers(-2, 18))
def test_illegal_inputs_change_nothing(data, preset, seat):
    game = play_randomly(data, preset)
    from engine import Check, GoldenMinute, Nominate, Shot, Visit, Vote, Withdraw

    state, record = game.state, game.record
    for inp in (
        Vote(seat=seat),
        Nominate(seat=seat, target=seat),
        Shot(seat=seat, target=1),
        Check(seat=seat, target=seat),
        Withdraw(seat=seat, target=1),
        Foul(seat=seat),
        Visit(seat=seat, target=seat),
        GoldenMinute(seat=seat),
    ):
        if game.is_legal(inp):
            continue
        try:
            game.handle(inp)
        except IllegalInput as exc:
            assert exc.phase == state.phase.value
        else:  # pragma: no cover - is_legal said no
            raise AssertionError(f"{inp} was taken")
        assert game.state == state and game.record == record


def test_random_games_reach_the_end_often():
    """A sanity check of the generator itself: most random games finish."""
    import random

    finished = 0
    for seed in range(30):
        rng = random.Random(seed)
        game = Game("classic")
        seats = rng.sample(range(1, 11), 4)
        game.handle(
            DealRoles(
                roles=(
                    (seats[0], Role.DON),
                    (seats[1], Role.MAFIA),
                    (seats[2], Role.MAFIA),
                    (seats[3], Role.SHERIFF),
                )
            )
        )
        for _ in range(MAX_STEPS):
            if game.phase is Phase.GAME_OVER:
                finished += 1
                break
            legal = game.legal_inputs()
            game.handle(rng.choice([Advance()] * 3 + [i for i in legal if not isinstance(i, Foul)]))
    assert finished >= 20
