"""``host-device tournament`` (host_device/cli/tournament.py): a tournament of
20 players from the roster, seated, two games played as round 1's tables,
the standings as worked out by hand, the exports, and bad input in one line."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from host_device.cli.main import main
from host_device.store import Store
from tests.helpers.outbox import finished_games

NAMES = [f"Игрок {k:02d}" for k in range(1, 21)]


def run(capsys: Any, path: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--store", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def club(tmp_path: Path) -> Path:
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    for name in NAMES:
        store.roster.add_player(name)
    store.roster.add_player("=HYPERLINK(1)")  # a name a spreadsheet would run
    store.close()
    return path


def seating_of(capsys: Any, path: Path, round_no: int) -> list[list[str]]:
    """Round ``round_no`` as `tournament show` prints it: each table a heading
    («  Стол T»), then its seats in columns («SEAT  NAME», two spaces apart)."""
    code, out, _ = run(capsys, path, "tournament", "show", "Кубок", "--round", str(round_no))
    assert code == 0 and out.startswith(f"Тур {round_no}\n")
    tables: list[dict[int, str]] = []
    for line in out.splitlines()[1:]:
        if line.strip().startswith("Не играют"):
            break  # the round's last line (wrapped, perhaps)
        if line.strip().startswith("Стол"):
            assert line.strip() == f"Стол {len(tables) + 1}"
            tables.append({})
            continue
        cells = re.split(r" {2,}", line.strip())  # a name has single spaces only (the roster collapses them)
        for seat, name in zip(cells[::2], cells[1::2], strict=True):
            tables[-1][int(seat)] = name
    assert all(sorted(t) == list(range(1, 11)) for t in tables), out
    return [[t[s] for s in sorted(t)] for t in tables]


def test_create_show_play_and_rank(club: Path, capsys: Any) -> None:
    code, out, _ = run(
        capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "4", "--apart", "Игрок 01,Игрок 02"
    )
    assert code == 0 and "игроков 20, столов 2, туров 4" in out, _
    for r in range(1, 5):
        tables = seating_of(capsys, club, r)
        assert len(tables) == 2 and sorted(tables[0] + tables[1]) == NAMES
        assert not any({"Игрок 01", "Игрок 02"} <= set(t) for t in tables)  # kept apart
    first = seating_of(capsys, club, 1)
    store = Store(club)
    games = finished_games(store, 2)  # the classic full game: red wins; seat 1 shot on night 1
    store.close()  # (best move 3 black), seat 6 the sheriff, seats 3, 5, 8 black
    for table, game in enumerate(games, 1):
        code, out, _ = run(
            capsys, club, "tournament", "game", "Кубок", str(game), "--round", "1", "--table", str(table)
        )
        assert code == 0 and f"Стол {table} · игра 1" in out
    store = Store(club)
    assert [p.name for _s, p in sorted(store.roster.seating(games[0]).items())] == first[0]
    store.roster.set_extra(games[0], 2, 0.3)
    store.close()
    code, out, _ = run(capsys, club, "tournament", "standings", "Кубок")
    assert code == 0 and "по таблице очков клуба" in out
    assert "1,3" in out and not re.search(r"\d\.\d", out)  # the club's one number style: a comma
    # by hand, fiim.toml: seat 1 of each table 1 + 0.5 (tie: same tiebreakers -> place 1 both);
    # table 1 seat 2 1 + 0.3 extra -> 3; the sheriffs (seat 6) 1, one special win -> 4 both;
    # the other red winners (seats 2, 4, 7, 9, 10; table 1's seat 2 ranked already) 1 -> 6;
    # the black seats 0 -> 15
    expected = {first[0][0]: 1, first[1][0]: 1, first[0][1]: 3, first[0][5]: 4, first[1][5]: 4}
    for t in (0, 1):
        for s in (1, 3, 6, 8, 9):
            expected.setdefault(first[t][s], 6)
        for s in (2, 4, 7):
            expected[first[t][s]] = 15
    got = {}
    for line in out.splitlines()[2:]:
        place, rest = line.split(maxsplit=1)
        got[next(n for n in NAMES if rest.startswith(n))] = int(place)
    assert got == expected


def test_exports_csv_and_json(club: Path, capsys: Any, tmp_path: Path) -> None:
    players = [*NAMES[:9], "=HYPERLINK(1)", *NAMES[9:19]]
    run(capsys, club, "tournament", "create", "Кубок", *players, "--rounds", "2")
    code, out, _ = run(capsys, club, "tournament", "export", "Кубок", "--what", "seating")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["тур", "стол", "место", "игрок", "id"] and len(rows) == 41
    assert any(r[3] == "'=HYPERLINK(1)" for r in rows)  # made harmless
    target = tmp_path / "t.json"
    code, out, _ = run(capsys, club, "tournament", "export", "Кубок", "--format", "json", "-o", str(target))
    data = json.loads(target.read_text("utf-8"))
    assert code == 0 and data["rating"] == "по таблице очков клуба" and data["rows"] == []


def test_a_regeneration_keeps_the_round_played(club: Path, capsys: Any) -> None:
    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    before = [seating_of(capsys, club, r) for r in (1, 2, 3)]
    store = Store(club)
    (game,) = finished_games(store, 1)
    store.roster.add_player("Новичок")
    store.close()
    run(capsys, club, "tournament", "game", "Кубок", str(game), "--round", "1", "--table", "1")
    code, out, _ = run(
        capsys, club, "tournament", "seat", "Кубок", "--leave", "Игрок 05", "--join", "Новичок"
    )
    assert code == 0 and "тур 1 сыгран или начат и не тронут" in out
    assert seating_of(capsys, club, 1) == before[0]
    later = seating_of(capsys, club, 2)
    names = later[0] + later[1]
    assert "Новичок" in names and "Игрок 05" not in names
    store = Store(club)
    (last,) = finished_games(store, 1)
    store.close()
    run(capsys, club, "tournament", "game", "Кубок", str(last), "--round", "3", "--table", "1")
    code, out, _ = run(capsys, club, "tournament", "seat", "Кубок")
    assert code == 0 and "туры 1–3 сыграны или начаты и не тронуты; пересаживать нечего" in out, out


def long_names(store: Store, size: int, count: int) -> list[str]:
    """``count`` players of names ``size`` characters long, added to the roster."""
    names = [
        f"Игрок {k:02d} Александрова-Константинопольская-Вишневецкая"[:size] for k in range(1, count + 1)
    ]
    for name in names:
        store.roster.add_player(name)
    return names


def shown_lines(capsys: Any, path: Path) -> list[str]:
    code, out, _ = run(capsys, path, "tournament", "show", "Кубок")
    assert code == 0
    return out.splitlines()


def test_show_fits_an_80_column_terminal_with_20_character_names(tmp_path: Path, capsys: Any) -> None:
    """The bug: each table on one line of its ten seats (130 characters for
    «Игрок 01»), wrapped by the terminal in the middle of a name."""
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    names = long_names(store, 20, 25)  # 25: five sit out each round, their line wrapped too
    store.close()
    run(capsys, path, "tournament", "create", "Кубок", *names, "--rounds", "3")
    lines = shown_lines(capsys, path)
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    assert lines[:2] == ["Тур 1", "  Стол 1"] and len(lines[2].split("  ")) > 2  # two seats a line
    for r in (1, 2, 3):
        tables = seating_of(capsys, path, r)
        seated = tables[0] + tables[1]
        assert len(set(seated)) == 20 and set(seated) <= set(names)
        _code, out, _ = run(capsys, path, "tournament", "show", "Кубок", "--round", str(r))
        byes = " ".join(out.split("Не играют в этом туре: ")[1].split())  # the wrapped lines joined
        assert sorted(byes.split(", ")) == sorted(set(names) - set(seated))  # no name cut in two


def test_show_puts_a_seat_a_line_when_two_columns_of_names_would_not_fit(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    names = long_names(store, 45, 10)
    store.close()
    run(capsys, path, "tournament", "create", "Кубок", *names, "--rounds", "1")
    lines = shown_lines(capsys, path)
    assert max(len(line) for line in lines) <= 80 and len(lines) == 2 + 10
    assert sorted(seating_of(capsys, path, 1)[0]) == names


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("tournament", "show", "Нет такого"), "турнира «Нет такого» нет; турниры: пока ни одного"),
        (
            ("tournament", "create", "К", *NAMES[:9], "--rounds", "3"),
            "игроков 9: для стола нужно не меньше 10",
        ),
        (
            ("tournament", "create", "К", *NAMES, "--rounds", "3", "--apart", "Игрок 01"),
            "два игрока через запятую",
        ),
        (("tournament", "create", "К", *NAMES, "--rounds", "0"), "число туров — целое число от 1 до 100"),
    ],
)
def test_bad_input_is_one_russian_line(club: Path, capsys: Any, args: tuple[str, ...], line: str) -> None:
    code, _out, err = run(capsys, club, *args)
    assert code != 0 and line in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_run_for_a_table_of_a_round_names_its_seats_from_the_seating(
    club: Path, capsys: Any, monkeypatch: Any, builtin_pack: Any
) -> None:
    import io

    from host_device.runtime.clock import VirtualClock
    from host_device.runtime.timeline import Said
    from host_device.session.host import Host
    from tests.helpers.host import args
    from voices.catalogue import russian

    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    table = seating_of(capsys, club, 3)[1]
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(club.parent / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(args(store=str(club), tournament=("Кубок", 2, 3)), clock=VirtualClock(limit=3600))
    assert host.run() == 0
    assert "Стол 2 · игра 3: турнир «Кубок», места названы по рассадке" in capsys.readouterr().out
    said = [e for e in host.runtime.timeline.entries if isinstance(e, Said)]
    first = [e.key for e in said][:3]
    assert first == ["game_starts", "tournament_table", "deal_roles"], first
    assert said[1].slot_values == {"seat": 2, "count": 3}
    assert russian().text("tournament_table", said[1].slot_values) == "Стол два, игра три."
    store = Store(club)
    (game,) = [g.id for g in store.games.all()]
    assert [p.name for _s, p in sorted(store.roster.seating(game).items())] == table
    assert store.tournaments.games(store.tournaments.get("Кубок").id) == [(game, 3, 2)]
    store.close()


def test_run_refuses_a_table_the_round_has_not_before_any_game(club: Path, capsys: Any) -> None:
    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    code = main(
        [
            "run",
            "--panel",
            "mock",
            "--audio",
            "null",
            "--store",
            str(club),
            "--tournament",
            "Кубок",
            "--table",
            "3",
            "--round",
            "1",
        ]
    )
    err = capsys.readouterr().err
    assert code != 0 and "стол 3: в туре 1 турнира «Кубок» столы 1–2" in err
    store = Store(club)
    assert store.games.all() == []  # nothing made
    store.close()
    code = main(["run", "--panel", "mock", "--audio", "null", "--store", str(club), "--tournament", "Кубок"])
    assert code != 0 and "--tournament, --table и --round — вместе" in capsys.readouterr().err


def test_the_venue_screen_shows_the_round_being_played_and_the_standings(club: Path, capsys: Any) -> None:
    from host_device.club.scoring import default_table
    from host_device.web.club_source import Source
    from host_device.web.venue_html import BadRound, Held, from_store, venue

    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    store = Store(club)
    (game,) = finished_games(store, 1)
    (started,) = finished_games(store, 1)
    store.close()
    run(capsys, club, "tournament", "game", "Кубок", str(game), "--round", "1", "--table", "2")
    first_round = seating_of(capsys, club, 1)
    records = Source(club).finished_among
    status, html = venue(from_store(str(club), "Кубок"), "", default_table(), records)
    assert status == 200 and "Тур 1 из 3" in html  # table 1 has not played round 1: still round 1
    shown = html.split("<h3>Стол 1</h3>")[1].split("</ol>")[0]
    assert [item.split("</b> ")[1] for item in shown.split("</li>")[:-1]] == first_round[0]
    # a round of the store's games is linked as it starts: round 2 begun at table 2 (while table 1 has
    # still not played round 1) is the round being played
    run(capsys, club, "tournament", "game", "Кубок", str(started), "--round", "2", "--table", "2")
    second = seating_of(capsys, club, 2)
    status, html = venue(from_store(str(club), "Кубок"), "", default_table(), Source(club).finished_among)
    assert status == 200 and "Тур 2 из 3" in html
    assert '<meta http-equiv="refresh" content="40">' in html  # read again after its two pages of 20 s
    for table, players in enumerate(second, 1):
        shown = html.split(f"<h3>Стол {table}</h3>")[1].split("</ol>")[0]
        assert [item.split("</b> ")[1] for item in shown.split("</li>")[:-1]] == players
    ranked = set(first_round[1]) | set(second[1])  # the players of the two games finished
    assert "по таблице очков клуба" in html and html.count("<tr>") == 1 + len(ranked)
    with pytest.raises(BadRound, match="тур 7: в турнире «Кубок» туры 1–3"):
        venue(from_store(str(club), "Кубок"), "7", default_table(), records)
    with pytest.raises(BadRound, match="тур ²: в турнире «Кубок» туры 1–3"):  # a digit, not an ASCII one
        venue(from_store(str(club), "Кубок"), "²", default_table(), records)
    assert html.index("<h3>Стол 1</h3>") < html.index("по таблице очков клуба")  # a table plays
    assert html.index('class="page seating"') < html.index('class="page ranks"')  # the seating first
    copy = Held("Кубок", [], [], [(1, 1, 2)], {})  # a box's copy: its own games, no seating
    with pytest.raises(BadRound, match="рассадки турнира «Кубок» здесь нет .только игры этого стола."):
        venue(copy, "", default_table(), records)


def test_between_rounds_the_venue_screen_switches_between_the_standings_and_the_next_seating(
    club: Path, capsys: Any
) -> None:
    from host_device.club.scoring import default_table
    from host_device.web.club_source import Source
    from host_device.web.venue_html import from_store, venue

    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "2")
    store = Store(club)
    games = finished_games(store, 4)
    store.close()
    for game, (r, t) in zip(games, [(1, 1), (1, 2), (2, 1), (2, 2)], strict=True):
        if r == 2:
            break
        run(capsys, club, "tournament", "game", "Кубок", str(game), "--round", str(r), "--table", str(t))
    records = Source(club).finished_among

    def screen(show: str = "", round_text: str = "") -> str:
        status, html = venue(from_store(str(club), "Кубок"), round_text, default_table(), records, show)
        assert status == 200
        return html

    def first(html: str) -> str:
        return "standings" if html.index('class="page ranks"') < html.index("<h3>Стол 1</h3>") else "seating"

    # round 1 over, round 2 not begun: the standings' page first, then the seating's, and again
    html = screen()
    assert first(html) == "standings" and "Таблица после тура 1" in html and "Тур 2 из 2" in html
    assert '<meta http-equiv="refresh" content="40">' in html  # each page 20 s, then read again
    assert first(screen("all")) == "standings" and 'class="venue all"' in screen("all")  # the whole page
    assert first(screen(round_text="1")) == "seating"  # a round asked for: its seating first
    # round 2 played at both tables: the final standings stay first
    for game, t in zip(games[2:], (1, 2), strict=True):
        run(capsys, club, "tournament", "game", "Кубок", str(game), "--round", "2", "--table", str(t))
    html = screen()
    assert first(html) == "standings" and "Итоговая таблица" in html and 'content="40">' in html


def test_print_writes_the_standings_the_round_by_table_and_every_players_places(
    club: Path, capsys: Any, tmp_path: Path
) -> None:
    from tests.helpers.pdf import read_pdf

    players = [*NAMES, "Новичок"]  # 21: one sits out each round
    store = Store(club)
    store.roster.add_player("Новичок")
    store.close()
    run(capsys, club, "tournament", "create", "Кубок", *players, "--rounds", "2")
    target = tmp_path / "t.pdf"
    code, out, _ = run(capsys, club, "tournament", "print", "Кубок", "-o", str(target), "--round", "2")
    assert code == 0 and out == f"записано: {target}\n"
    pages = read_pdf(target.read_bytes())
    assert len(pages) == 3  # the standings, round 2, the players
    assert "Кубок: таблица" in pages[0] and "по таблице очков клуба" in pages[0]
    second = seating_of(capsys, club, 2)
    assert "Кубок: тур 2" in pages[1] and "Стол 1" in pages[1] and "Стол 2" in pages[1]
    assert all(name in pages[1] for name in second[0] + second[1])
    out_of_it = next(p for p in players if p not in second[0] + second[1])
    assert f"Не играют в этом туре: {out_of_it}" in pages[1]
    assert "где сидит каждый" in pages[2] and all(p in pages[2] for p in players)
    code, _out, err = run(capsys, club, "tournament", "print", "Кубок", "-o", str(tmp_path / "no" / "x.pdf"))
    assert code != 0 and "файл не записан" in err


def test_a_new_seating_replays_no_game_for_the_club_pages(club: Path, capsys: Any) -> None:
    import sqlite3

    from host_device.web.club_source import signatures

    store = Store(club)
    finished_games(store, 1)
    store.close()
    db = sqlite3.connect(club)
    before = signatures(db)
    db.close()
    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "3")
    run(capsys, club, "tournament", "seat", "Кубок", "--leave", "Игрок 03")
    db = sqlite3.connect(club)
    assert signatures(db) == before  # what every record reads did not change
    db.close()


def test_standings_with_no_game_here_point_to_the_club_database(club: Path, capsys: Any) -> None:
    run(capsys, club, "tournament", "create", "Кубок", *NAMES, "--rounds", "2")
    code, out, _ = run(capsys, club, "tournament", "standings", "Кубок")
    assert code == 0 and "в этом хранилище пока нет сыгранных игр турнира" in out
    assert "tournament standings 'Кубок' --club-db" in out  # the boxes' games are there
