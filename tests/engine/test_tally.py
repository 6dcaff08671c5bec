"""Votes counted by a human host (assist mode without buttons): one Tally per window."""

import pytest

from engine import Game, IllegalInput, Phase, Tally, Vote
from engine.outputs import PlayerLeft, Say, VoteCounted
from tests.helpers.table import Table, of, to_vote


def test_a_tally_counts_the_window_and_closes_it():
    table = to_vote({1: 9, 2: 4, 3: 6})
    out = table.do(Tally(count=3))
    assert Say(phrase="thank_you") in out
    assert table.state.vote_round.current == 4
    out = table.do(Tally(count=2)) + table.do(Tally(count=1))
    counted = of(VoteCounted, out)[0]
    # 10 alive, 6 counted: the 4 who did not vote go to the last candidate
    assert counted.counts == ((9, 3), (4, 2), (6, 5))
    assert of(PlayerLeft, out) == [PlayerLeft(seat=6, how="vote", day=1)]


def test_tallies_and_presses_give_the_same_result():
    pressed = to_vote({1: 9, 2: 4})
    by_buttons = pressed.vote([1, 2, 3, 5, 7], [4, 6])
    counted = to_vote({1: 9, 2: 4})
    by_hands = counted.do(Tally(count=5), Tally(count=2))
    assert of(VoteCounted, by_buttons)[0].counts == of(VoteCounted, by_hands)[0].counts == ((9, 5), (4, 5))
    assert pressed.state.phase is counted.state.phase is Phase.TIE_SPEECH


def test_buttons_in_one_window_and_hands_in_the_next():
    table = to_vote({1: 9, 2: 4})
    table.do(Vote(seat=1), Vote(seat=2))
    table.advance()
    out = table.do(Tally(count=7))
    assert of(VoteCounted, out)[0].counts == ((9, 2), (4, 8))


def test_more_votes_than_living_players_is_refused_and_changes_nothing():
    table = to_vote({1: 9, 2: 4})
    table.do(Tally(count=6))
    before = table.state
    with pytest.raises(
        IllegalInput, match=r"11 votes: 10 players are alive and 6 have voted in this round, so 0 to 4"
    ) as info:
        table.do(Tally(count=11))
    assert info.value.phase == "vote"
    with pytest.raises(IllegalInput, match="so 0 to 4"):
        table.do(Tally(count=5))
    with pytest.raises(IllegalInput, match="so 0 to 4"):
        table.do(Tally(count=-1))
    assert table.state == before


def test_a_press_after_every_vote_is_counted_is_refused():
    table = to_vote({1: 9, 2: 4})
    table.do(Tally(count=10))
    with pytest.raises(IllegalInput, match="every living player's vote is counted") as info:
        table.do(Vote(seat=3))
    assert info.value.seat == 3


def test_a_window_is_counted_one_way():
    table = to_vote({1: 9, 2: 4})
    table.do(Vote(seat=1))
    with pytest.raises(IllegalInput, match="taken on the buttons"):
        table.do(Tally(count=3))


def test_a_tally_outside_a_vote_is_refused():
    table = Table()
    table.until(Phase.SPEECH)
    before = table.state
    with pytest.raises(IllegalInput, match="tally is not allowed now") as info:
        table.do(Tally(count=2))
    assert info.value.phase == "speech"
    assert table.state == before


def test_the_all_leave_question_counted_by_hand():
    table = to_vote({1: 9, 2: 4})
    table.do(Tally(count=5), Tally(count=5))  # a tie: tie speeches, then the revote
    table.until(Phase.VOTE)
    table.do(Tally(count=5), Tally(count=5))  # the same tie again: all leave?
    assert table.state.vote_round.kind.value == "all"
    out = table.do(Tally(count=6))
    assert {p.seat for p in of(PlayerLeft, out)} == {9, 4}


def test_the_public_view_shows_the_counts_and_a_replay_gives_the_same_game():
    table = to_vote({1: 9, 2: 4})
    table.do(Tally(count=4))
    assert table.game.public_view()["vote"]["counted"] == {9: 4}
    assert Game.replay("classic", table.game.record).state == table.state
    assert Tally(count=0) in table.game.legal_inputs()
    assert Tally(count=7) not in table.game.legal_inputs()
