"""``games show``: each foul with its day, who gave it, the word and what
the device heard (the sentence, a confidence a word, the moment in the
speech); the device's withdrawn fouls listed as such (issue 45)."""

import pytest

from host_device.cli.main import main
from host_device.store import Store
from tests.helpers.fouls import game_with_fouls


def test_games_show_lists_each_foul_with_what_the_device_heard_and_the_withdrawn_one(
    tmp_path, capsys, builtin_pack
):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    gid = game_with_fouls(store)
    store.close()
    capsys.readouterr()
    assert main(["games", "show", str(gid), "--store", str(path)]) == 0
    shown = capsys.readouterr().out.splitlines()
    fouls = [line for line in shown if "замечание игроку" in line]
    assert fouls == [
        "День 1: замечание игроку 2 (1-е) — устройство: «честно»; "
        "услышано: «честно (0,91) говоря (0,80) я (0,99) за (0,95) пятого (0,90)», на 0:42 речи",
        "День 1: замечание игроку 4 (1-е) — ведущий",
        "День 1: снято с пульта замечание игроку 2 — устройство: «клянусь»; "
        "услышано: «клянусь (0,93) я (0,88) мирный (0,97)», на 0:12 речи",
    ]
    assert "Отменено ведущим: записей 1 (в ходе игры они не учтены)" in shown


@pytest.fixture
def full_game(tmp_path, builtin_pack):
    """A store holding the example full game (game 1, red wins on day 3, no foul)."""
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from tests.helpers.paths import ROOT
    from tests.helpers.store import one_second

    path = tmp_path / "s.sqlite3"
    store = Store(path)
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    store.close()
    return path


def test_games_show_of_a_game_with_no_fouls_names_none(full_game, capsys):
    path = full_game
    capsys.readouterr()
    assert main(["games", "show", "1", "--store", str(path)]) == 0
    assert "замечание" not in capsys.readouterr().out


def _seat_total(lines, seat):
    """A seat's total from `games show`'s «  4 — Имя: 1,3 (…)» line."""
    (line,) = [x for x in lines if x.startswith(f"  {seat}:") or x.startswith(f"  {seat} —")]
    return float(line.split(": ", 1)[1].split(" ", 1)[0].replace(",", "."))


def test_games_show_has_each_seats_points_with_the_extra_points_set_anywhere(full_game, tmp_path, capsys):
    """Issue 47: `games extra` was stored and in the protocol, but `games show` had no points at all."""
    from tests.helpers.store import almost_over

    path = full_game
    capsys.readouterr()
    assert main(["games", "show", "1", "--store", str(path)]) == 0
    before = capsys.readouterr().out.splitlines()
    assert "Баллы (таблица очков клуба):" in before
    assert main(["games", "extra", "1", "4", "0,3", "--store", str(path)]) == 0
    capsys.readouterr()
    assert main(["games", "show", "1", "--store", str(path)]) == 0
    after = capsys.readouterr().out.splitlines()
    assert round(_seat_total(after, 4) - _seat_total(before, 4), 6) == 0.3
    assert all(_seat_total(after, s) == _seat_total(before, s) for s in (1, 2, 3, 5, 6, 7, 8, 9, 10))
    assert any(x.startswith("  4") and "доп. 0,3" in x for x in after)
    # an unfinished game: its points are its result's secret; the host's extra points are his own
    gid = almost_over(tmp_path / "u.sqlite3")
    assert main(["games", "extra", str(gid), "2", "-0,2", "--store", str(tmp_path / "u.sqlite3")]) == 0
    capsys.readouterr()
    assert main(["games", "show", str(gid), "--roles", "--store", str(tmp_path / "u.sqlite3")]) == 0
    shown = capsys.readouterr().out
    assert "Доп. баллы ведущего: место 2: −0,2" in shown or "Доп. баллы ведущего: место 2: -0,2" in shown
    assert "Баллы (таблица" not in shown
