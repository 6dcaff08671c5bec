"""``host-device club send`` and ``club status`` (host_device/cli/club_outbox.py)
against a real PostgreSQL: what waits is sent and said, a fault is one
line with exit 1 and the games wait, status says what was sent, what was
refused and why, and the last error."""

import socket

import pytest

from host_device.cli.main import main
from host_device.clubdb.db import ClubDB
from host_device.store import Store
from tests.helpers import postgres
from tests.helpers.outbox import finished_games

postgres_server, fresh_database = postgres.postgres_server, postgres.fresh_database  # fixtures


def club(url):
    db = ClubDB.open(url)
    db.init()
    db.close()
    return url


def run(capsys, *args):
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def stored(path, count):
    store = Store(path)
    try:
        return finished_games(store, count)
    finally:
        store.close()


@pytest.mark.slow
def test_send_then_status(tmp_path, capsys, fresh_database):
    path = tmp_path / "games.sqlite3"
    url = club(fresh_database)
    stored(path, 3)
    code, out, _ = run(capsys, "club", "status", "--store", path)
    assert code == 0 and "ждут отправки: 3 (игры 1, 2, 3)" in out and "отправлено в базу клуба: 0" in out
    code, out, err = run(capsys, "club", "send", "--store", path, "--club-db", url)
    assert code == 0 and err == "" and "отправлено игр: 3 (новых 3)" in out and "secret" not in out
    code, out, _ = run(capsys, "club", "status", "--store", path)
    assert "ждут отправки: нет" in out and "отправлено в базу клуба: 3, последняя —" in out
    code, out, _ = run(capsys, "club", "send", "--store", path, "--club-db", url)
    assert code == 0 and out.strip() == "отправлять нечего: ни одна оконченная игра не ждёт отправки"
    code, out, _ = run(capsys, "club", "send", "--store", path, "--club-db", url, "--again")
    assert code == 0 and "отправлено игр: 3 (новых 0, уже были в базе 3)" in out


def test_the_config_names_the_database(tmp_path, capsys, fresh_database):
    path = tmp_path / "games.sqlite3"
    stored(path, 1)
    config = tmp_path / "host-device.toml"
    config.write_text(f'[club]\ndatabase = "{club(fresh_database)}"\n')
    code, out, _ = run(capsys, "club", "send", "--store", path, "--config", config)
    assert code == 0 and "отправлено игр: 1" in out


def test_an_unreachable_server_is_one_line_exit_1_and_the_games_wait(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    stored(path, 2)
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    code, out, err = run(
        capsys,
        "club",
        "send",
        "--store",
        path,
        "--club-db",
        f"postgresql://club:secret@127.0.0.1:{port}/club",
    )
    assert code == 1 and len(out.splitlines()) == 1 and "игр ждут отправки: 2" in out
    assert "secret" not in out + err and "Traceback" not in out + err
    code, out, _ = run(capsys, "club", "status", "--store", path)
    assert "ждут отправки: 2" in out and "последняя ошибка (" in out and "secret" not in out


def test_status_forgets_the_last_error_once_a_send_goes_through(tmp_path, capsys, fresh_database):
    path = tmp_path / "games.sqlite3"
    stored(path, 1)
    run(capsys, "club", "send", "--store", path, "--club-db", "postgresql://club:x@127.0.0.1:1/club")
    code, out, _ = run(capsys, "club", "send", "--store", path, "--club-db", club(fresh_database))
    assert code == 0 and "отправлено игр: 1" in out
    code, out, _ = run(capsys, "club", "status", "--store", path)
    assert "отправлено в базу клуба: 1" in out and "последняя ошибка" not in out


def test_a_wrong_password_and_a_bad_url_are_one_line(tmp_path, capsys, postgres_server, fresh_database):
    path = tmp_path / "games.sqlite3"
    stored(path, 1)
    name = club(fresh_database).rsplit("/", 1)[1]
    code, out, err = run(
        capsys, "club", "send", "--store", path, "--club-db", postgres_server.url(name, password="wrong-pw")
    )
    assert code == 1 and len(out.splitlines()) == 1 and "wrong-pw" not in out + err, (out, err)
    assert "игр ждут отправки: 1" in out
    for url in ("postgres:/nowhere", "http://club:wrong-pw@x/y"):  # mistyped: bad input, exit 2
        code, out, err = run(capsys, "club", "send", "--store", path, "--club-db", url)
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and "wrong-pw" not in err, (url, err)
        assert "нужен, например, postgresql://" in err
    store = Store(path)
    try:
        assert len(store.outbox.waiting()) == 1 and store.outbox.status().sent == 0
    finally:
        store.close()


def test_a_refused_game_is_in_status_with_its_reason(tmp_path, capsys, fresh_database):
    url = club(fresh_database)
    mine, theirs = tmp_path / "mine.sqlite3", tmp_path / "theirs.sqlite3"
    (game,) = stored(mine, 1)
    assert run(capsys, "club", "send", "--store", mine, "--club-db", url)[0] == 0
    store, other = Store(mine), Store(theirs)
    try:
        (copy,) = finished_games(other, 1)
        other.db.execute("UPDATE games SET uuid = ? WHERE id = ?", (store.games.game_uuid(game), copy))
        other.roster.set_extra(copy, 1, 0.5)
    finally:
        store.close()
        other.close()
    code, out, _ = run(capsys, "club", "send", "--store", theirs, "--club-db", url)
    assert code == 1 and f"игра {copy} не принята базой клуба: " in out
    reason = out.split("не принята базой клуба: ", 1)[1].strip()
    code, out, _ = run(capsys, "club", "status", "--store", theirs)
    assert code == 0 and f"не принята базой клуба: игра {copy} (" in out and reason in out
    assert "ждут отправки: нет" in out


def test_bad_input_is_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOST_DEVICE_CONFIG", "")
    path = tmp_path / "games.sqlite3"
    code, _, err = run(capsys, "club", "status", "--store", path)
    assert code == 2 and "здесь нет хранилища игр" in err
    stored(path, 1)
    code, _, err = run(capsys, "club", "send", "--store", path, "--config", tmp_path / "none.toml")
    assert code == 2 and "нет такого файла настроек" in err
    (tmp_path / "empty.toml").write_text("")
    code, _, err = run(capsys, "club", "send", "--store", path, "--config", tmp_path / "empty.toml")
    assert code == 2 and "не задана база клуба" in err and len(err.splitlines()) == 1
    empty = tmp_path / "empty.sqlite3"
    Store(empty).close()  # nothing waits there: the mistyped address is said all the same
    code, out, err = run(capsys, "club", "send", "--store", empty, "--club-db", "postgresql:/club")
    assert code == 2 and out == "" and "это не адрес PostgreSQL" in err and len(err.splitlines()) == 1
