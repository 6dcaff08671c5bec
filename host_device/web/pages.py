"""The HTTP endpoints: the table's page and its state, the host's console
page, a seat's page and its QR code. A private page without its token is
refused (403) and changes nothing. The publisher is the app's
(``app.state.publisher``, set by :func:`host_device.web.app.make_app`)."""

from __future__ import annotations

from importlib import resources

from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, PlainTextResponse, Response

from host_device.web.publisher import Private, Publisher
from host_device.web.qr import qr_svg

STATIC = resources.files("host_device") / "web" / "static"
NO_STORE = {"Cache-Control": "no-store"}  # the state changes, a QR code holds a token: never kept
FORBIDDEN_HOST = "Нет доступа: откройте пульт по ссылке с токеном, которую напечатал host-device run"


def publisher_of(connection: HTTPConnection) -> Publisher:
    publisher: Publisher = connection.app.state.publisher
    return publisher


def page(name: str) -> FileResponse:
    return FileResponse(str(STATIC / name), media_type="text/html; charset=utf-8")


def refused(text: str, status: int = 403) -> PlainTextResponse:
    return PlainTextResponse(text, status_code=status)


def seat_refusal(private: Private | None, seat: int, token: str | None) -> tuple[str, int] | None:
    """Why a seat's page or socket is refused (the text and the status), or None."""
    if private is None:
        return "Телефоны мест есть только в host-device run", 404
    if seat not in private.access.seats:
        return f"Место {seat} не играет с телефона (его кнопка на столе)", 404
    if not private.access.is_seat(seat, token):
        return "Нет доступа: откройте страницу места по его QR-коду на пульте ведущего", 403
    return None


async def table(request: Request) -> Response:
    return page("table.html")


async def state(request: Request) -> Response:
    return Response(
        publisher_of(request).state, media_type="application/json; charset=utf-8", headers=NO_STORE
    )


async def host(request: Request) -> Response:
    private = publisher_of(request).private
    if private is None:
        return refused("Пульт ведущего есть только в host-device run", 404)
    if not private.access.is_host(request.query_params.get("t")):
        return refused(FORBIDDEN_HOST)
    return page("host.html")


async def seat(request: Request) -> Response:
    private = publisher_of(request).private
    why = seat_refusal(private, request.path_params["seat"], request.query_params.get("t"))
    return page("seat.html") if why is None else refused(*why)


async def seat_qr(request: Request) -> Response:
    """A seat phone's link (with its token) as a QR code, for the host's console."""
    private = publisher_of(request).private
    number = request.path_params["seat"]
    if private is None or not private.access.is_host(request.query_params.get("t")):
        return refused(FORBIDDEN_HOST)
    if number not in private.access.seats:
        return refused(f"Место {number} играет кнопкой стола", 404)
    url = f"{str(request.base_url).rstrip('/')}/seat/{number}?t={private.access.seats[number]}"
    return Response(qr_svg(url), media_type="image/svg+xml", headers=NO_STORE)
