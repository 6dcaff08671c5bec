"""``card --to FILE.html|FILE.pdf``: the players' card, rendered."""

import re
from html.parser import HTMLParser

from engine import get_preset
from host_device.cli.main import main
from host_device.runtime.signals import ROLE_SIGNALS
from voices.forms import ROLE_WORDS


class Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)


def rendered(path):
    parser = Text()
    parser.feed(path.read_text("utf-8"))
    return " ".join(" ".join(parser.parts).split())


def test_the_card_names_each_roles_signal_and_how_to_nominate(tmp_path, capsys):
    from hardware.panel import PATTERN_WORDS as SIGNAL_WORDS

    for preset in ("classic", "event", "city"):
        path = tmp_path / f"{preset}.html"
        assert main(["card", "--preset", preset, "--to", str(path)]) == 0
        text = rendered(path)
        for role, _ in get_preset(preset).roles:
            assert f"{ROLE_WORDS[role].capitalize()} {SIGNAL_WORDS[ROLE_SIGNALS[role]]}" in text
        assert "Ночь: перебор мест" in text and "Голосование" in text and "держать 5 с" in text
        if preset == "city":
            assert "«Пас»" in text and "золотую минуту" in text
        else:
            assert "«Я выставляю игрока номер семь»" in text and "«Принято»" in text
    assert "size: A4" in (tmp_path / "classic.html").read_text("utf-8")


def test_the_card_prints_to_a_one_page_pdf(tmp_path, capsys):
    path = tmp_path / "card.pdf"
    assert main(["card", "--to", str(path)]) == 0
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page[^s]", data)) == 1  # one A4 page


def test_a_card_to_another_kind_of_file_is_one_line(tmp_path, capsys):
    assert main(["card", "--to", str(tmp_path / "card.docx")]) == 2
    assert "файл .html или .pdf" in capsys.readouterr().err


def test_the_words_the_card_teaches_are_heard_where_it_says(tmp_path, capsys):
    """Each example of how to nominate on the card is a nomination where the
    card says to use it: the city's in one's own turn of the round, the
    others in one's speech."""
    from host_device.listening.intents import russian_patterns

    for preset in ("classic", "city"):
        path = tmp_path / f"{preset}.html"
        assert main(["card", "--preset", preset, "--to", str(path)]) == 0
        text = rendered(path)
        section = text.split("Как выставлять", 1)[1].split("Кнопки", 1)[0]
        examples = [q for q in re.findall(r"«([^»]+)»", section) if "семь" in q and "сним" not in q]
        patterns = russian_patterns().for_round() if preset == "city" else russian_patterns()
        assert examples
        for example in examples:
            assert [i.to_dict() for i in patterns.parse(example, 10)] == [{"intent": "nominate", "seat": 7}]


def test_the_check_answer_is_on_the_checkers_own_light(tmp_path, capsys):
    path = tmp_path / "classic.html"
    assert main(["card", "--preset", "classic", "--to", str(path)]) == 0
    text = rendered(path)
    assert "огонёк проверенного" not in text  # the checked player's LED never lights
    assert "Шериф проверяет: ответ — на его собственном огоньке" in text
