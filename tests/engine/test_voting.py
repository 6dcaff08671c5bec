"""Voting: order, one vote per round, non-voters, candidate counts (matrix rows 8-11)."""

import pytest

from engine import IllegalInput, Phase, Vote
from engine.outputs import NoVote, PhaseStarted, PlayerLeft, Say, VoteCounted, VoteTaken
from tests.helpers.table import of, phrases, to_vote


def test_candidates_are_asked_in_nomination_order():
    table = to_vote({1: 9, 2: 4, 3: 6})
    asked = []
    while table.game.phase is Phase.VOTE:
        asked.append(table.state.vote_round.current)
        out = table.advance()
        assert phrases(out)[0] == "thank_you"
    assert asked == [9, 4, 6]
    assert [s.seat for s in of(Say, table.outputs) if s.phrase == "vote_question"] == [9, 4, 6]


def test_non_voters_count_for_the_last_candidate():
    table = to_vote({1: 9, 2: 4, 3: 6})
    out = table.vote([1, 2, 3], [4, 5], [])  # 5 others did not press
    counted = of(VoteCounted, out)[0]
    assert counted.counts == ((9, 3), (4, 2), (6, 5))
    assert counted.voters == ((9, (1, 2, 3)), (4, (4, 5)), (6, ()))
    assert of(PlayerLeft, out) == [PlayerLeft(seat=6, how="vote", day=1)]


def test_presses_for_the_last_candidate_are_counted_once():
    table = to_vote({1: 9, 2: 4})
    out = table.vote([1, 2, 3, 5], [4, 6])
    assert of(VoteCounted, out)[0].counts == ((9, 4), (4, 6))


def test_one_vote_per_player_per_round():
    table = to_vote({1: 9, 2: 4})
    table.do(Vote(seat=1))
    before = table.state
    with pytest.raises(IllegalInput, match="already voted in this round") as info:
        table.do(Vote(seat=1))
    assert (info.value.phase, info.value.seat) == ("vote", 1)
    table.advance()
    with pytest.raises(IllegalInput, match="already voted"):
        table.do(Vote(seat=1))  # nor in the next window of the same round
    assert table.state.vote_round.ballots == before.vote_round.ballots


def test_a_vote_after_the_last_window_closed_is_not_taken():
    table = to_vote({1: 9, 2: 4})
    table.vote([1, 2, 3, 5, 6, 7], [])
    with pytest.raises(IllegalInput, match="vote is not allowed now"):
        table.do(Vote(seat=10))


def test_dead_players_do_not_vote():
    table = to_vote({1: 9, 2: 4})
    table.vote([1, 2, 3, 5, 6, 7], [])  # 9 leaves
    table.until(Phase.NIGHT_HUNT)
    table.until(Phase.SPEECH)
    table.day_speeches({1: 4, 2: 6})
    table.advance()
    with pytest.raises(IllegalInput, match="seat 9 is out of the game"):
        table.do(Vote(seat=9))


def test_vote_taken_names_the_candidate():
    table = to_vote({1: 9, 2: 4})
    out = table.do(Vote(seat=2))
    assert of(VoteTaken, out) == [VoteTaken(seat=2, candidate=9)]


@pytest.mark.parametrize("preset", ["classic", "event"])
def test_no_candidates_no_vote(preset):
    table = to_vote({}, preset)
    assert of(NoVote, table.outputs) == [NoVote(day=1, reason="no_candidates")]
    assert Say(phrase="no_candidates") in table.outputs
    assert table.game.phase is Phase.NIGHT_HUNT


@pytest.mark.parametrize("preset", ["classic", "event"])
def test_one_candidate_on_day_one_no_vote_nobody_leaves(preset):
    table = to_vote({1: 5}, preset)
    assert of(NoVote, table.outputs) == [NoVote(day=1, reason="single_candidate_day_one")]
    assert table.game.phase is Phase.NIGHT_HUNT and table.state.out == []


def test_classic_one_candidate_on_a_later_day_leaves_without_a_vote():
    table = to_vote({4: 7}, "classic", day=2)
    assert of(PlayerLeft, table.outputs) == [PlayerLeft(seat=7, how="vote", day=2)]
    # the table hears why: «Единственная кандидатура — игрок номер семь покидает игру.»
    assert Say(phrase="single_candidate_leaves", seat=7) in table.outputs
    assert "leaves" not in phrases(table.outputs)
    assert not [p for p in of(PhaseStarted, table.outputs) if p.phase == "vote"]
    assert table.game.phase is Phase.LAST_WORD and table.state.speaker == 7


def test_event_one_candidate_on_a_later_day_is_voted_and_leaves():
    table = to_vote({4: 7}, "event", day=2)
    assert table.game.phase is Phase.VOTE
    out = table.vote([])
    assert of(VoteCounted, out)[0].counts == ((7, 12),)
    assert of(PlayerLeft, out) == [PlayerLeft(seat=7, how="vote", day=2)]


def test_two_candidates_on_day_one_are_voted():
    table = to_vote({1: 5, 2: 6})
    assert table.game.phase is Phase.VOTE


def test_the_voted_out_player_gets_his_last_word_then_night_falls():
    table = to_vote({1: 5, 2: 6})
    out = table.vote([1, 2, 3, 4, 6, 7], [])
    assert Say(phrase="last_word", seat=5, seconds=60) in out
    out = table.advance()
    assert table.game.phase is Phase.NIGHT_HUNT
    assert phrases(out)[-2:] == ["night_falls", "hunt"]


def test_event_last_word_is_thirty_seconds():
    table = to_vote({1: 5, 2: 6}, "event")
    out = table.vote(range(1, 8), [])
    assert Say(phrase="last_word", seat=5, seconds=30) in out
