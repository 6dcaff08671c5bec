"""What a club reads, for the tests that hold it Russian: the scanner for
Latin words said rather than typed or named (an option, a path, a command, a
config's section, a quoted value, a unit, a short list of names), and the
text a page shows (not its styles, scripts or an SVG's metadata)."""

import re
from html.parser import HTMLParser

from host_device.appliance.doctor import PACKAGES

NAMES = {
    # units, standards, file kinds
    "dBFS",
    "GPIO",
    "GND",
    "BCM",
    "SVG",
    "PDF",
    "HTML",
    "TOML",
    "WAV",
    "UTF",
    "CRC",
    "JSON",
    "CSV",
    "USB",
    "microSD",
    "UART",
    "RXD",
    "TXD",
    "SDA",
    "SCL",
    "I2C",
    "HAT",
    "EEPROM",
    "ID_SD",
    "ID_SC",
    "sha256",
    "zip",
    "V",
    # programs, the machine, keys
    "Python",
    "SQLite",
    "Chromium",
    "Raspberry",
    "Pi",
    "PostgreSQL",
    "Wi-Fi",
    "vosk",
    "espeak-ng",
    "Piper",
    "RHVoice",
    "Debian",
    "builtin",  # espeak-ng's voice, as voices use names it
    "systemd",
    "root",
    "sudo",
    "apt-get",
    "install",
    "Ctrl-C",
    "Enter",
    "HOST",
    "PORT",
    "BSD",
    # what is typed: TOML values, the host's keys, argparse's metavariables
    "true",
    "false",
    "ZIP_OR_DIR",
    "FILE",
    "DIR",
    "PATH",
    "ACTION",
    "COMMAND",
    *PACKAGES,
}
ALLOWED = re.compile(
    r"""
      (\S*/)?(host-device|systemctl|journalctl|sudo)(\ [a-z.][\w./-]*)*  # a command and its words
    | --[\w-]+(=\S*|\ [a-z][\w.-]*)?       # an option (and its value)
    | \S*/\S*                             # a path
    | \S+\.(svg|html|pdf|toml|wav|zip|jsonl|json|csv|sqlite3|tsv|txt|docx|png|onnx)\b  # a file's name
    | (?<![\w.])\.[a-z]+\b                # a file's extension
    | '[^']*' | "[^"]*" | `[^`]*` | «[^»]*»  # quoted: a value, a command, a phrase
    | (\[[\w.]+\]|\{\})(\.[\w]+)*        # a config's [section].setting
    | (?<![\w-])-[A-Za-z]\b                # a short option (-h)
    | vosk-model-[\w.-]+                   # a speech model's name
    | [a-z]{2}_[A-Z]{2}-[\w.-]+            # a Piper voice's name (ru_RU-dmitri-medium)
    | rhvoice-[a-z][\w-]*                  # an RHVoice voice's name (rhvoice-aleksandr-hq)
    | \{[\w.,-]+\}                        # an argument's choices ({json,csv})
    | \b\w+\ =\ \S+ | \b\w+=\S+           # a TOML line, a name=value
    | (настройки|разделы|есть|пульты|кнопки\ ведущего|нет\ вывода\ для|её\ значения):[^;)]*  # lists of names
    """,
    re.VERBOSE,
)
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")


def latin_words(text: str) -> list[str]:
    """The Latin words of ``text`` that are said rather than typed or named."""
    return [w for w in LATIN.findall(ALLOWED.sub(" ", text)) if w not in NAMES and not w.isupper()]


class _Shown(HTMLParser):
    HIDDEN = ("style", "script", "metadata")

    def __init__(self, skip_ids: tuple[str, ...]):
        super().__init__()
        self.skip_ids, self.stack, self.text = skip_ids, [], []

    def handle_starttag(self, tag, attrs):
        skipped = (dict(attrs).get("id") or "").startswith(self.skip_ids) if self.skip_ids else False
        self.stack.append((tag, skipped))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if not any(tag in self.HIDDEN or skipped for tag, skipped in self.stack):
            self.text.append(data)


def shown(html: str, skip_ids: tuple[str, ...] = ()) -> str:
    """The text a page shows, its elements whose id starts with one of ``skip_ids`` left out."""
    parser = _Shown(skip_ids)
    parser.feed(html)
    return " ".join(parser.text)
