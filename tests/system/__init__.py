"""Tests of the whole: the pages in a real browser, a real process killed and resumed, the fuzz suite, the import floors."""
