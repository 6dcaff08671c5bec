"""The best move («лучший ход»): the player killed on the first night names,
in his last word, three seats he believes black (classic only)."""

import re

import pytest

from engine import Advance, BestMove, Foul, Game, IllegalInput, Nominate, Phase, Shot
from engine.outputs import BestMoveMade, Say, StartTimer
from engine.serial import BadRecord, input_from_dict, to_dict
from engine.steps import resumption
from tests.helpers.table import Table, of, phrases

BLACK = (3, 5, 8)  # tests.helpers.table.CLASSIC_ROLES: the Don and two mafia


def first_morning(preset="classic", victim=1, shooters=BLACK):
    """Day 1 without a vote, night 1's shot at ``victim``: the table at his last word."""
    table = Table(preset)
    table.day_speeches()
    table.advance()  # no candidates: night falls
    table.do(*[Shot(seat=s, target=victim) for s in shooters])
    table.until(Phase.LAST_WORD)
    return table


def test_the_first_night_s_victim_is_told_of_his_best_move_as_his_last_word_begins():
    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in BLACK])
    out = table.until(Phase.LAST_WORD)
    said = phrases(out)
    assert said[-2:] == ["last_word", "best_move"]
    assert isinstance(out[-1], StartTimer)  # his time starts after «Лучший ход»


def test_a_best_move_is_accepted_and_said_back():
    table = first_morning()
    out = table.do(BestMove(seat=1, seats=(3, 5, 8)))
    assert out == [
        BestMoveMade(night=1, seat=1, seats=(3, 5, 8)),
        Say(phrase="best_move_accepted", seats=(3, 5, 8)),
    ]
    assert (table.state.best_move_seat, table.state.best_move) == (1, (3, 5, 8))
    assert table.game.phase is Phase.LAST_WORD  # his last word goes on


def test_a_second_statement_replaces_the_first():
    table = first_morning()
    table.do(BestMove(seat=1, seats=(3, 5, 8)), BestMove(seat=1, seats=(2, 4, 6)))
    assert table.state.best_move == (2, 4, 6)
    table.advance()  # the last word ends: the best move stays
    assert table.game.phase is Phase.SPEECH
    assert table.state.best_move == (2, 4, 6)
    with pytest.raises(IllegalInput) as caught:
        table.do(BestMove(seat=1, seats=(3, 5, 8)))
    assert (caught.value.code, caught.value.phase, caught.value.seat) == ("not_now", "speech", 1)
    assert table.state.best_move == (2, 4, 6)


def test_seats_out_of_the_game_may_be_named():
    table = first_morning(victim=2)
    table.do(BestMove(seat=2, seats=(1, 9, 10)))
    assert table.state.best_move == (1, 9, 10)


@pytest.mark.parametrize(
    ("inp", "code", "parts", "message"),
    [
        (BestMove(seat=4, seats=(3, 5, 8)), "not_speaker", {"speaker": 1}, "only the speaker (seat 1)"),
        (BestMove(seat=11, seats=(3, 5, 8)), "not_a_seat", {"number": 11, "seats": 10}, "seat 11"),
        (BestMove(seat=1, seats=(3, 5)), "best_move_three", {"count": 2}, "three seats, not 2"),
        (BestMove(seat=1, seats=(3, 5, 8, 9)), "best_move_three", {"count": 4}, "three seats, not 4"),
        (BestMove(seat=1, seats=(3, 5, 11)), "not_a_seat", {"number": 11, "seats": 10}, "named seat 11"),
        (BestMove(seat=1, seats=(1, 5, 8)), "own_seat", {}, "his own seat"),
        (BestMove(seat=1, seats=(3, 5, 3)), "named_twice", {"number": 3}, "seat 3 is named twice"),
    ],
)
def test_a_bad_best_move_is_refused_naming_phase_and_seat_and_changes_nothing(inp, code, parts, message):
    table = first_morning()
    before = table.state
    with pytest.raises(IllegalInput, match=re.escape(message)) as caught:
        table.do(inp)
    bad = caught.value
    assert (bad.code, dict(bad.parts), bad.phase, bad.seat) == (code, parts, "last_word", inp.seat)
    assert table.state == before


def test_outside_the_first_night_victim_s_last_word_nobody_has_a_best_move():
    table = Table()
    with pytest.raises(IllegalInput) as caught:
        table.do(BestMove(seat=1, seats=(3, 5, 8)))
    assert (caught.value.code, caught.value.phase) == ("not_now", "intro_mafia")
    table.until(Phase.SPEECH)
    with pytest.raises(IllegalInput, match="best_move is not allowed now"):
        table.do(BestMove(seat=1, seats=(3, 5, 8)))


def test_the_last_word_after_a_vote_has_no_best_move():
    table = Table()
    table.day_speeches({1: 2})
    table.advance()  # a lone candidate on day one is not voted: night
    table.do(*[Shot(seat=s, target=1) for s in BLACK])
    table.until(Phase.LAST_WORD)
    table.advance()
    table.day_speeches({2: 4, 3: 7})
    table.advance()
    table.vote([2, 3, 5, 6, 9, 10], [])  # 4 leaves by vote: his last word
    assert table.game.phase is Phase.LAST_WORD and table.state.speaker == 4
    assert "best_move" not in phrases(table.outputs[-3:])
    with pytest.raises(IllegalInput) as caught:
        table.do(BestMove(seat=4, seats=(3, 5, 8)))
    bad = caught.value
    assert (bad.code, bad.phase, bad.seat) == ("no_best_move", "last_word", 4)
    assert "killed on the first night" in str(bad)


def test_a_miss_on_the_first_night_leaves_nobody_a_best_move():
    table = Table()
    table.day_speeches()
    table.advance()
    table.until(Phase.MORNING)  # nobody shot: a miss
    table.advance()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=2) for s in BLACK])  # night 2 kills
    out = table.until(Phase.LAST_WORD)
    assert table.state.speaker == 2 and "best_move" not in phrases(out)
    with pytest.raises(IllegalInput) as caught:
        table.do(BestMove(seat=2, seats=(3, 5, 8)))
    assert caught.value.code == "no_best_move"


@pytest.mark.parametrize("preset", ["event", "city"])
def test_event_and_city_have_no_best_move(preset):
    game = Game(preset)
    assert game.preset.best_move is False
    if preset == "event":  # the event's victim has a last word, with no best move in it
        table = first_morning("event", victim=1, shooters=(2, 7, 11))
        assert "best_move" not in phrases(table.outputs[-3:])
        with pytest.raises(IllegalInput) as caught:
            table.do(BestMove(seat=1, seats=(2, 7, 11)))
        assert caught.value.code == "no_best_move"


def test_a_best_move_is_undone_and_replayed_like_any_input():
    table = first_morning()
    table.do(BestMove(seat=1, seats=(3, 5, 8)))
    record = table.game.record
    again = Game.replay("classic", record)
    assert again.state == table.state and again.state.best_move == (3, 5, 8)
    undone = Game.replay("classic", record[:-1])  # undo: the record without it
    assert undone.state.best_move == () and undone.state.best_move_seat is None
    assert undone.phase is Phase.LAST_WORD


def test_a_best_move_serialises_as_the_others():
    inp = BestMove(seat=1, seats=(3, 5, 8))
    data = to_dict(inp)
    assert data == {"type": "best_move", "seat": 1, "seats": [3, 5, 8]}
    assert input_from_dict(data) == inp
    assert to_dict(BestMoveMade(night=1, seat=1, seats=(3, 5, 8)))["seats"] == [3, 5, 8]
    with pytest.raises(BadRecord, match="bad best_move input"):
        input_from_dict({"type": "best_move", "seat": 1, "seats": 3})


def test_a_resumed_last_word_says_best_move_again():
    table = first_morning()
    said = [o.phrase for o in resumption(table.game.preset, table.game.state, 10.0) if isinstance(o, Say)]
    assert said[-2:] == ["last_word", "best_move"]


def test_a_disqualifying_foul_in_his_last_word_keeps_his_best_move():
    table = first_morning()
    table.do(BestMove(seat=1, seats=(3, 5, 8)))
    table.do(*[Foul(seat=1)] * 4)
    assert table.game.phase is Phase.SPEECH and table.state.best_move == (3, 5, 8)


def test_legal_inputs_do_not_list_best_moves():
    table = first_morning()
    assert not of(BestMove, table.game.legal_inputs())
    assert table.game.is_legal(BestMove(seat=1, seats=(2, 4, 6)))
    assert not table.game.is_legal(Nominate(seat=1, target=2))
    assert Advance() in table.game.legal_inputs()


def test_a_last_word_resumed_after_its_best_move_says_it_back_instead_of_asking_again():
    table = first_morning()
    table.do(BestMove(seat=1, seats=(3, 5, 8)))
    said = [o for o in resumption(table.game.preset, table.game.state, 10.0) if isinstance(o, Say)]
    assert [o.phrase for o in said][-2:] == ["last_word", "best_move_accepted"]
    assert said[-1].seats == (3, 5, 8) and "best_move" not in [o.phrase for o in said]
