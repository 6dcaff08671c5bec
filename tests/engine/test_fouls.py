"""Fouls ("замечания"): the third loses the next speech, the fourth disqualifies."""

import dataclasses

import pytest

from engine import CLASSIC, Advance, DealRoles, Foul, Game, IllegalInput, Nominate, Phase, Role, Shot
from engine.outputs import FoulGiven, NoVote, PlayerLeft, Say, Silenced, SpeechSkipped
from tests.helpers.table import CLASSIC_ROLES, Table, of, phrases


def fouls(table, seat, n):
    return table.do(*[Foul(seat=seat)] * n)


def test_fouls_are_counted_and_announced():
    table = Table()
    table.until(Phase.MORNING)
    out = fouls(table, 4, 2)
    assert of(FoulGiven, out) == [FoulGiven(seat=4, count=1), FoulGiven(seat=4, count=2)]
    assert Say(phrase="foul", seat=4, count=2) in out


def test_third_foul_before_his_speech_loses_todays_speech():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    out = fouls(table, 4, 3)
    assert of(Silenced, out) == [Silenced(seat=4, day=1)]
    order = table.day_speeches()
    assert 4 not in order and order[:3] == [1, 2, 3]
    assert of(SpeechSkipped, table.outputs) == [SpeechSkipped(day=1, seat=4)]
    assert Say(phrase="speech_skipped", seat=4) in table.outputs


def test_third_foul_in_the_morning_loses_todays_speech():
    table = Table()
    table.until(Phase.MORNING)
    fouls(table, 1, 3)
    assert table.day_speeches()[0] == 2


def test_third_foul_after_his_speech_loses_the_next_days_speech():
    table = Table()
    table.until(Phase.SPEECH, seat=5)
    out = fouls(table, 2, 3)
    assert of(Silenced, out) == [Silenced(seat=2, day=2)]
    table.day_speeches()
    table.advance()
    table.until(Phase.MORNING)
    assert 2 not in table.day_speeches()


def test_third_foul_during_his_own_speech_loses_the_next_days_speech():
    table = Table()
    table.until(Phase.SPEECH, seat=4)
    out = fouls(table, 4, 3)
    assert of(Silenced, out) == [Silenced(seat=4, day=2)]
    assert table.state.speaker == 4  # the speech under way goes on


@pytest.mark.parametrize("where", ["vote_announce", "night", "intro"])
def test_third_foul_later_in_the_day_or_at_night_loses_the_next_days_speech(where):
    table = Table()
    if where != "intro":
        table.day_speeches()
        if where == "night":
            table.advance()
    out = fouls(table, 7, 3)
    expected_day = 1 if where == "intro" else 2
    assert of(Silenced, out) == [Silenced(seat=7, day=expected_day)]


def test_a_silenced_player_cannot_nominate():
    table = Table()
    table.until(Phase.MORNING)
    fouls(table, 1, 3)
    table.until(Phase.SPEECH)
    with pytest.raises(IllegalInput, match="only the speaker"):
        table.do(Nominate(seat=1, target=5))


def test_a_silenced_player_keeps_his_tie_speech_and_last_word():
    table = Table()
    table.until(Phase.MORNING)
    fouls(table, 5, 3)  # silenced today
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 7], [])  # 5 : 5
    assert table.game.phase is Phase.TIE_SPEECH and table.state.speaker == 5
    table.until(Phase.VOTE)
    table.vote([1, 2, 3, 4, 7, 8], [])  # 5 leaves
    assert table.game.phase is Phase.LAST_WORD and table.state.speaker == 5


def test_fourth_foul_disqualifies_at_once_without_a_last_word():
    table = Table()
    table.until(Phase.SPEECH, seat=2)
    out = fouls(table, 7, 4)
    assert of(PlayerLeft, out) == [PlayerLeft(seat=7, how="disqualified", day=1)]
    assert "disqualified" in phrases(out) and "last_word" not in phrases(out)
    assert 7 not in table.day_speeches()


def test_fourth_foul_cancels_that_days_vote():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    table.do(Nominate(seat=1, target=5))
    fouls(table, 9, 4)
    table.day_speeches({2: 6})
    out = table.advance()
    assert of(NoVote, out) == [NoVote(day=1, reason="cancelled")]
    assert Say(phrase="no_vote_cancelled") in out
    assert table.game.phase is Phase.NIGHT_HUNT


def test_fourth_foul_between_speeches_and_vote_cancels_the_vote():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    fouls(table, 9, 4)
    table.advance()
    assert table.game.phase is Phase.NIGHT_HUNT


def test_fourth_foul_during_the_vote_stops_it():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.do(Foul(seat=1))
    out = fouls(table, 1, 3)
    assert of(NoVote, out) == [NoVote(day=1, reason="cancelled")]
    assert table.game.phase is Phase.NIGHT_HUNT


def test_fourth_foul_during_a_tie_speech_stops_the_vote():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 7], [])
    fouls(table, 5, 4)
    assert table.game.phase is Phase.NIGHT_HUNT
    assert table.state.out == [5]


def test_disqualified_speaker_loses_the_rest_of_his_speech():
    table = Table()
    table.until(Phase.SPEECH, seat=3)
    fouls(table, 3, 4)
    assert table.state.speaker == 4


def test_disqualification_at_night_does_not_cancel_the_next_days_vote():
    table = Table()
    table.day_speeches()
    table.advance()  # night 1
    out = fouls(table, 9, 4)
    assert of(PlayerLeft, out) == [PlayerLeft(seat=9, how="disqualified", night=1)]
    table.until(Phase.MORNING)
    table.day_speeches({1: 2})
    table.advance()
    assert PlayerLeft(seat=2, how="vote", day=2) in table.outputs  # a lone candidate leaves


def test_disqualification_after_the_vote_during_a_last_word_changes_nothing_more():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 7, 9], [])  # 5 leaves, last word
    fouls(table, 9, 4)
    assert table.game.phase is Phase.LAST_WORD and table.state.speaker == 5
    assert table.state.out == [5, 9]


def test_fourth_foul_in_a_morning_last_word_cancels_the_days_vote():
    table = Table()
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    fouls(table, 9, 4)
    assert table.state.vote_cancelled


def test_fourth_foul_during_ones_own_last_word_ends_it():
    table = Table()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 7, 9], [])  # 5 leaves
    fouls(table, 5, 3)
    assert table.state.speaker == 5  # a third foul does not end it
    out = fouls(table, 5, 1)
    assert table.game.phase is Phase.NIGHT_HUNT
    assert of(PlayerLeft, out) == []  # he had left already


def test_fouls_for_players_out_of_the_game_are_refused():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    fouls(table, 9, 4)
    with pytest.raises(IllegalInput, match="seat 9 is out of the game") as info:
        table.do(Foul(seat=9))
    assert info.value.seat == 9
    with pytest.raises(IllegalInput, match="seat 0 is not a seat"):
        table.do(Foul(seat=0))


def test_disqualification_can_end_the_game():
    table = Table()  # black 3, 5, 8
    table.until(Phase.MORNING)
    for seat in (3, 5):
        fouls(table, seat, 4)
    out = fouls(table, 8, 4)
    assert table.game.phase is Phase.GAME_OVER and table.state.winner == "red"
    assert Say(phrase="winner", team="red") in out


def without_cancel():
    preset = dataclasses.replace(CLASSIC, name="keep-vote", disqualification_cancels_vote=False)
    game = Game(preset)
    game.handle(DealRoles(roles=tuple(CLASSIC_ROLES.items())))
    table = Table.__new__(Table)
    table.game, table.outputs = game, []
    return table


def test_setting_off_a_disqualified_candidate_is_dropped_and_the_vote_held():
    table = without_cancel()
    table.day_speeches({1: 5, 2: 6, 3: 7})
    fouls(table, 6, 4)
    assert table.state.candidates == [5, 7]
    table.advance()
    assert table.game.phase is Phase.VOTE and table.state.vote_round.candidates == (5, 7)


def test_setting_off_a_disqualification_during_the_vote_reruns_it():
    table = without_cancel()
    table.day_speeches({1: 5, 2: 6, 3: 7})
    table.advance()
    table.do(Foul(seat=7), Foul(seat=7), Foul(seat=7))
    out = table.do(Foul(seat=7))
    assert table.game.phase is Phase.VOTE_ANNOUNCE
    assert Say(phrase="candidates", seats=(5, 6)) in out
    table.advance()
    assert table.state.vote_round.candidates == (5, 6) and table.state.vote_round.ballots == {}


def test_setting_off_disqualifying_a_voter_in_a_tie_speech_reruns_the_vote():
    table = without_cancel()
    table.day_speeches({1: 5, 2: 6})
    table.advance()
    table.vote([1, 2, 3, 4, 7], [])  # 5 : 5
    assert table.game.phase is Phase.TIE_SPEECH
    fouls(table, 9, 4)
    assert table.game.phase is Phase.VOTE_ANNOUNCE and table.state.candidates == [5, 6]
    table.do(Advance())
    assert table.state.vote_round.kind == "main"


def device(seat, word="честно"):
    return Foul(seat=seat, by="device", word=word)


def test_a_device_foul_names_the_word_it_heard_and_counts_with_the_hosts():
    table = Table()
    table.until(Phase.SPEECH, seat=7)
    out = table.do(Foul(seat=7), device(7))
    assert of(FoulGiven, out) == [
        FoulGiven(seat=7, count=1),
        FoulGiven(seat=7, count=2, by="device", word="честно"),
    ]
    assert Say(phrase="foul_heard", seat=7, count=2, word="честно") in out
    assert Say(phrase="foul", seat=7, count=2) not in out


def test_a_third_device_foul_in_his_speech_takes_the_next_days_speech_a_fourth_removes_him():
    table = Table()
    table.until(Phase.SPEECH, seat=7)
    out = table.do(device(7), device(7, "клянусь"), device(7, "спорим"))
    assert of(Silenced, out) == [Silenced(seat=7, day=2)]
    assert table.state.speaker == 7  # his speech goes on
    out = table.do(device(7, "время"))
    assert of(PlayerLeft, out) == [PlayerLeft(seat=7, how="disqualified", day=1)]
    assert phrases(out)[:2] == ["foul_heard", "disqualified"]
    assert table.state.speaker == 8  # cut off: the next speaker has the floor


def test_a_fourth_device_foul_ends_a_last_word():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    table.do(*[Foul(seat=2)] * 3)
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=2) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    assert table.state.speaker == 2
    table.do(device(2))
    assert table.state.phase is not Phase.LAST_WORD or table.state.speaker != 2


def test_a_foul_given_by_neither_host_nor_device_is_refused():
    table = Table()
    table.until(Phase.SPEECH, seat=1)
    with pytest.raises(IllegalInput) as exc:
        table.do(Foul(seat=3, by="phone"))
    assert exc.value.code == "foul_by" and exc.value.parts["by"] == "phone"


@pytest.mark.parametrize(
    "preset",
    [
        "classic",
        "event",
        dataclasses.replace(CLASSIC, name="strict", silence_at_foul=2, disqualify_at_foul=3),
    ],
    ids=["classic", "event", "2-and-3"],
)
def test_device_fouls_cost_a_speech_and_remove_the_player_at_the_presets_counts(preset):
    table = Table(preset)
    p = table.game.preset
    table.until(Phase.SPEECH, seat=1)
    before = [device(4, "клянусь") for _ in range(p.silence_at_foul - 1)]
    assert not of(Silenced, table.do(*before))
    out = table.do(device(4, "спорим"))  # the speech-costing foul, before his speech: today's
    assert of(Silenced, out) == [Silenced(seat=4, day=1)]
    assert Say(phrase="foul_heard", seat=4, count=p.silence_at_foul, word="спорим") in out
    for _ in range(p.disqualify_at_foul - p.silence_at_foul - 1):
        table.do(device(4))
    out = table.do(device(4, "время"))
    assert of(PlayerLeft, out) == [PlayerLeft(seat=4, how="disqualified", day=1)]
    assert of(FoulGiven, out) == [FoulGiven(seat=4, count=p.disqualify_at_foul, by="device", word="время")]


def test_the_city_rules_refuse_a_device_foul():
    game = Game("city")
    game.handle(
        DealRoles(
            roles=(
                (2, Role.MAFIA),
                (3, Role.MAFIA),
                (5, Role.MAFIA),
                (6, Role.SHERIFF),
                (8, Role.DOCTOR),
                (9, Role.LOVER),
            )
        )
    )
    with pytest.raises(IllegalInput) as exc:
        game.handle(device(3))
    assert exc.value.code == "no_fouls"
