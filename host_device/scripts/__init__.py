"""Games from scripts: reading a script, playing it through the engine
(``play``), and through the whole runtime on virtual time (``simulate``).
"""
