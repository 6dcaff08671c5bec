"""Winning: red when no black is left, black at parity; checked after every departure."""

import pytest

from engine import Advance, Foul, IllegalInput, Phase, Shot, Team
from engine.outputs import GameEnded, PlayerLeft, Say
from tests.helpers.table import Table, of, phrases

BLACK = (3, 5, 8)  # classic test roles: don 3, mafia 5 and 8, sheriff 6


def vote_out(table, seat, other):
    """Today: ``seat`` and ``other`` are nominated and a majority votes ``seat`` out."""
    nominators = [s for s in table.alive() if s not in (seat, other)][:2]
    table.day_speeches({nominators[0]: seat, nominators[1]: other})
    table.advance()
    majority = table.alive()[: len(table.alive()) // 2 + 1]
    return table.vote(*[majority if c == seat else [] for c in table.state.vote_round.candidates])


def night(table, kill=None):
    table.to_night()
    if kill is not None:
        table.do(*[Shot(seat=s, target=kill) for s in BLACK if s in table.alive()])
    return table.until(Phase.MORNING) if kill is None else table.advance(3)


def test_red_wins_when_the_last_black_leaves_by_vote():
    table = Table()
    for seat in BLACK:
        table.until(Phase.MORNING)
        out = vote_out(table, seat, 10)
        if seat != 8:
            night(table)
    assert table.game.phase is Phase.GAME_OVER
    ended = of(GameEnded, out)[0]
    assert ended.winner is Team.RED and ended.reason == "no_black_left"
    assert dict(ended.roles)[3] == "don" and dict(ended.roles)[1] == "civilian"
    assert Say(phrase="winner", team=Team.RED) in out
    assert [s.seat for s in of(Say, out) if s.phrase == "reveal_role"] == [3, 5, 6, 8]
    assert "last_word" not in phrases(out)  # the game is over at once


def test_black_wins_at_parity_on_a_morning_kill_without_a_last_word():
    table = Table()
    table.until(Phase.MORNING)
    vote_out(table, 1, 10)  # 6 red, 3 black
    night(table, kill=2)  # 5 red
    vote_out(table, 4, 10)  # 4 red
    out = night(table, kill=7)  # 3 red : 3 black
    assert of(PlayerLeft, out) == [PlayerLeft(seat=7, how="shot", night=2)]
    assert table.game.phase is Phase.GAME_OVER and table.state.winner is Team.BLACK
    assert of(GameEnded, out)[0].reason == "black_parity"
    assert "last_word" not in phrases(out)


def test_black_wins_at_parity_on_a_vote():
    table = Table()
    table.until(Phase.MORNING)
    vote_out(table, 1, 10)
    night(table, kill=2)
    vote_out(table, 4, 10)
    night(table)  # a miss: 4 red, 3 black
    assert table.game.phase is Phase.MORNING
    out = vote_out(table, 7, 10)
    assert table.state.winner is Team.BLACK and of(GameEnded, out)


def test_no_input_after_the_end():
    table = Table()
    table.until(Phase.MORNING)
    for seat in BLACK:
        table.do(*[Foul(seat=seat)] * 4)
    assert table.game.phase is Phase.GAME_OVER
    with pytest.raises(IllegalInput, match="the game is over") as info:
        table.do(Advance())
    assert info.value.phase == "game_over"
    assert table.game.legal_inputs() == []
