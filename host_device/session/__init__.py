"""A game at the table (``run``): the runtime in a session with the table's
devices. Named "session" rather than "runtime" because it is one game's
life on real devices (opened, carried out, stored, shown), while
``host_device/runtime`` is the loop that any host drives, on any clock.

- ``devices``: opening what the table has (panel, sound, model, terminal)
- ``deal``: the device's deal and each seat's look at his LED
- ``inputs``: the table to the runtime (what each input from the edges means)
- ``effects``: the runtime to the table (phrases, LEDs, tones, the night's sound)
- ``health``: lost and stuck devices
- ``resume``: which stored game this session carries on
- ``host``: the session itself (the question, the pages, the run sequence)
"""
