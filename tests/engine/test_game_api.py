"""The engine's contract: illegal input changes nothing, legal moves are
queryable, the record replays, outputs serialise, the public view hides roles."""

import json

import pytest

from engine import (
    Advance,
    Check,
    DealRoles,
    Foul,
    Game,
    IllegalInput,
    Nominate,
    Phase,
    Role,
    Shot,
    Team,
    Vote,
    Withdraw,
    public_view,
)
from engine.serial import BadRecord, input_from_dict, to_dict
from tests.helpers.table import Table


@pytest.mark.parametrize(
    ("setup", "bad", "phase", "seat"),
    [
        ("speech", Vote(seat=1), "speech", 1),
        ("speech", Nominate(seat=4, target=2), "speech", 4),
        ("speech", Foul(seat=12), "speech", 12),
        ("vote", Nominate(seat=1, target=2), "vote", 1),
        ("night", Check(seat=3, target=6), "night_hunt", 3),
        ("night", Shot(seat=3, target=0), "night_hunt", 0),
    ],
)
def test_illegal_input_names_phase_and_seat_and_changes_nothing(setup, bad, phase, seat):
    table = Table()
    if setup == "speech":
        table.until(Phase.SPEECH, seat=1)
    elif setup == "vote":
        table.day_speeches({1: 5, 2: 6})
        table.advance()
    else:
        table.day_speeches()
        table.advance()
    state, record = table.state, table.game.record
    with pytest.raises(IllegalInput) as info:
        table.do(bad)
    assert (info.value.phase, info.value.seat) == (phase, seat)
    assert str(info.value).startswith(f"phase {phase}, seat {seat}: ")
    assert isinstance(info.value, ValueError)
    assert table.state == state and table.game.record == record


def test_state_copies_do_not_reach_into_the_game():
    table = Table()
    copy = table.state
    copy.out.append(1)
    assert table.state.out == []


def test_legal_inputs_are_exactly_the_ones_the_game_takes():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    table.do(Nominate(seat=1, target=5))
    legal = table.game.legal_inputs()
    assert Withdraw(seat=1, target=5) in legal and Nominate(seat=1, target=7) in legal
    assert Nominate(seat=2, target=7) not in legal and Withdraw(seat=1, target=6) not in legal
    assert Advance() in legal and Foul(seat=10) in legal
    for inp in legal:
        Game.replay("classic", table.game.record).handle(inp)  # each is taken


def test_legal_inputs_at_night_and_in_a_vote():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.do(Vote(seat=1))
    legal = table.game.legal_inputs()
    assert Vote(seat=1) not in legal and Vote(seat=2) in legal
    table.vote([], [])  # nobody pressed: 6 gets all votes and leaves
    table.to_night()
    legal = table.game.legal_inputs()
    assert Shot(seat=1, target=1) in legal  # any living seat may press
    assert Shot(seat=6, target=1) not in legal and Shot(seat=1, target=6) not in legal
    assert not any(isinstance(i, Vote | Check) for i in legal)


def test_replaying_the_record_gives_an_equal_state():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 7], [])
    table.until(Phase.NIGHT_HUNT)
    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])
    table.until(Phase.SPEECH)
    replayed = Game.replay("classic", table.game.record)
    assert replayed.state == table.state
    assert replayed.record == table.game.record


def test_record_round_trips_through_json():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.do(Vote(seat=1), Foul(seat=2))
    text = json.dumps([to_dict(i) for i in table.game.record])
    back = [input_from_dict(d) for d in json.loads(text)]
    assert tuple(back) == table.game.record
    assert Game.replay("classic", back).state == table.state


def test_outputs_serialise_with_a_type():
    table = Table()
    data = [to_dict(o) for o in table.outputs]
    assert data[0] == {
        "type": "say",
        "phrase": "night_falls",
        "seat": None,
        "seats": [],
        "count": None,
        "seconds": None,
        "role": None,
        "team": None,
        "word": None,
    }
    assert {"type": "start_timer", "seconds": 60, "purpose": "agreement"} in data
    json.dumps(data)  # everything is plain JSON


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "jump"},
        {"type": "vote"},
        {"type": "vote", "seat": 1, "x": 2},
        {"type": "deal_roles", "roles": {"1": "king"}},
    ],
)
def test_bad_records_are_refused(bad):
    with pytest.raises(BadRecord):
        input_from_dict(bad)


def test_deal_roles_round_trip():
    deal = DealRoles(roles=((3, Role.DON), (6, Role.SHERIFF)))
    assert to_dict(deal) == {"type": "deal_roles", "roles": {"3": "don", "6": "sheriff"}}
    assert input_from_dict(to_dict(deal)) == deal


def test_public_view_hides_roles_until_the_end():
    table = Table()
    view = public_view(table.state)
    assert "roles" not in view and view["revealed"] == {}
    text = json.dumps(view)
    assert not any(f'"{role.value}"' in text for role in Role)
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    view = public_view(table.state)
    assert view["vote"] == {"kind": "main", "candidates": [5, 6], "current": 5, "voted": [], "counted": {}}
    assert view["candidates"] == [5, 6] and view["phase"] == "vote"
    for seat in (3, 5, 8):
        table.do(*[Foul(seat=seat)] * 4)
    view = public_view(table.state)
    assert view["winner"] == "red" and view["roles"][3] == "don"


def test_enum_slots_serialise_as_their_values():
    from engine.outputs import Say

    assert to_dict(Say(phrase="winner", team=Team.RED))["team"] == "red"
    assert to_dict(Say(phrase="role_wakes", role=Role.DON))["role"] == "don"


def test_in_the_morning_only_advance_and_fouls_are_legal():
    table = Table()
    table.until(Phase.MORNING)
    legal = table.game.legal_inputs()
    assert legal == [Advance()] + [Foul(seat=s) for s in range(1, 11)]


def test_clone_shares_no_container_with_the_original():
    import dataclasses

    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.do(Vote(seat=1))
    state = table.state
    twin = state.clone()
    assert twin == state
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if isinstance(value, dict | list):
            assert getattr(twin, f.name) is not value, f.name
    assert twin.vote_round.ballots is not state.vote_round.ballots


def test_check_raises_without_changing_anything():
    table = Table()
    state = table.state
    with pytest.raises(IllegalInput, match="vote is not allowed now"):
        table.game.check(Vote(seat=1))
    table.game.check(Advance())  # legal: no error, and still nothing changed
    assert table.state == state and len(table.game.record) == 1


def test_a_prepared_input_changes_nothing_until_it_is_made_and_only_once():
    """The runtime records an input between preparing it and making it: the
    game is untouched until then, and a move prepared before another input
    is refused (it would undo that input)."""
    game = Game("classic")
    deal = DealRoles(roles=((1, Role.DON), (2, Role.MAFIA), (3, Role.MAFIA), (4, Role.SHERIFF)))
    move = game.prepare(deal)
    assert game.phase is Phase.ROLES and game.record == ()
    assert game.make(move) == list(move.outputs) and game.phase is not Phase.ROLES
    assert game.record == (deal,)
    stale = game.prepare(Advance())
    game.handle(Advance())
    with pytest.raises(ValueError, match="prepared"):
        game.make(stale)
    assert len(game.record) == 2


def test_the_game_knows_where_its_step_began():
    """``step_began``: the record's length when the step the game is in began — an input that
    starts no step (a vote) leaves it; one that does (the window's close) moves it; a replay
    gives the same."""
    from tests.helpers.table import to_vote

    table = to_vote({1: 4, 2: 7})
    table.advance()
    game = table.game
    began = game.step_began
    assert began == len(game.record) and game.phase is Phase.VOTE
    game.handle(Vote(seat=1))
    assert game.step_began == began and Game.replay("classic", game.record).step_began == began
    game.handle(Advance())  # the window closes: the next one is a step of its own
    assert game.step_began == len(game.record)
