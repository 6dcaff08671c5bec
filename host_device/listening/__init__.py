"""Listening: the speech model, the decoding thread, intents and numbers from
recogniser results, which pattern words the model knows, and ``model test``.
"""
