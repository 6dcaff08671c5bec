"""Ties ("перестрелка", "автокатастрофа"): speeches, revotes, the all-leave question."""

import dataclasses

import pytest

from engine import CLASSIC, Game, Phase
from engine.outputs import PlayerLeft, Say, StartTimer, Tie, VoteCounted
from tests.helpers.table import Table, of, phrases


def tied_table(nominations={1: 5, 2: 6}, preset="classic"):  # noqa: B006
    table = Table(preset)
    table.day_speeches(nominations)
    table.advance()
    return table


def test_a_tie_gives_each_tied_player_thirty_seconds_then_a_revote():
    table = tied_table()
    out = table.vote([1, 2, 3, 4, 7], [])  # 5 : 5
    assert of(Tie, out) == [Tie(day=1, seats=(5, 6))]
    assert table.game.phase is Phase.TIE_SPEECH and table.state.speaker == 5
    assert Say(phrase="tie_speech", seat=5, seconds=30) in out
    assert StartTimer(seconds=30, purpose="tie_speech") in out
    table.advance()
    assert table.game.phase is Phase.TIE_SPEECH and table.state.speaker == 6
    table.advance()
    assert table.game.phase is Phase.VOTE
    assert table.state.vote_round.kind == "revote" and table.state.vote_round.candidates == (5, 6)


def test_only_the_players_tied_at_the_top_go_to_the_revote():
    table = tied_table({1: 5, 2: 6, 3: 7})
    out = table.vote([1, 2, 3, 4], [8, 9, 10, 5], [])  # 4 : 4 : 2
    assert of(Tie, out) == [Tie(day=1, seats=(5, 6))]


def test_a_revote_with_a_clear_result_removes_one():
    table = tied_table()
    table.vote([1, 2, 3, 4, 7], [])
    table.until(Phase.VOTE)
    out = table.vote([1, 2, 3, 4, 7, 8], [])
    assert of(PlayerLeft, out) == [PlayerLeft(seat=5, how="vote", day=1)]
    assert table.game.phase is Phase.LAST_WORD


def revote_same_tie(table):
    table.vote([1, 2, 3, 4, 7], [])
    table.until(Phase.VOTE)
    return table.vote([1, 2, 3, 4, 7], [])


def test_the_same_tie_again_asks_whether_all_leave():
    table = tied_table()
    out = revote_same_tie(table)
    assert table.game.phase is Phase.VOTE and table.state.vote_round.kind == "all"
    assert Say(phrase="all_leave_question", seats=(5, 6)) in out
    said = phrases(out)  # «Голоса снова разделились поровну.», then the question
    assert said[said.index("all_leave_question") - 1] == "tie_repeated"


def test_all_leave_when_more_than_half_of_the_living_vote_for():
    table = tied_table()
    revote_same_tie(table)
    out = table.vote([1, 2, 4, 7, 9, 10])  # 6 of 10
    assert of(VoteCounted, out)[0].counts == ((0, 6),)
    assert of(PlayerLeft, out) == [
        PlayerLeft(seat=5, how="vote", day=1),
        PlayerLeft(seat=6, how="vote", day=1),
    ]
    # each gets a last word, in candidate order, then night falls
    assert table.game.phase is Phase.LAST_WORD and table.state.speaker == 5
    table.advance()
    assert table.state.speaker == 6
    table.advance()
    assert table.game.phase is Phase.NIGHT_HUNT


@pytest.mark.parametrize("votes_for", [[1, 2, 3, 4, 7], [1], []])
def test_all_stay_when_half_or_fewer_vote_for(votes_for):
    table = tied_table()
    revote_same_tie(table)
    out = table.vote(votes_for)
    assert of(PlayerLeft, out) == []
    assert Say(phrase="all_stay", seats=(5, 6)) in out
    assert table.game.phase is Phase.NIGHT_HUNT


def test_the_top_two_of_three_tie_then_tie_again_and_face_the_all_leave_question():
    table = Table()
    table.day_speeches({1: 2, 2: 3, 3: 4})
    table.advance()
    out = table.vote([1, 2, 3, 4], [5, 6, 7, 8], [])  # 4 : 4 : 2
    assert of(Tie, out)[0].seats == (2, 3)
    table.until(Phase.VOTE)
    out = table.vote([1, 2, 3, 4, 5], [])  # same set tied again: 5 : 5
    assert table.state.vote_round.kind == "all"


def test_revote_tie_among_fewer_players_repeats_speeches_and_revote():
    table = Table()
    table.day_speeches({1: 2, 2: 3, 3: 4, 4: 5})
    table.advance()
    out = table.vote([1, 2, 3], [4, 6, 7], [8, 9, 10], [])  # 3 : 3 : 3 : 1
    assert of(Tie, out)[0].seats == (2, 3, 4)
    table.until(Phase.VOTE)
    out = table.vote([1, 2, 3, 4], [5, 6, 7, 8], [])  # 4 : 4 : 2 -> a different set
    assert of(Tie, out)[-1].seats == (2, 3)
    assert table.game.phase is Phase.TIE_SPEECH and table.state.speaker == 2
    assert phrases(out)[-2:] == ["tie", "tie_speech"]
    table.until(Phase.VOTE)
    assert table.state.vote_round.kind == "revote" and table.state.vote_round.candidates == (2, 3)
    table.vote([1, 2, 3, 4, 5], [])
    assert table.state.vote_round.kind == "all" and table.state.vote_round.candidates == (2, 3)


def test_without_the_repeat_setting_any_revote_tie_goes_to_the_all_leave_question():
    preset = dataclasses.replace(CLASSIC, name="no-repeat", tie_repeat_when_set_changes=False)
    game = Game(preset)
    table = Table.__new__(Table)
    table.game, table.outputs = game, []
    from engine import DealRoles
    from tests.helpers.table import CLASSIC_ROLES

    table.do(DealRoles(roles=tuple(CLASSIC_ROLES.items())))
    table.day_speeches({1: 2, 2: 3, 3: 4, 4: 5})
    table.advance()
    table.vote([1, 2, 3], [4, 6, 7], [8, 9, 10], [])
    table.until(Phase.VOTE)
    table.vote([1, 2, 3, 4], [5, 6, 7, 8], [])  # 4 : 4 : 2
    assert table.state.vote_round.kind == "all" and table.state.vote_round.candidates == (2, 3)


def test_all_leave_can_end_the_game():
    table = Table("event")  # black: 2, 7, 11; twelve voters
    table.day_speeches({1: 2, 3: 7, 4: 11})
    table.advance()
    table.vote([1, 3, 4, 5], [6, 8, 9, 10], [])  # 4 : 4 : 4
    table.until(Phase.VOTE)
    table.vote([1, 3, 4, 5], [6, 8, 9, 10], [])  # the same three again
    assert table.state.vote_round.kind == "all"
    out = table.vote([1, 3, 4, 5, 6, 8, 9])  # 7 of 12 for
    assert [p.seat for p in of(PlayerLeft, out)] == [2, 7, 11]
    assert table.game.phase is Phase.GAME_OVER and table.state.winner == "red"
    assert "last_word" not in phrases(out)  # the game is over: no last words
