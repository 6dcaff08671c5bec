"""The table's inputs -> the runtime: what a lost and a restarted decoding
process say at the table (once each), and a decoder given up."""

from host_device.listening.listener import HearingBack, HearingGone, HearingLost
from host_device.session.inputs import Inputs


class Runtime:
    def __init__(self):
        self.said = []

    def say(self, key, **slots):
        self.said.append(key)


def inputs():
    runtime, notices = Runtime(), []
    table = Inputs(
        runtime,
        clock=None,
        assist=None,
        keyboard=False,
        power_off=False,
        typed_speech=False,
        show_typed=False,
        verbose=False,
        notice=lambda text, russian: notices.append(russian),
        leave=lambda: None,
        print_line=lambda line: None,
    )
    return table, runtime, notices


def test_a_lost_decoder_is_said_as_it_goes_and_as_it_comes_back():
    table, runtime, notices = inputs()
    table.take(HearingLost("the decoding process ended (exit -9)", 1.0))
    table.take(HearingBack(2.5))
    assert runtime.said == ["hearing_lost", "hearing_back"]
    assert notices == ["слух потерян: перезапуск", "слух восстановлен"]


def test_a_decoder_given_up_is_a_notice_and_the_game_goes_on():
    table, runtime, notices = inputs()
    table.take(HearingLost("ended", 1.0))
    table.take(HearingGone("no memory", 4.0))
    assert runtime.said == ["hearing_lost"]
    assert notices[-1].startswith("слух потерян: выставления больше не слышны")
