"""One game a table of a round (issue 51 item 2), in the box's store: a second
is refused in one line naming the first; an annulled game is kept, out of the
standings, marked «аннулирована» on the venue screen and on paper, and its
table of the round is free again; a game played as an ordinary one is linked
afterwards, finished and sent, and counts."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from host_device.store import Store
from host_device.tournament.sheets import round_page, standings_page
from tests.helpers.outbox import finished_games
from tests.host_device.tournament.test_cli import NAMES, run
from tests.host_device.tournament.test_venue import page


def cup(tmp_path: Path, capsys: Any, games: int) -> tuple[Path, list[int]]:
    """A store with twenty players, ``games`` finished games (none linked) and «Кубок» of 3 rounds."""
    box = tmp_path / "box.sqlite3"
    store = Store(box)
    for name in NAMES:
        store.roster.add_player(name)
    made = finished_games(store, games)
    store.close()
    assert run(capsys, box, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")[0] == 0
    return box, made


def link(capsys: Any, box: Path, game: int, round_no: int, table: int) -> tuple[int, str, str]:
    return run(
        capsys, box, "tournament", "game", "Кубок", str(game), "--round", str(round_no), "--table", str(table)
    )


def standings(capsys: Any, box: Path) -> str:
    code, out, err = run(capsys, box, "tournament", "standings", "Кубок")
    assert code == 0, err
    return out


def players_counted(capsys: Any, box: Path) -> int:
    """The players ranked: the standings' rows (after the title and the header; not the notes)."""
    lines = standings(capsys, box).splitlines()
    if len(lines) < 2 or not lines[1].lstrip().startswith("место"):
        return 0
    return sum(1 for line in lines[2:] if not line.startswith(("Аннулирована", "Не засчитана")))


def test_a_second_game_for_a_table_of_a_round_is_refused_naming_the_first(
    tmp_path: Path, capsys: Any
) -> None:
    box, (first, second) = cup(tmp_path, capsys, 2)
    assert link(capsys, box, first, 1, 1)[0] == 0
    code, _out, err = link(capsys, box, second, 1, 1)
    assert code != 0 and "\n" not in err.strip() and "Traceback" not in err
    assert f"игра {first}" in err and "стол" in err and "--annul" in err, err
    assert link(capsys, box, first, 1, 1)[0] == 0  # the same game again: not a second game
    assert link(capsys, box, second, 1, 2)[0] == 0  # another table: fine
    store = Store(box)
    assert sorted(store.tournaments.games(store.tournaments.get("Кубок").id)) == [
        (first, 1, 1),
        (second, 1, 2),
    ]
    store.close()
    assert players_counted(capsys, box) == 20


def test_annulled_the_game_is_kept_out_of_the_standings_marked_and_its_table_free(
    tmp_path: Path, capsys: Any
) -> None:
    box, (first, second, third) = cup(tmp_path, capsys, 3)
    assert link(capsys, box, first, 1, 1)[0] == 0
    assert link(capsys, box, second, 1, 2)[0] == 0
    assert players_counted(capsys, box) == 20
    code, out, err = run(capsys, box, "tournament", "game", "Кубок", str(second), "--annul")
    assert code == 0 and "аннулирована" in out, err
    assert players_counted(capsys, box) == 10  # table 2's players: no game counted
    text = standings(capsys, box)
    assert f"Аннулирована: игра {second} (стол 2, тур 1)" in text
    store = Store(box)
    assert store.games.game(second) is not None  # kept
    tid = store.tournaments.get("Кубок").id
    assert store.tournaments.annulled(tid) == [(second, 1, 2)]
    store.close()
    html = page(box)
    assert f"игра {second} аннулирована" in html and "аннулирована: не считается" in html
    assert "аннулирована" in standings_page("Кубок", ["игрок"], [], "x", [(second, 1, 2)]).notes[-1]
    tables = [[f"p{k}" for k in range(10)]] * 2
    assert round_page("Кубок", 1, tables, [], [(second, 1, 2)]).tables[1].title == (
        f"Стол 2 (игра {second} аннулирована)"
    )
    pdf = tmp_path / "cup.pdf"
    assert run(capsys, box, "tournament", "print", "Кубок", "-o", str(pdf))[0] == 0
    # the table of the round is free: a game played again takes it; the annulled one cannot come back
    assert link(capsys, box, third, 1, 2)[0] == 0
    assert players_counted(capsys, box) == 20
    code, _out, err = run(capsys, box, "tournament", "game", "Кубок", str(second), "--restore")
    assert code != 0 and f"игра {third}" in err and "\n" not in err.strip()
    assert run(capsys, box, "tournament", "game", "Кубок", str(third), "--annul")[0] == 0
    code, out, _err = run(capsys, box, "tournament", "game", "Кубок", str(second), "--restore")
    assert code == 0 and "снова считается" in out
    code, _out, err = run(capsys, box, "tournament", "game", "Кубок", str(first + 99), "--annul")
    assert code != 0 and "не привязана" in err and "\n" not in err.strip()


def test_a_game_played_as_an_ordinary_one_finished_and_sent_is_linked_afterwards(
    tmp_path: Path, capsys: Any
) -> None:
    box, (game,) = cup(tmp_path, capsys, 1)
    store = Store(box)
    ((waiting, digest),) = store.outbox.waiting()
    store.outbox.mark_sent(waiting, digest)
    assert store.outbox.waiting() == []
    store.close()
    assert players_counted(capsys, box) == 0
    code, out, err = link(capsys, box, game, 2, 1)
    assert code == 0 and "Стол 1 · игра 2" in out, err
    assert players_counted(capsys, box) == 10
    store = Store(box)
    assert [g for g, _d in store.outbox.waiting()] == [game]  # sent again, with its link
    assert store.tournaments.link_of(game) == ("Кубок", 2, 1)
    # a link that changes nothing else (its seats as they were) makes it wait for the club too
    ((waiting, digest),) = store.outbox.waiting()
    store.outbox.mark_sent(waiting, digest)
    store.tournaments.link_game(game, store.tournaments.get("Кубок").id, 3, 1)
    assert [g for g, _d in store.outbox.waiting()] == [game]
    store.close()


def test_an_unfinished_game_gives_its_table_to_the_game_that_plays_the_round_again(
    tmp_path: Path, capsys: Any
) -> None:
    box, (done,) = cup(tmp_path, capsys, 1)
    store = Store(box)
    store.db.execute("UPDATE games SET finished_at = NULL, winner = NULL WHERE id = ?", (done,))
    (again,) = finished_games(store, 1)
    store.close()
    assert link(capsys, box, done, 1, 1)[0] == 0
    code, out, err = link(capsys, box, again, 1, 1)
    assert code == 0 and f"незаконченная игра {done}" in out, err
    store = Store(box)
    tid = store.tournaments.get("Кубок").id
    assert store.tournaments.games(tid) == [(again, 1, 1)]
    assert store.tournaments.annulled(tid) == [(done, 1, 1)]
    store.close()


def test_a_store_with_two_games_at_a_table_of_a_round_keeps_the_first_finished(
    tmp_path: Path, capsys: Any
) -> None:
    """Migration 6: a store where the bug linked two games to one table of a round (version 5)."""
    box, (first, second) = cup(tmp_path, capsys, 2)
    assert link(capsys, box, first, 1, 1)[0] == 0
    db = sqlite3.connect(box, isolation_level=None)
    db.execute("DROP INDEX tournament_games_one_a_table")
    db.execute("ALTER TABLE tournament_games DROP COLUMN annulled_at")
    db.execute(
        "INSERT INTO tournament_games (game, tournament, round, tbl) SELECT ?, tournament, 1, 1 "
        "FROM tournament_games WHERE game = ?",
        (second, first),
    )
    db.execute("UPDATE games SET finished_at = NULL WHERE id = ?", (first,))  # the first unfinished
    db.execute("PRAGMA user_version = 5")
    db.close()
    store = Store(box)
    tid = store.tournaments.get("Кубок").id
    assert store.tournaments.games(tid) == [(second, 1, 1)]
    assert store.tournaments.annulled(tid) == [(first, 1, 1)]
    store.close()
