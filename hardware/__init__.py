"""The table's physical edges: the panel (gpiozero, mock pins, the keyboard,
phones) and its LED patterns, the pin map, the microphone and speaker
streams and their doubles. It knows no rules.
"""
