"""The Pi as an appliance: the box's three buttons between games, its
systemd service, ``doctor``, the wiring picture and the players' card."""
