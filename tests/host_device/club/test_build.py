"""The record built from a stored game: the example full game simulated into
a store, read back as seats, departures, nominations, ballots, night actions."""

import json

from engine import Role, Team
from host_device.club.build import build_record, record_of, records
from host_device.club.record import Ballot, BestMove, Departure, NightAction, Nomination
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store.faults import DamagedGame
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second

FULL = ROOT / "examples" / "classic-full-game.json"
GAME = ROOT / "examples" / "classic-game.json"


def test_the_full_game_as_a_record(store):
    simulate(load_script(FULL), one_second, store=store)
    record = record_of(store, 1)
    assert (record.id, record.preset, record.mode, record.winner, record.days) == (
        1,
        "classic",
        "simulate",
        Team.RED,
        3,
    )
    assert record.finished and record.finished_at is not None
    roles = {s.seat: s.role for s in record.seats if s.role is not Role.CIVILIAN}
    assert roles == {3: Role.DON, 5: Role.MAFIA, 6: Role.SHERIFF, 8: Role.MAFIA}
    assert len(record.seats) == 10
    assert record.seat(3).left == Departure(how="vote", day=1)
    assert record.seat(1).left == Departure(how="shot", night=1)
    assert record.seat(2).left is None
    assert Nomination(1, 1, 3) in record.nominations and Nomination(1, 2, 5) in record.nominations
    day1 = [b for b in record.ballots if b.day == 1]
    assert {b.voter for b in day1 if b.target == 3} == {1, 2, 4, 6, 7, 9}
    assert not [b for b in day1 if b.target == 5]  # 5's votes were the non-pressers'
    revote = [b for b in record.ballots if b.day == 2 and b.round == 2]
    assert {(b.voter, b.target) for b in revote} == {(s, 5) for s in (2, 4, 6, 7, 9)}
    assert revote[0].kind == "revote" and Ballot(2, 1, "main", 9, 8) in record.ballots
    assert NightAction(1, "check", Role.SHERIFF, 5, True, seat=6) in record.nights
    assert {(a.seat, a.target) for a in record.nights if a.kind == "shot" and a.night == 1} == {
        (5, 1),
        (8, 1),
    }
    assert record.best_move == BestMove(seat=1, named=(3, 5, 8), black=3) and dict(record.extras) == {}


def test_the_seats_carry_the_roster_players_and_the_extra_points(store):
    simulate(load_script(FULL), one_second, store=store)
    anya, _, _ = store.roster.seat_by_name(1, 4, "Аня")
    store.roster.set_extra(1, 4, 0.3)
    record = record_of(store, 1)
    assert (record.seat(4).name, record.seat(4).player) == ("Аня", anya.id)
    assert record.seat(5).name is None and record.seat(5).player is None
    assert dict(record.extras) == {4: 0.3}
    store.roster.rename_player(anya.id, "Анна")
    assert record_of(store, 1).seat(4).name == "Анна"  # the name as the roster has it now


def test_build_record_takes_plain_mappings(store):
    simulate(load_script(FULL), one_second, store=store)

    class Player:
        def __init__(self, id, name):
            self.id, self.name = id, name

    record = build_record(
        store.games.game(1),
        store.games.preset(1),
        store.games.inputs(1),
        {2: Player("u-2", "Боря")},
        {2: 0.3},
    )
    assert (record.seat(2).player, record.seat(2).name) == ("u-2", "Боря")
    assert record.extras == {2: 0.3}


def test_records_are_the_finished_games_in_time_order_and_name_the_damaged(store, tmp_path):
    simulate(load_script(FULL), one_second, store=store)
    simulate(load_script(GAME), one_second, store=store)
    simulate(load_script(FULL), one_second, store=store)
    store.db.execute("UPDATE games SET started_at = '2000-01-01T00:00:00' WHERE id = 3")
    store.db.execute('UPDATE inputs SET input = \'{"type": "vote", "seat": 99}\' WHERE game = 2 AND seq = 3')
    store.db.commit()
    damaged = []
    found = records(store, damaged)
    assert [r.id for r in found] == [3, 1]
    assert [d.game_id for d in damaged] == [2] and isinstance(damaged[0], DamagedGame)


def test_the_best_move_is_the_last_one_made_with_how_many_were_black():
    from engine import Advance, BestMove, Phase, Shot
    from engine.presets import get_preset
    from host_device.store.games import GameRow
    from tests.helpers.table import Table

    table = Table("classic")  # the Don and two mafia at 3, 5, 8
    table.day_speeches()
    table.advance()
    table.do(*[Shot(seat=s, target=1) for s in (3, 5, 8)])
    table.until(Phase.LAST_WORD)
    table.do(BestMove(seat=1, seats=(2, 4, 6)), BestMove(seat=1, seats=(3, 5, 9)), Advance())
    row = GameRow(7, "2026-12-01T20:00:00", "classic", "host", None, None, 1)
    inputs = [(n, 0.0, inp) for n, inp in enumerate(table.game.record, 1)]
    record = build_record(row, get_preset("classic"), inputs)
    assert record.best_move is not None
    assert (record.best_move.seat, record.best_move.named, record.best_move.black) == (1, (3, 5, 9), 2)
    assert not record.finished


def test_a_lone_candidate_leaves_without_a_vote_and_is_said_so(store):
    """Classic, day 2: one candidate alone leaves without a vote; the protocol
    and the review say what happened («день 2, один кандидат, без
    голосования»), and a vote's departure as «день 1, голосованием»."""
    from host_device.club.protocol import game_page
    from host_device.scripts.script import parse_script
    from host_device.web.review import review

    script = {
        "roles": {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"},
        "days": [
            {
                "speeches": {"1": "я выставляю игрока номер три", "2": "я выставляю игрока номер пять"},
                "votes": [{"3": [1, 2, 4, 6, 7, 9, 10], "5": [3]}],
            },
            {"speeches": {"2": "я выставляю игрока номер восемь"}},
            {"speeches": {"4": "я выставляю игрока номер пять"}},
        ],
        "nights": [{"shots": {"5": 1, "8": 1}, "don": 6, "sheriff": 5}, {"shots": {"5": 2}}],
    }
    simulate(parse_script(script), one_second, store=store)
    record = record_of(store, 1)
    assert record.seat(8).left == Departure(how="vote", day=2) and record.alone(record.seat(8))
    assert not record.alone(record.seat(3)) and not record.alone(record.seat(1))
    rows = {row[0]: row for row in game_page(record, {}).tables[0].rows}
    assert rows["8"][5] == "день 2, один кандидат, без голосования"
    assert rows["3"][5] == "день 1, голосованием" and rows["1"][5] == "ночь 1, убит"
    assert record.winner is Team.RED and record.alone(record.seat(5))
    left = {s.seat: s.left for s in review(record).seats}
    assert (left[8], left[3], left[1]) == (
        "день 2, один кандидат, без голосования",
        "день 1, голосованием",
        "ночь 1, убит",
    )


def test_each_foul_is_recorded_with_who_gave_it_the_word_heard_and_the_moment():
    from engine import Foul, Phase
    from engine.presets import get_preset
    from host_device.club.record import FoulRecord
    from host_device.club.record_json import record_from_dict, record_to_dict
    from host_device.store.games import GameRow
    from tests.helpers.table import Table

    table = Table("classic")
    table.until(Phase.SPEECH, seat=2)
    table.do(Foul(seat=2, by="device", word="честно"), Foul(seat=4))
    row = GameRow(7, "2026-12-01T20:00:00", "classic", "host", None, None, 1)
    inputs = [(n, 10.0 * n, inp) for n, inp in enumerate(table.game.record, 1)]
    record = build_record(row, get_preset("classic"), inputs)
    n = len(inputs)
    assert record.fouls == (
        FoulRecord(2, 1, "device", "честно", 10.0 * (n - 1)),
        FoulRecord(4, 1, "host", "", 10.0 * n),
    )
    assert record.seat(2).fouls == 1 and record.seat(4).fouls == 1
    assert record_from_dict(record_to_dict(record)) == record
    before = record_to_dict(record)
    del before["fouls"]  # a record sent before issue 39
    assert record_from_dict(before).fouls == ()


def test_the_record_keeps_what_the_device_heard_and_its_withdrawn_fouls_counted_nowhere(store):
    """Issue 45: each device foul with its utterance, confidences and moment
    in the speech; the one the console withdrew kept for the referee (the
    store's undone input), marked, in its place, and counted nowhere."""
    from host_device.club.record import FoulRecord
    from host_device.club.record_json import record_from_dict, record_to_dict
    from tests.helpers.fouls import game_with_fouls

    record = record_of(store, game_with_fouls(store))
    assert record.finished
    withdrawn, stands, by_host = record.fouls
    assert (withdrawn.seat, withdrawn.day, withdrawn.word, withdrawn.withdrawn) == (2, 1, "клянусь", True)
    assert (withdrawn.heard, withdrawn.confidence, withdrawn.speech_s) == (
        "клянусь я мирный",
        (0.93, 0.88, 0.97),
        12.5,
    )
    assert stands == FoulRecord(
        2, 1, "device", "честно", stands.at, "честно говоря я за пятого", (0.91, 0.8, 0.99, 0.95, 0.9), 42.0
    )
    assert (by_host.seat, by_host.by, by_host.withdrawn, by_host.heard) == (4, "host", False, "")
    assert withdrawn.at < stands.at < by_host.at
    assert record.seat(2).fouls == 1 and record.seat(4).fouls == 1  # the withdrawn one is no foul
    assert record_from_dict(record_to_dict(record)) == record
    assert record_from_dict(json.loads(json.dumps(record_to_dict(record)))) == record  # as the club DB has it


def test_an_undo_of_other_inputs_withdraws_no_foul(store):
    """Only the device's fouls among the undone inputs are withdrawn fouls:
    an undone nomination or a host's foul is not one."""
    from engine import Foul, Nominate
    from engine.presets import get_preset
    from host_device.store.games import GameRow

    simulate(load_script(FULL), one_second, store=store)
    inputs = list(store.games.inputs(1))
    undone = [(8.5, 0.0, Nominate(seat=2, target=7)), (8.6, 0.0, Foul(seat=4))]
    row = GameRow(1, "2026-12-01T20:00:00", "classic", "host", None, None, 1)
    record = build_record(row, get_preset("classic"), inputs, undone=undone)  # type: ignore[arg-type]
    assert record.fouls == ()


def test_a_record_sent_before_issue_45_reads_its_fouls_without_what_was_heard():
    from host_device.club.record import FoulRecord
    from host_device.club.record_json import record_from_dict, record_to_dict
    from tests.helpers.club import game_record

    record = game_record()
    data = record_to_dict(record)
    data["fouls"] = [{"seat": 2, "day": 1, "by": "device", "word": "честно", "at": 80.0}]
    (foul,) = record_from_dict(data).fouls
    assert foul == FoulRecord(2, 1, "device", "честно", 80.0)
    assert (foul.heard, foul.confidence, foul.speech_s, foul.withdrawn) == ("", (), None, False)
