"""The runtime: the loop that hosts a game on one scheduler, virtual or real
(see loop.py for its parts), assist mode's keys, the cards' registration.
"""
