"""Listening: the speech model, the decoding thread, intents from recogniser
results, the model commands (install, check, test, record) and ``listen``."""
