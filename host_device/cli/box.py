"""The appliance's commands: ``doctor``, ``hardware test|wiring``, ``service``, ``card``."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_device.appliance import doctor, selftest, service, wiring
from host_device.appliance.card import card_html
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import replacing
from host_device.cli import flags
from voices.words import preset_name


def cmd_card(args: argparse.Namespace) -> int:
    target = Path(args.to)
    kind = target.suffix.lower()
    if kind not in (".html", ".pdf"):
        raise HostDeviceError(f"--to {args.to}: памятка — файл .html или .pdf")
    html = card_html(args.preset)
    try:
        if kind == ".html":
            with replacing(target) as tmp:
                tmp.write_text(html, encoding="utf-8")
        else:
            write_pdf(html, target)
    except OSError as exc:
        raise HostDeviceError(f"{target}: не удалось записать: {os_reason(exc)}") from None
    print(f"host-device: памятка игрокам ({preset_name(args.preset)}) сохранена в {target}")
    return 0


def write_pdf(html: str, target: Path) -> None:
    """Chromium prints the HTML to an A4 PDF."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise HostDeviceError(
            "PDF печатает браузер Chromium: sudo apt-get install chromium (или --to card.html)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "card.html"
        page.write_text(html, encoding="utf-8")
        out = Path(tmp) / "card.pdf"
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer"]
        result = subprocess.run(
            [*command, f"--print-to-pdf={out}", page.as_uri()], capture_output=True, text=True, timeout=120
        )
        if result.returncode != 0 or not out.exists():
            raise HostDeviceError(f"Chromium не напечатал памятку: {result.stderr.strip()[-200:]}")
        with replacing(target) as final:
            final.write_bytes(out.read_bytes())


def add_commands(commands: Any) -> None:
    p = commands.add_parser("doctor", help="проверить всё, что нужно коробке, и сказать, что исправить")
    flags.auto(p)
    flags.devices(p)
    flags.seats(p)
    flags.model(p)
    p.add_argument("--no-model", action="store_true", help="этот стол играет без распознавания речи")
    flags.store(p)
    p.set_defaults(
        func=lambda args: doctor.checkup(flags.device_options(args), args.seats, args.auto, not args.no_model)
    )

    hardware = commands.add_parser("hardware", help="оборудование стола: проверка, схема подключения")
    sub = hardware.add_subparsers(dest="hardware_command", required=True, metavar="ДЕЙСТВИЕ")
    p = sub.add_parser(
        "test", help="зажечь каждый огонёк, дождаться каждой кнопки, послушать микрофон, сказать фразу"
    )
    flags.auto(p)
    flags.devices(p)
    flags.seats(p)
    p.set_defaults(
        func=lambda args: selftest.hardware_test(flags.device_options(args), args.seats, args.auto)
    )
    p = sub.add_parser("wiring", help="нарисовать схему подключения пульта к 40-контактному разъёму (SVG)")
    flags.seats(p)
    flags.config(p, "выводы из раздела [panel] этого файла (без него — выводы по умолчанию)")
    p.add_argument("--to", required=True, metavar="ФАЙЛ.svg", help="куда сохранить схему")
    p.set_defaults(
        func=lambda args: wiring.draw_wiring(flags.device_options(args).config, args.seats, Path(args.to))
    )

    unit = commands.add_parser("service", help="коробка как служба systemd, с запуском при включении")
    sub = unit.add_subparsers(dest="service_command", required=True, metavar="ДЕЙСТВИЕ")
    actions: tuple[tuple[str, Callable[[argparse.Namespace], int], str], ...] = (
        (
            "unit",
            lambda a: service.print_unit(a.user, flags.device_options(a).config),
            "напечатать файл службы (ничего не устанавливая)",
        ),
        (
            "install",
            lambda a: service.install(a.user, flags.device_options(a).config),
            "установить, включить и запустить службу (от root)",
        ),
        ("remove", lambda a: service.remove(), "остановить, выключить и удалить службу (от root)"),
        ("status", lambda a: service.status(), "состояние службы и последние строки её журнала"),
    )
    for name, func, text in actions:
        p = sub.add_parser(name, help=text)
        if name in ("unit", "install"):
            p.add_argument(
                "--user",
                metavar="ПОЛЬЗОВАТЕЛЬ",
                help="от чьего имени работает коробка (по умолчанию: кто вызвал sudo)",
            )
            flags.config(p, "файл настроек, который читает коробка")
        p.set_defaults(func=func)

    p = commands.add_parser("card", help="памятка игрокам на одну страницу A4 (HTML или PDF)")
    flags.preset(p, help="правила памятки")
    p.add_argument("--to", required=True, metavar="ФАЙЛ.html|ФАЙЛ.pdf", help="куда сохранить памятку")
    p.set_defaults(func=cmd_card)
