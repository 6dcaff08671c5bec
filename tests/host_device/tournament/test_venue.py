"""The venue screen's standings as the club pages' worker keeps them: only the
tournament's finished games are read, a game in progress not at all
(bench/standings.py measures it with 10,000 games)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host_device.cli.main import main
from host_device.store import Store
from host_device.web.club_render import _sources, render
from host_device.web.club_source import Source
from host_device.web.club_worker import store_state
from tests.helpers.outbox import finished_games
from tests.helpers.store import stopped_in

NAMES = [f"Игрок {k:02d}" for k in range(1, 21)]


def cli(capsys: Any, path: Path, *args: str) -> str:
    assert main([*args, "--store", str(path)]) == 0
    return str(capsys.readouterr().out)


def page(path: Path) -> str:
    status, html = render(str(path), store_state(path), "", "tournament", "Кубок", ())
    assert status == 200, html
    return html


def next_input(path: Path, game: int) -> None:
    """One more input of the game in progress (the next one of game 1, which it copies)."""
    store = Store(path)
    with store.connection.transaction("тест") as db:
        db.execute(
            "INSERT INTO inputs (game, seq, t, input, undone) SELECT ?, s.seq + 1, 0, i.input, 0 "
            "FROM (SELECT max(seq) AS seq FROM inputs WHERE game = ?) s, inputs i "
            "WHERE i.game = 1 AND i.seq = s.seq + 1",
            (game, game),
        )
    store.close()


def test_the_standings_read_the_finished_games_of_the_tournament_alone(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "s.sqlite3"
    playing, _game = stopped_in(path, lambda game: game.state.day == 2)  # game 1 finished, this one not
    store = Store(path)
    for name in NAMES:
        store.roster.add_player(name)
    (other,) = finished_games(store, 1)  # a finished game of no tournament
    (later,) = finished_games(store, 1)
    store.close()
    cli(capsys, path, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    cli(capsys, path, "tournament", "game", "Кубок", "1", "--round", "1", "--table", "1")
    cli(capsys, path, "tournament", "game", "Кубок", str(playing), "--round", "1", "--table", "2")
    _sources.clear()
    html = page(path)
    source = _sources[str(path)]
    assert isinstance(source, Source)
    assert source.replayed == 1  # game 1 alone: not the game in progress, not the game of no tournament
    assert html.count("<tr>") == 1 + 10  # its ten players ranked
    for _ in range(3):  # the night goes on at table 2: nothing of it is read again
        next_input(path, playing)
        assert page(path) == html and source.replayed == 1
    cli(capsys, path, "tournament", "game", "Кубок", str(later), "--round", "2", "--table", "1")
    html = page(path)
    assert source.replayed == 2 and other not in source.kept  # the new finished game, replayed once
    assert "Тур 2 из 3" in html  # round 2 begun, its table 2 not yet played: the round being played
