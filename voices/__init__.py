"""What the device says: the phrase catalogue, Russian forms and words, audio
processing, voice packs, rendering with espeak-ng and the night's sound. It
decides nothing of what to say.
"""
