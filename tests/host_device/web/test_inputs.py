"""A seat phone's messages (host_device/web/inputs.py seat_message): its
pings set its clock, and a press is stamped when it was made on the phone,
not when it arrived, with the step it was made in."""

import json

import pytest

from engine import Phase
from host_device.web.inputs import PINGS_KEPT, PhoneClock, PhonePress, seat_message


def test_a_press_that_arrives_late_is_stamped_when_it_was_made():
    phone = PhoneClock()
    assert seat_message(7, json.dumps({"ping": 1000.0}), phone, now=50.02) is None
    assert seat_message(7, json.dumps({"ping": 1250.0}), phone, now=50.40) is None  # a slower one
    press = seat_message(7, json.dumps({"press": 12, "at": 3000.0}), phone, now=57.0)  # held back 5 s
    assert press == PhonePress(key=7, at=pytest.approx(52.02), made_in=12)
    # never later than it arrived
    assert seat_message(7, json.dumps({"press": 12, "at": 9000.0}), phone, now=57.0).at == 57.0


def test_a_press_before_any_ping_is_stamped_as_it_arrives_and_anything_else_is_no_press():
    phone = PhoneClock()
    assert seat_message(3, json.dumps({"press": 0, "at": 5.0}), phone, now=9.0).at == 9.0
    for text in ("press", "{}", json.dumps({"press": "5", "at": 1}), json.dumps({"press": 1}), "\x00"):
        assert seat_message(3, text, phone, now=9.0) is None


def test_a_phone_clock_that_runs_slow_is_followed():
    phone = PhoneClock()
    for k in range(200):  # the phone's clock loses 10 ms a ping: 2 s in 200 pings
        phone.heard(k * 240.0, now=k * 0.25)
    late = PINGS_KEPT * 0.01  # only the last pings count: it is off by their loss, not the whole game's
    assert phone.device_time(200 * 240.0, now=50.0) == pytest.approx(50.0 - late, abs=0.02)


def test_a_phone_names_its_own_player_and_a_bad_name_message_is_no_press():
    from host_device.web.inputs import SeatName

    phone = PhoneClock()
    assert seat_message(4, json.dumps({"name": {"player": "abc"}}), phone, 1.0) == SeatName(
        4, player="abc", by_phone=True
    )
    assert seat_message(4, json.dumps({"name": {"new": " Вера\u202e "}}), phone, 1.0) == SeatName(
        4, new="Вера", by_phone=True
    )  # made printable: an invisible override dropped
    for bad in (
        {"name": "Вера"},
        {"name": {"new": ""}},
        {"name": {"player": 5}},
        {"name": {"new": "x" * 101}},
    ):
        assert seat_message(4, json.dumps(bad), phone, 1.0) is None


def test_the_console_seat_grid_messages_become_inputs_and_bad_ones_are_said():
    from engine import Phase
    from host_device.web.inputs import ExtraPoints, FromConsole, SeatName, console_input
    from tests.helpers.web import console_at, drained

    publisher, inbox = console_at()  # host mode, before the deal
    say = lambda message: console_input(publisher, json.dumps(message), None)  # noqa: E731
    assert say({"name": {"seat": 3, "player": "id-1"}}) is None  # host mode too: naming is no press
    assert say({"name": {"seat": 3, "new": "Вера"}}) is None
    assert say({"name": {"seat": 3, "player": None}}) is None
    shown = "С пульта: место 3: игрок изменён"  # the table sees a seat changed (issue 51)
    assert drained(inbox) == [
        FromConsole(shown, SeatName(3, player="id-1")),
        FromConsole(shown, SeatName(3, new="Вера")),
        FromConsole(shown, SeatName(3)),
    ]
    assert say({"name": {"seat": 11, "new": "Вера"}}) == "имя: укажите место 1..10"
    assert say({"extra": {"seat": 2, "points": 0.3}}).endswith("после конца игры")
    publisher, inbox = console_at(lambda game: game.phase is Phase.GAME_OVER)
    say = lambda message: console_input(publisher, json.dumps(message), None)  # noqa: E731
    assert say({"extra": {"seat": 2, "points": 0.3}}) is None
    assert say({"extra": {"seat": 2, "points": None}}) is None
    assert say({"extra": {"seat": 2, "steps": -1}}) is None
    assert drained(inbox) == [
        FromConsole("С пульта: доп. баллы месту 2: 0,3", ExtraPoints(2, 0.3)),
        FromConsole("С пульта: доп. баллы месту 2: нет", ExtraPoints(2, None)),
        FromConsole("С пульта: доп. баллы месту 2: на шаг меньше", ExtraPoints(2, None, -1)),
    ]
    for bad in ({"seat": 2, "steps": 2}, {"seat": 2, "steps": True}, {"seat": 2, "steps": 1, "points": 0.1}):
        assert say({"extra": bad}) == 'доп. баллы: {"steps": 1} или {"steps": -1}'
    assert say({"extra": {"seat": 2, "points": "много"}}) == "доп. баллы: число (0.3) или null"
    assert inbox.empty()


def _due(game):
    from engine.steps import best_move_now

    return best_move_now(game.preset, game.state) and not game.state.best_move


@pytest.mark.parametrize("assist", [False, True])
def test_the_console_enters_a_best_move_in_either_mode(assist):
    from host_device.web.inputs import BestMoveEntry, FromConsole, console_input
    from tests.helpers.web import console_at, drained

    publisher, inbox = console_at(_due, assist=assist)
    assert console_input(publisher, json.dumps({"best_move": [3, 5, 8]}), None) is None
    assert console_input(publisher, json.dumps({"best_move": [3, 5]}), None) is None  # the engine judges it
    put = [item.item if isinstance(item, FromConsole) else item for item in drained(inbox)]
    assert [type(item) for item in put] == [BestMoveEntry] * 2
    assert [item.seats for item in put] == [(3, 5, 8), (3, 5)]


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ({"best_move": [3, 5, 11]}, "лучший ход: места — числа 1…10"),
        ({"best_move": [3, "5", 8]}, "лучший ход: места — числа 1…10"),
        ({"best_move": [3, True, 8]}, "лучший ход: места — числа 1…10"),
        ({"best_move": "3 5 8"}, "не понято"),
        ({"best_move": list(range(1, 12))}, "не понято"),
    ],
)
def test_a_bad_best_move_entry_is_refused_in_russian_and_put_nowhere(message, error):
    from host_device.web.inputs import console_input
    from tests.helpers.web import console_at

    publisher, inbox = console_at(_due)
    assert error in console_input(publisher, json.dumps(message), None)
    assert inbox.empty()


def test_the_console_withdraws_the_devices_foul_only_with_true_and_the_table_is_shown_it():
    from host_device.runtime.discipline import WithdrawFoul
    from host_device.web.inputs import FromConsole, console_input
    from tests.helpers.web import console_at, drained

    publisher, inbox = console_at(lambda game: game.phase is Phase.SPEECH)
    assert console_input(publisher, json.dumps({"withdraw_foul": True}), None) is None
    for value in (False, 1, "да"):
        assert "не понято" in console_input(publisher, json.dumps({"withdraw_foul": value}), None)
    put = drained(inbox)
    assert [type(item) for item in put] == [FromConsole]
    assert put[0].item == WithdrawFoul() and "фол снят" in put[0].line


@pytest.mark.parametrize(
    "raw",
    ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1" + "0" * 400, "9007199254740993"],
)
def test_a_number_not_finite_or_beyond_any_game_is_refused_at_the_door_in_one_line(raw):
    """Extra points of NaN were once put in the inbox (and on to the store); a press dated -Infinity ended the host."""
    from host_device.web.inputs import console_input
    from tests.helpers.web import console_at

    publisher, inbox = console_at(assist=True)
    error = console_input(publisher, '{"extra": {"seat": 3, "points": @}}'.replace("@", raw), None)
    assert error is not None and "\n" not in error and ("число" in error or "вне пределов" in error)
    assert inbox.empty()
    phone = PhoneClock()
    for template in ('{"ping": @}', '{"press": 3, "at": @}', '{"press": @, "at": 5}'):
        text = template.replace("@", raw)
        assert seat_message(4, text, phone, now=9.0) is None
    assert not phone.offsets  # its clock took nothing


def test_a_press_dated_long_before_it_arrived_is_dated_a_minute_before_at_most():
    phone = PhoneClock()
    seat_message(7, json.dumps({"ping": 9_000_000_000.0}), phone, now=50.0)  # a phone's clock far ahead
    press = seat_message(7, json.dumps({"press": 1, "at": 0}), phone, now=50.0)
    assert press.at == 50.0 - 60.0
    assert seat_message(7, json.dumps({"press": 1, "at": -0.0}), phone, now=50.0).at == -10.0


def test_nesting_deeper_than_json_reads_is_refused_not_a_crash():
    from host_device.web.messages import Refused, loads

    with pytest.raises(Refused, match="вложено слишком глубоко"):
        loads("[" * 100_000 + "]" * 100_000)


def test_a_pages_new_name_follows_the_stores_rule_before_it_reaches_the_store():
    """Issue 46: the phone's and the console's names go through base/names.py (60 characters,
    control characters cleaned), refused in the page's own line."""
    from host_device.web.inputs import Refused, seat_name

    assert seat_name(3, {"new": "Вера\x1b[2J"}, True).new == "Вера [2J"
    with pytest.raises(Refused, match="длиннее 60"):
        seat_name(3, {"new": "x" * 61}, True)
