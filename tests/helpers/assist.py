"""The host's keyboard in assist-mode tests: the keyboard double itself (a
KeyboardPanel reading a pipe), typed on the virtual clock."""

import os
import queue

from hardware.events import Press
from hardware.keyboard_panel import KeyboardPanel, key_for

PHRASE_S = 1.0  # every phrase's length in these tests


class Keyboard:
    """The keyboard double itself: a KeyboardPanel reading a pipe, its events
    handed to the host's controller one by one, on the virtual clock."""

    def __init__(self, seats):
        self.read, self.write = os.pipe()
        self.events = queue.Queue()
        self.panel = KeyboardPanel(seats, lambda: 0.0, self.events, keys_fd=self.read, draw=False)

    def type(self, assist, text):
        os.write(self.write, text.encode())
        done = []
        for char in text:
            assert key_for(char, assist.game.preset.seats) is not None, char
            press = self.events.get(timeout=5)
            while not isinstance(press, Press):  # a host button's release (its key is a short press)
                press = self.events.get(timeout=5)
            done.append(assist.press(press.key))
        return done

    def close(self):
        self.panel.close()
        os.close(self.write)


KEYBOARDS = {}


def typed(assist, keys):
    """Keys typed on the host's keyboard (through the keyboard double): what each did."""
    if id(assist) not in KEYBOARDS:
        KEYBOARDS[id(assist)] = Keyboard(assist.game.preset.seats)
    return KEYBOARDS[id(assist)].type(assist, keys)


def wait(rt, seconds):
    rt.sched.run_due(rt.sched.now + seconds)
