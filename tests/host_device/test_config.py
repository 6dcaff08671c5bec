"""The config file's [club] section (host_device/config.py): whether the
players' names are public during the game."""

import pytest

from host_device.config import ConfigError, load_config


def test_show_names_is_off_unless_the_club_turns_it_on(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[web]\nlisten = '8000'\n", encoding="utf-8")
    assert load_config(path).show_names is False
    path.write_text("[club]\nshow_names = true\n", encoding="utf-8")
    assert load_config(path).show_names is True and load_config(path).club_database is None
    path.write_text('[club]\ndatabase = "postgresql://club@db.local/club"\n', encoding="utf-8")
    assert load_config(path).club_database == "postgresql://club@db.local/club"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[club]\nshow_names = 'да'\n", "[club].show_names: true или false, а не 'да'"),
        (
            "[club]\nnames = true\n",
            "[club].names: нет такой настройки; настройки: database, scoring, show_names",
        ),
        ('[club]\ndatabase = "mysql://x"\n', "[club].database: адрес базы клуба, например"),
    ],
)
def test_a_bad_club_setting_is_one_clear_line(tmp_path, text, words):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        load_config(path)


def test_fouls_warn_by_default_and_the_club_sets_how_strict_and_how_sure(tmp_path):
    from host_device.config import FoulSettings, Strictness

    path = tmp_path / "c.toml"
    path.write_text("[web]\nlisten = '8000'\n", encoding="utf-8")
    assert load_config(path).fouls == FoulSettings(Strictness.WARN, None)
    path.write_text('[fouls]\nstrictness = "foul"\nconfidence = 0.8\n', encoding="utf-8")
    assert load_config(path).fouls == FoulSettings(Strictness.FOUL, 0.8)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[fouls]\nstrictness = "strict"\n', '[fouls].strictness: "off", "warn" или "foul", а не \'strict\''),
        ("[fouls]\nconfidence = 2\n", "[fouls].confidence: число от 0 до 1, например 0.9, а не 2"),
        ("[fouls]\nconfidence = true\n", "[fouls].confidence: число от 0 до 1"),
        ("[fouls]\nwords = 1\n", "[fouls].words: нет такой настройки; настройки: confidence, strictness"),
    ],
)
def test_a_bad_fouls_setting_is_one_clear_line(tmp_path, text, words):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        load_config(path)


@pytest.mark.parametrize(
    "raw", ["nan", "inf", "-inf", "+inf", "1e308", "-0.5", "1.5", "99999999999999999999"]
)
@pytest.mark.parametrize(
    ("section", "key", "where"),
    [
        ("ambience", "volume = %s", "[ambience].volume"),
        ("assist", "timers = [%s]", "[assist].timers"),
        ("city", "seats = %s", "[city]"),
        ("web", "seats = [%s]", "[web].seats"),
        ("audio", "microphone = %s", "[audio].microphone"),
    ],
)
def test_a_config_number_not_finite_or_out_of_range_is_one_line(tmp_path, section, key, where, raw):
    path = tmp_path / "c.toml"
    path.write_text(f"[{section}]\n{key % raw}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    message = str(refused.value)
    assert "\n" not in message and where in message and "Traceback" not in message


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("seats = 20", "[city]: seats = 20: «город» играют за столом от 6 до 16 мест"),
        ("seats = 8\nmafia = 0", "[city]: mafia = 0: нужна хотя бы одна мафия"),
        ("seats = 8\nmafia = 4", "[city]: mafia = 4 при 8 местах: мафии должно быть меньше, чем остальных"),
    ],
)
def test_a_city_table_the_rules_cannot_seat_is_one_russian_line(tmp_path, body, line):
    path = tmp_path / "c.toml"
    path.write_text(f"[city]\n{body}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == f"{path}: {line}"
