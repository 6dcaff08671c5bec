"""The ground floor: what every layer needs and nothing of the project's own.

The root error, the data folder, files written whole, and sound as samples
(WAV reading and writing). Nothing here imports the engine, the voices, the
hardware or the application, so each of them can import it.
"""
