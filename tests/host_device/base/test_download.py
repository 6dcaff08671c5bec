"""A download that fails says why in Russian (issue 48 item 5): urllib's own words
(«<urlopen error [Errno -2] Name or service not known>») never reach the club's line."""

import socket
import urllib.error

import pytest

from host_device.base.download import DownloadError, Pin, download, network_reason
from tests.helpers.russian import latin_words


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (
            urllib.error.URLError(socket.gaierror(-2, "Name or service not known")),
            "нет сети или имя сервера не находится",
        ),
        (
            urllib.error.URLError(ConnectionRefusedError(111, "Connection refused")),
            "сервер не принимает соединений",
        ),
        (urllib.error.URLError(TimeoutError("timed out")), "сервер не ответил вовремя"),
        (TimeoutError("The read operation timed out"), "сервер не ответил вовремя"),
        (urllib.error.HTTPError("http://x/a.onnx", 404, "Not Found", {}, None), "сервер ответил 404"),
        (urllib.error.URLError("unknown url type: ftp"), "ошибка сети"),
    ],
)
def test_a_failed_download_says_why_in_russian(raised, said, monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise raised

    monkeypatch.setattr("urllib.request.urlopen", refuse)
    url = "https://example.org/voices/ru_RU-dmitri-medium.onnx"
    offline = "host-device voices install /media/usb/ИМЯ.onnx"
    with pytest.raises(DownloadError) as caught:
        download(url, tmp_path / "a.onnx", Pin("v", url, "", 0), lambda _: None, offline=offline)
    line = str(caught.value)
    assert (
        line
        == f"не удалось скачать {url}: {said}; на устройстве без интернета скопируйте файл и установите его: {offline}"
    )
    assert latin_words(line) == [] and network_reason(raised) == said
