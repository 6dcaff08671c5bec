"""``host-device players stats NAME`` prints a player's figures in Russian."""

import pytest

from host_device.cli.main import main
from host_device.store import Store
from tests.helpers.paths import ROOT

FULL = ROOT / "examples" / "classic-full-game.json"


@pytest.fixture
def path(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    for _ in range(2):
        assert main(["simulate", str(FULL), "--store", str(path)]) == 0
    store = Store(path)
    for game in (1, 2):
        for seat, name in ((4, "Аня"), (3, "Боря"), (6, "Вера")):
            store.roster.seat_by_name(game, seat, name)
    store.roster.set_extra(2, 4, 0.2)
    store.roster.add_player("Гоша")  # in the roster, no games yet
    store.close()
    capsys.readouterr()
    return path


def test_a_players_figures(path, capsys):
    assert main(["players", "stats", "аня", "--store", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    # the full game twice: seat 4 is a civilian, red wins; he votes for 3 on day 1 and for 5
    # twice on day 2 (both black); no fouls, no best move (the example's victim made none)
    # rating: game 1 red (Аня, Вера) 1000 against black (Боря) 1000: E 0.5, +10 -> 1010;
    # game 2: red 1010 against 990: E = 1 / (1 + 10^(-20/400)) = 0.52875, +9.425 -> 1019.4
    assert out == [
        "Аня: игр 2, побед 2 из 2 (100\u00a0%)",
        "  мирный житель: игр 2, побед 2",
        "Очки: 2,2 (в среднем 1,1 за игру)",
        "Рейтинг: 1019,4 (место 1 из 3)",
        "Лучший ход: не было",
        "Убит первым: 0",
        "Замечания: 0; дисквалификаций: 0",
        "Голоса против чёрных: 6 из 6 (100\u00a0%); когда играл красным: 6 из 6 (100\u00a0%)",
    ]


def test_the_don_s_votes_are_not_counted_as_red(path, capsys):
    assert main(["players", "stats", "Боря", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert "  Дон: игр 2, побед 0" in out and "место 3 из 3" in out
    assert "когда играл красным: нет" in out  # the Don never played red


def test_a_player_without_games(path, capsys):
    assert main(["players", "stats", "гоша", "--store", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Гоша: игр 0, побед нет" and "Рейтинг: нет (ни одной оконченной игры)" in out


def test_an_unknown_name_is_one_line(path, capsys):
    assert main(["players", "stats", "Дима", "--store", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "игрок «Дима»: нет в списке клуба" in err
