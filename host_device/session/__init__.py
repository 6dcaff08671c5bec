"""A game at the table from start to end: the devices opened from the config,
the store and the resume question, the pages, and the run itself.
"""
