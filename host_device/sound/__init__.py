"""The device's voice joined to the hardware: phrases played on the speaker
(the announcer) and a voice pack recorded from the microphone.
"""
