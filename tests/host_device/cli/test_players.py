"""``host-device players add|rename|list|merge`` (host_device/cli/players.py):
the club's roster from the terminal, every bad input one Russian line."""

import re

from host_device.cli.main import main
from host_device.store import Store


def run(capsys, path, *args):
    code = main([*args, "--store", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_add_list_rename_merge(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    code, out, _ = run(capsys, path, "players", "list")
    assert code == 0 and "в списке клуба пока нет игроков" in out  # a roster may come before any game
    code, out, _ = run(capsys, path, "players", "add", "Анна Петрова", "--nickname", "Аня")
    assert code == 0 and re.fullmatch(r"добавлен игрок Анна Петрова \(Аня\), id [0-9a-f-]{36}\n", out)
    anna_id = out.split()[-1]
    code, out, _ = run(capsys, path, "players", "add", "анна петрова")
    assert f"в списке уже есть «анна петрова» ({anna_id[:8]})" in out  # added, and the merge suggested
    run(capsys, path, "players", "add", "Борис")
    code, out, _ = run(capsys, path, "players", "list")
    header, *rows = out.splitlines()
    assert header.split() == ["id", "имя", "ник"] and len(rows) == 3
    mine = next(r for r in rows if r.startswith(anna_id[:8]))
    assert mine.split()[1:] == ["Анна", "Петрова", "Аня"]
    code, out, _ = run(capsys, path, "players", "rename", "аня", "Анна Сидорова")
    assert code == 0 and out == f"игрок {anna_id[:8]}: теперь Анна Сидорова (Аня)\n"  # the nickname kept
    code, out, _ = run(capsys, path, "players", "rename", anna_id[:6], "Анна Сидорова", "--no-nickname")
    assert out.endswith("теперь Анна Сидорова\n")
    code, out, _ = run(capsys, path, "players", "merge", "Анна Сидорова", "анна петрова")
    assert code == 0 and out.endswith("объединены: все игры обеих теперь у «Анна Сидорова»\n")
    assert not re.search(r"\b(его|ему|её|ей|он|она|объединён|объединена)\b", out)  # of a woman or a man alike
    code, out, _ = run(capsys, path, "players", "list", "--full-ids")
    assert anna_id in out and len(out.splitlines()) == 3  # the merged entry is left out
    store = Store(path)
    assert [p.name for p in store.roster.players()] == ["Анна Сидорова", "Борис"]
    store.close()


def test_bad_input_is_one_line_with_exit_2(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    run(capsys, path, "players", "add", "Саша", "--nickname", "Белый")
    run(capsys, path, "players", "add", "Саша", "--nickname", "Чёрный")
    for args, words in (
        (("players", "rename", "Вера", "Вероника"), "игрок «Вера»: нет в списке клуба"),
        (("players", "rename", "Саша", "Александр"), "так в списке клуба зовут нескольких"),
        (("players", "merge", "Белый", "белый"), "уже один и тот же игрок"),
        (("players", "add", "   "), "имя игрока: пустое"),
        (("players", "add", "Вера", "--nickname", "я" * 61), "ник «"),
    ):
        code, out, err = run(capsys, path, *args)
        assert code == 2 and out == "", args
        assert len(err.strip().splitlines()) == 1 and words in err, err


def names_in(path):
    store = Store(path)
    try:
        return sorted(p.label for p in store.roster.players())
    finally:
        store.close()


def test_add_takes_several_names_and_leaves_out_those_the_roster_has(tmp_path, capsys):
    """The friction: a tournament's 20 players were 20 commands. Several names
    now: one line each, the ones the roster has (by name or nickname, a name
    given twice too) said and left out, the others added."""
    path = tmp_path / "s.sqlite3"
    run(capsys, path, "players", "add", "Анна Петрова", "--nickname", "Аня")
    code, out, err = run(capsys, path, "players", "add", "Борис", "Вера  Петрова", "аня", "борис", "Гриша")
    lines = out.splitlines()
    assert code == 0 and err == "" and len(lines) == 6, out
    assert [line.split(", id ")[0] for line in lines[:2] + lines[4:5]] == [
        "добавлен игрок Борис",
        "добавлен игрок Вера Петрова",  # spaces collapsed as for one name
        "добавлен игрок Гриша",
    ]
    anna = lines[2].split("(")[1].split(")")[0]
    boris = lines[0].split(", id ")[1][:8]
    assert lines[2] == f"уже в списке клуба: аня ({anna}), не добавлен"  # Анна Петрова's nickname
    assert lines[3] == f"уже в списке клуба: борис ({boris}), не добавлен"  # added a moment ago
    assert lines[5] == "другой человек с тем же именем: host-device players add ИМЯ --nickname ПРОЗВИЩЕ"
    assert names_in(path) == ["Анна Петрова (Аня)", "Борис", "Вера Петрова", "Гриша"]
    code, out, err = run(capsys, path, "players", "add", "Гриша", "ВЕРА ПЕТРОВА")
    assert code == 1 and err == "" and out.count("уже в списке клуба") == 2  # none added: exit 1
    assert len(names_in(path)) == 4


def test_add_with_several_names_refuses_a_nickname_or_a_bad_name_before_adding_any(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    for args, words in (
        (("Вера", "Гриша", "--nickname", "В"), "--nickname — только с одним именем"),
        (("Вера", "   ", "Гриша"), "имя игрока: пустое"),
        (("Вера", "я" * 61), "имя игрока «"),
    ):
        code, out, err = run(capsys, path, "players", "add", *args)
        assert code == 2 and out == "", args
        assert len(err.strip().splitlines()) == 1 and words in err, err
    assert names_in(path) == []


def test_games_extra_sets_the_hosts_extra_points_after_the_game(tmp_path, capsys):
    """The bug: only the console set them, and it was gone with the game: the protocol's «Доп.» stayed empty."""
    from host_device.club.build import record_of
    from host_device.club.protocol import game_page
    from host_device.club.scoring import load_table, points
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from tests.helpers.paths import ROOT
    from tests.helpers.store import one_second

    path = tmp_path / "s.sqlite3"
    store = Store(path)
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), one_second, store=store)
    store.roster.seat_by_name(1, 4, "Анна")
    store.close()
    code, out, _ = run(capsys, path, "games", "extra", "1", "4", "0,3")
    assert code == 0 and out == "игра 1, место 4 (Анна): доп. баллы +0,3\n"
    code, out, _ = run(capsys, path, "games", "extra", "1", "7", "-0,5")  # a club's comma, negative
    assert code == 0 and out == "игра 1, место 7: доп. баллы −0,5\n"
    store = Store(path)
    record = record_of(store, 1)
    assert dict(record.extras) == {4: 0.3, 7: -0.5}
    rows = {row[0]: row for row in game_page(record, points(record, load_table(None))).tables[0].rows}
    assert rows["4"][8] == "0,3" and rows["7"][8] == "−0,5"  # the form's «Доп.»
    store.close()
    code, out, err = run(capsys, path, "games", "extra", "1", "4", "1,5")
    assert code == 2 and err == "host-device: ошибка: доп. баллы 1,5: можно от -1,0 до +1,0 с шагом 0,1\n"
    code, out, err = run(capsys, path, "games", "extra", "1", "4", "много")
    assert code == 2 and err.count("\n") == 1 and "'много' — не доп. баллы" in err
    code, out, _ = run(capsys, path, "games", "extra", "1", "4", "0")
    assert code == 0 and out == "игра 1, место 4 (Анна): доп. баллы убраны\n"
    store = Store(path)
    assert dict(record_of(store, 1).extras) == {7: -0.5}
    store.close()


def test_players_list_writes_no_control_character_to_the_terminal(tmp_path, capsys):
    """Names from a seating file, the club's database or recovery, and names kept before the
    one door (host_device/base/names.py): the list is printable, one line a player."""
    import unicodedata
    import uuid

    path = tmp_path / "s.sqlite3"
    store = Store(path)
    hostile = ["\x1b[2J\x1b[31mАня", "\x1b]0;заголовок\x07Боря", "Вера\nВторая строка", "\u202eанД\u200b"]
    store.roster.import_players([(str(uuid.uuid4()), n, n, None, None) for n in hostile])
    store.db.execute(  # one kept raw before the door, with an id that is no UUID
        "INSERT INTO players (id, name, nickname, added_at) VALUES (?, ?, ?, '2026')",
        ("../../\x1b[2Jetc", "Гл\x1b]0;x\x07еб\n", "\x07"),
    )
    store.db.commit()
    store.close()
    for flag in ((), ("--full-ids",)):
        code, out, _ = run(capsys, path, "players", "list", *flag)
        assert code == 0 and len(out.splitlines()) == 1 + len(hostile) + 1
        assert all(unicodedata.category(c) not in ("Cc", "Cf") for c in out.replace("\n", ""))
