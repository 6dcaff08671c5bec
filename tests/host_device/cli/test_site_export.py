"""``players link NAME --mafiaratings ID --mwt ID --polemica ID`` (kept in the
store: migration 7) and ``games export --format mafiaratings | mwt | polemica``
(one game, --all, --date, --tournament): the site's players named by their ids,
one Russian line a game on stderr naming what the format cannot carry and each
player without an id there (counted, never dropped)."""

import json

import pytest

from host_device.cli.main import main
from host_device.club.protocol import local_day
from host_device.store import SCHEMA_VERSION, Store
from tests.helpers.paths import ROOT

FULL = ROOT / "examples" / "classic-full-game.json"
CITY = ROOT / "examples" / "city-game.json"


def run(capsys, path, *args):
    code = main([*args, "--store", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def path(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0
    store = Store(path)
    for seat, name in ((1, "Аня"), (2, "Борис"), (3, "Вера")):
        store.roster.seat_by_name(1, seat, name)
    store.close()
    capsys.readouterr()
    return path


def test_link_keeps_a_players_site_ids_and_an_empty_one_unlinks(path, capsys):
    code, out, _ = run(capsys, path, "players", "link", "Аня", "--mafiaratings", "4321", "--polemica", "77")
    assert code == 0 and out.startswith("игрок Аня (") and "mafiaratings — 4321, polemica — 77" in out
    store = Store(path)
    try:
        anya = store.roster.player("Аня").id
        assert store.roster.site_ids("mafiaratings") == {anya: "4321"}
        assert store.roster.site_ids("polemica") == {anya: "77"} and store.roster.site_ids("mwt") == {}
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
    finally:
        store.close()
    code, out, _ = run(capsys, path, "players", "link", "Аня", "--polemica", "")
    assert code == 0 and "polemica — снят" in out
    code, _, err = run(capsys, path, "players", "link", "Аня")
    assert code != 0 and "укажите хотя бы один сайт" in err


def test_a_merged_entrys_id_counts_for_the_one_kept(path, capsys):
    run(capsys, path, "players", "add", "Анна")
    run(capsys, path, "players", "link", "Анна", "--mwt", "9")
    run(capsys, path, "players", "merge", "Аня", "Анна")
    store = Store(path)
    try:
        assert store.roster.site_ids("mwt") == {store.roster.player("Аня").id: "9"}
    finally:
        store.close()


def test_export_names_the_sites_players_and_says_who_has_no_id(path, capsys):
    run(capsys, path, "players", "link", "Аня", "--mafiaratings", "4321")
    code, out, err = run(capsys, path, "games", "export", "1", "--format", "mafiaratings")
    assert code == 0
    data = json.loads(out)
    assert data["players"][0] == {**data["players"][0], "id": 4321, "name": "Аня"}
    assert data["players"][1]["name"] == "Борис" and "id" not in data["players"][1]
    line = err.strip()
    assert len(err.splitlines()) == 1 and line.startswith(
        "host-device: игра 1 → mafiaratings: не переносится: "
    )
    assert "без id на сайте: 9 (Борис, Вера, место 4," in line and "Аня" not in line
    assert "host-device players link ИМЯ --mafiaratings ID" in line


@pytest.mark.parametrize("site", ["mafiaratings", "mwt", "polemica"])
def test_each_format_to_a_file_for_an_evening(path, tmp_path, capsys, site):
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0
    store = Store(path)
    day = local_day(store.games.game(1).started_at)
    store.close()
    capsys.readouterr()
    target = tmp_path / "out.json"
    code, out, err = run(
        capsys, path, "games", "export", "--date", day, "--format", site, "--to", str(target)
    )
    assert code == 0 and out == ""
    assert len(json.loads(target.read_text("utf-8"))) == 2
    assert [line.split(":")[1].strip() for line in err.splitlines()] == [
        f"игра 1 → {site}",
        f"игра 2 → {site}",
    ]


def test_a_game_the_format_cannot_hold_is_refused_or_left_out(path, capsys):
    assert main(["simulate", str(CITY), "--store", str(path)]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, path, "games", "export", "2", "--format", "polemica")
    assert code != 0 and "только спортивная игра на десять мест" in err
    code, out, err = run(capsys, path, "games", "export", "--all", "--format", "polemica")
    assert code == 0 and len(json.loads(out)) == 1
    assert "не выгружена: игра 2" in err and "выгружено игр: 1; не выгружено: 1" in err


def test_date_and_tournament_are_for_the_sites_formats(path, capsys):
    code, _, err = run(capsys, path, "games", "export", "1", "--date", "2026-01-01")
    assert code != 0 and "--date и --tournament — для форматов сайтов" in err
    code, _, err = run(capsys, path, "games", "export", "--date", "2001-01-01", "--format", "mwt")
    assert code != 0 and "в этот день игр не было" in err


def test_a_tournaments_games(path, capsys):
    assert main(["simulate", str(FULL), "--store", str(path)]) == 0  # game 2: not the tournament's
    store = Store(path)
    try:
        tid = store.tournaments.create("Кубок", 2, 1, [], [])
        store.tournaments.link_game(1, tid, 1, 1)
    finally:
        store.close()
    capsys.readouterr()
    code, out, err = run(capsys, path, "games", "export", "--tournament", "Кубок", "--format", "mwt")
    assert code == 0 and len(json.loads(out)) == 1 and err.startswith("host-device: игра 1 → mwt:")
    code, _, err = run(capsys, path, "games", "export", "--tournament", "Нет такого", "--format", "mwt")
    assert code != 0 and "Нет такого" in err
