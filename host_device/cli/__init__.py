"""The ``host-device`` command line: every command's arguments and what each command runs."""
