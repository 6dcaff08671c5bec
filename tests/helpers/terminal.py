"""A terminal's screen as text, from what a program wrote to it: enough of
a terminal for the screens' own escapes (carriage return, newline, clear to
the end of the line ``ESC[K``, home ``ESC[H``, clear below ``ESC[J``, clear
all ``ESC[2J``), at a fixed size, with scrolling."""

import io
import re

ESCAPE = re.compile(r"\x1b\[([0-9;]*)([A-Za-z])")


class Tty(io.StringIO):
    """A StringIO that says it is a terminal."""

    encoding = "utf-8"

    def isatty(self):
        return True


def screen(written, width=80, height=24):
    """The screen's rows (without trailing blanks) after ``written``."""
    rows = [[] for _ in range(height)]
    row = col = 0
    pos = 0
    while pos < len(written):
        match = ESCAPE.match(written, pos)
        if match:
            arg, code = match.groups()
            if code == "K":
                del rows[row][col:]
            elif code == "H":
                row = col = 0
            elif code == "J":
                del rows[row][col:]
                for r in range(row + 1, height):
                    rows[r] = []
                if arg == "2":
                    rows = [[] for _ in range(height)]
            pos = match.end()
            continue
        char = written[pos]
        pos += 1
        if char == "\r":
            col = 0
        elif char == "\n":
            col = 0
            row += 1
            if row == height:
                rows = [*rows[1:], []]
                row = height - 1
        else:
            if col >= width:  # the terminal wraps the line
                col, row = 0, row + 1
                if row == height:
                    rows = [*rows[1:], []]
                    row = height - 1
            line = rows[row]
            line.extend(" " * (col - len(line)))
            if col < len(line):
                line[col] = char
            else:
                line.append(char)
            col += 1
    return ["".join(r).rstrip() for r in rows]
