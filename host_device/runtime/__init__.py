"""The runtime: the loop that hosts a game (see loop.py)."""
