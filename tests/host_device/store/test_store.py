"""The game store: every input committed before its effect; the record commands."""

import csv
import io
import json
import re
import sqlite3

import pytest

from engine import Game
from host_device.cli.main import main
from host_device.scripts.play import play
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.store import SCHEMA_VERSION, Store, StoreError, record_runtime
from tests.helpers.paths import ROOT
from tests.helpers.store import one_second

FULL = ROOT / "examples" / "classic-full-game.json"


def test_a_simulated_game_is_stored_whole_and_replays(store):
    result, runtime = simulate(load_script(FULL), one_second, store=store)
    assert result["winner"] == "red"
    (row,) = store.games.all()
    assert (row.preset, row.mode, row.winner, row.days) == ("classic", "simulate", "red", 3)
    stored = [inp for _, _, inp in store.games.inputs(row.id)]
    assert tuple(stored) == runtime.game.record
    assert store.games.replay(row.id).state == runtime.game.state
    times = [t for _, t, _ in store.games.inputs(row.id)]
    assert times == sorted(times) and times[-1] > 100


def test_each_input_is_committed_before_its_effect(store, tmp_path):
    from engine import Advance, DealRoles, Role
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime

    runtime = Runtime(Game("classic"), Scheduler(), one_second)
    game_id = record_runtime(store.games, runtime, "host")
    seen = []

    def check(inp):  # runs after the store's commit, before the engine
        other = sqlite3.connect(store.path)  # another connection sees the committed row
        rows = other.execute("SELECT count(*) FROM inputs WHERE game = ?", (game_id,)).fetchone()[0]
        other.close()
        seen.append((rows, len(runtime.game.record)))

    runtime.before_input.append(check)
    runtime.handle(DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF))))
    runtime.handle(Advance())
    assert seen == [(1, 0), (2, 1)]
    from engine import Vote

    before = len(list(store.games.inputs(game_id)))
    assert not runtime.handle(Vote(seat=1))  # refused inputs are not recorded
    assert len(list(store.games.inputs(game_id))) == before


def simulate_into(path):
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0


def test_games_list_show_and_check(tmp_path, capsys, builtin_pack):
    path = tmp_path / "s.sqlite3"
    simulate_into(path)
    capsys.readouterr()
    assert main(["games", "list", "--store", str(path)]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split() == ["№", "начата", "правила", "режим", "итог", "дней"]
    assert re.fullmatch(r"1  \d{4}-\d\d-\d\d \d\d:\d\d  классика  симуляция  победа мирных  3", row)
    assert main(["games", "show", "1", "--store", str(path)]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("Игра: классика, 10 игроков\n")
    assert "Рассадка и роли: 3 — Дон, 5 — мафия, 6 — Шериф, 8 — мафия; остальные — мирные жители" in shown
    assert "День 1: кандидаты — 3 и 5" in shown
    assert "День 1, голосование: за 3 — 6 (1, 2, 4, 6, 7, 9); за 5 — 4 (не голосовали — 4)" in shown
    assert "День 2: голоса разделились поровну — 5 и 8" in shown
    assert "День 2, переголосование: за 5 — 5 (2, 4, 6, 7, 9)" in shown
    assert "Ночь 1: проверка Дона (игрок 3)" not in shown  # the Don was voted out on day 1
    assert "Ночь 1: проверка Шерифа (игрок 6) — игрок 5: да" in shown
    assert (
        "Игрок 1 покидает игру: ночь 1, убит" in shown
        and "Победа мирных жителей\nБаллы (таблица очков клуба):" in shown
    )
    assert not re.search(r"\b(main|revote|don|sheriff|mafia|red|black)\b", shown)  # Russian throughout
    assert main(["games", "check", "--store", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "игра 1: в порядке"


def test_export_json_round_trips_through_replay(tmp_path, capsys, builtin_pack):
    path = tmp_path / "s.sqlite3"
    simulate_into(path)
    out = tmp_path / "g.json"
    assert main(["games", "export", "1", "--store", str(path), "--to", str(out)]) == 0
    data = json.loads(out.read_text("utf-8"))
    expected = play(load_script(FULL))
    assert {k: data[k] for k in ("winner", "days", "out", "checks", "candidates")} == {
        k: expected[k] for k in ("winner", "days", "out", "checks", "candidates")
    }
    from engine.serial import input_from_dict

    game = Game.replay(data["preset"], [input_from_dict(d) for d in data["inputs"]])
    assert game.state.winner.value == "red" and data["events"]
    capsys.readouterr()
    assert main(["games", "export", "--all", "--format", "csv", "--store", str(path)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0])[:10] == [
        "game",
        "preset",
        "winner",
        "roles",
        "seq",
        "t",
        "type",
        "seat",
        "target",
        "count",
    ]
    assert {(r["game"], r["preset"], r["winner"], r["roles"]) for r in rows} == {
        ("1", "classic", "red", "3=don 5=mafia 6=sheriff 8=mafia")
    }
    assert rows[0]["type"] == "deal_roles" and rows[0]["seq"] == "1"
    assert [r["type"] for r in rows[-10:]] == ["points"] * 10  # the finished game's points, a row a seat
    rows = [r for r in rows if r["type"] != "points"]
    assert all(re.fullmatch(r"\d+\.\d", r["t"]) for r in rows)  # to a tenth of a second
    assert [r["t"] for r in rows] == sorted((r["t"] for r in rows), key=float)


def test_a_tampered_game_is_caught(tmp_path, capsys, builtin_pack):
    path = tmp_path / "s.sqlite3"
    simulate_into(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE inputs SET input = ? WHERE game = 1 AND seq = 20", ('{"type": "vote", "seat": 1}',))
    db.commit()
    db.close()
    capsys.readouterr()
    assert main(["games", "check", "--store", str(path)]) == 1
    assert "игра 1: не воспроизводится: phase" in capsys.readouterr().out
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET winner = 'black'")
    db.execute("DELETE FROM inputs WHERE seq = 20")
    db.execute("INSERT INTO inputs SELECT game, 20, t, input, undone FROM inputs WHERE seq = 19")
    db.commit()
    db.close()
    assert main(["games", "check", "--store", str(path)]) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["games", "show", "7"], "игры 7 нет в хранилище; см.: host-device games list"),
        (["games", "export"], "укажите номер игры или --all"),
    ],
)
def test_bad_requests_are_one_line(tmp_path, capsys, args, message, builtin_pack):
    path = tmp_path / "s.sqlite3"
    simulate_into(path)
    capsys.readouterr()
    assert main([*args, "--store", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_export_to_a_path_that_cannot_be_written(tmp_path, capsys, builtin_pack):
    path = tmp_path / "s.sqlite3"
    simulate_into(path)
    assert (
        main(["games", "export", "1", "--store", str(path), "--to", str(tmp_path / "no" / "such" / "x.json")])
        == 2
    )
    assert "не удалось записать выгрузку" in capsys.readouterr().err


def test_a_corrupt_store_is_moved_aside_and_a_new_one_started(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    store = Store(path)
    assert store.moved_aside is not None and store.moved_aside.read_bytes().startswith(b"this is not")
    assert store.games.all() == []
    store.close()
    assert main(["games", "list", "--store", str(tmp_path / "none.sqlite3")]) == 2
    assert "здесь нет хранилища игр" in capsys.readouterr().err


def test_a_store_of_schema_1_is_migrated_and_undone_inputs_are_kept(tmp_path):
    from host_device.store import MIGRATIONS

    path = tmp_path / "s.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[1])
    db.execute("PRAGMA user_version=1")
    db.execute(
        "INSERT INTO games (started_at, preset, mode) VALUES ('2026-11-01T10:00:00+00:00', 'classic', 'host')"
    )
    for seq in (1, 2, 3):
        db.execute('INSERT INTO inputs VALUES (1, ?, 0.0, \'{"type": "advance"}\')', (seq,))
    db.commit()
    db.close()
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert len(list(store.games.inputs(1))) == 3
    assert store.games.undo(1, keep=1) == 2
    assert [seq for seq, _, _ in store.games.inputs(1)] == [1]
    assert store.db.execute("SELECT count(*) FROM inputs WHERE undone = 1").fetchone()[0] == 2
    assert store.games.last_seq(1) == 3  # new inputs are numbered after the undone ones
    assert store.games.undo(1, keep=1) == 0


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "s.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(StoreError, match="записано более новым host-device"):
        Store(path)


def test_a_negative_schema_number_is_damage_moved_aside(tmp_path):
    """A damaged header can carry any 32-bit number; a negative one used to be a KeyError."""
    path = tmp_path / "s.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.execute("PRAGMA user_version=-2147483644")
    db.close()
    store = Store(path)
    assert store.moved_aside is not None and store.games.all() == []
    store.close()


def test_players_seated_at_the_start_or_later(tmp_path, capsys, builtin_pack):
    path = tmp_path / "s.sqlite3"
    simulate_into(path)
    capsys.readouterr()
    assert main(["games", "seat", "1", "3", "Антон", "--store", str(path)]) == 0
    assert "игра 1, место 3: Антон (новый игрок, добавлен в список клуба)" in capsys.readouterr().out
    assert main(["games", "seat", "1", "10", "Вера", "--store", str(path)]) == 0
    assert main(["games", "seat", "1", "5", "антон", "--store", str(path)]) == 0  # the roster's Антон moves
    assert "игра 1, место 5: Антон; место 3 освобождено" in capsys.readouterr().out
    assert main(["games", "show", "1", "--store", str(path)]) == 0
    assert "Игроки: 5 — Антон, 10 — Вера" in capsys.readouterr().out
    assert main(["games", "seat", "1", "10", "-", "--store", str(path)]) == 0  # removed
    assert capsys.readouterr().out == "игра 1, место 10: имя убрано\n"
    assert main(["games", "export", "1", "--store", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["names"] == {"5": "Антон"}
    assert main(["games", "seat", "1", "11", "X", "--store", str(path)]) == 2
    assert "место 11: в этой игре (классика) места 1..10" in capsys.readouterr().err


def test_games_list_shows_the_day_an_unfinished_game_reached_and_marks_trials(tmp_path, capsys, builtin_pack):
    from host_device.store import Store

    path = tmp_path / "s.sqlite3"
    assert main(["simulate", str(ROOT / "examples" / "classic-game.json"), "--store", str(path)]) == 0
    store = Store(path, create=True)
    store.games.new_game("classic", "host", {"trial_days": 1})
    store.close()
    capsys.readouterr()
    assert main(["games", "list", "--store", str(path)]) == 0
    _, simulated, trial = capsys.readouterr().out.splitlines()
    assert re.search(r"  симуляция +не окончена +2$", simulated)  # it reached day 2 (not «0 дн.»)
    assert re.search(r"  автоведущий \(проба\) +не окончена +0$", trial)


def test_the_protocol_names_an_all_leave_round_and_a_day_without_candidates(tmp_path, capsys, builtin_pack):
    path = tmp_path / "s.sqlite3"
    scenario = ROOT / "tests" / "scenarios" / "classic_fouls_and_all_leave.json"
    quiet = tmp_path / "quiet.json"
    quiet.write_text(
        json.dumps({"roles": {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}, "days": [{}]})
    )
    for script in (scenario, quiet):
        assert main(["simulate", str(script), "--store", str(path)]) == 0
    capsys.readouterr()
    assert main(["games", "show", "1", "--roles", "--store", str(path)]) == 0  # the scenario ends early
    shown = capsys.readouterr().out
    assert "День 1, все голосуемые покидают игру?: за — 6 (1, 3, 5, 6, 7, 9)" in shown
    assert "День 1, переголосование: за 2 — 5 (1, 3, 5, 7, 9); за 4 — 5 (не голосовали — 5)" in shown
    assert "Игрок 9 покидает игру: день 2, удалён" in shown
    assert main(["games", "show", "2", "--roles", "--store", str(path)]) == 0  # unfinished: the host's
    assert "День 1: никто не выставлен" in capsys.readouterr().out


def test_the_store_is_composed_of_its_parts_not_a_chain_of_classes(store):
    """No class of the store folder derives from a class of another of its
    modules: a Store holds its games, roster and outbox; they share one connection."""
    import ast

    folder = ROOT / "host_device" / "store"
    derived = []
    for module in sorted(folder.glob("*.py")):
        tree = ast.parse(module.read_text("utf-8"))
        theirs = {  # names imported from the store's other modules
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("host_device.store.")
            for alias in node.names
        }
        derived += [
            f"{module.name}: {node.name}({base.id})"
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            for base in node.bases
            if isinstance(base, ast.Name) and base.id in theirs
        ]
    assert derived == []
    assert store.games.connection is store.roster.connection is store.outbox.connection is store.connection
