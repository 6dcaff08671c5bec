"""The floors in pyproject.toml are not below what the code uses.

NEEDS is the table of what raised a floor: the version where something the
code uses first appeared, what it is, the file that uses it and, where one
can be checked, a probe of it in the installed package. The tests check
that every declared floor is at least its needs, that each need is real
(the file still uses it, the installed package has it), and that every
uvicorn internal the product imports is in the table, so a new one is
looked up before it is relied on.
"""

import ast
import inspect
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module, metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def has(target: str) -> Callable[[], bool]:
    """A probe: "module:attribute.path" exists."""

    def probe() -> bool:
        module, _, path = target.partition(":")
        thing: object = import_module(module)
        for name in filter(None, path.split(".")):
            if not hasattr(thing, name):
                return False
            thing = getattr(thing, name)
        return True

    probe.__qualname__ = f"has({target!r})"
    return probe


def takes(target: str, keyword: str) -> Callable[[], bool]:
    """A probe: the callable "module:attribute.path" takes the keyword."""

    def probe() -> bool:
        module, _, path = target.partition(":")
        thing: object = import_module(module)
        for name in path.split("."):
            thing = getattr(thing, name)
        return keyword in inspect.signature(thing).parameters

    probe.__qualname__ = f"takes({target!r}, {keyword!r})"
    return probe


@dataclass(frozen=True)
class Need:
    dist: str  # as pyproject.toml names it
    version: str  # the first version that has it
    what: str
    where: str  # a file that uses it (relative to the repository)
    uses: str  # text in that file that shows the use
    probe: Callable[[], bool] | None = None  # it, in the installed package


SANSIO = "uvicorn.protocols.websockets.websockets_sansio_impl"
NEEDS = [
    Need(
        "uvicorn",
        "0.35",
        "WebSocketsSansIOProtocol, subclassed by SocketProtocol",
        "host_device/web/guard.py",
        f"from {SANSIO} import WebSocketsSansIOProtocol",
        has(f"{SANSIO}:WebSocketsSansIOProtocol"),
    ),
    Need(
        "uvicorn",
        "0.35",
        "H11Protocol's cycle, client and on_response_complete (read in 0.35's source)",
        "host_device/web/guard.py",
        "from uvicorn.protocols.http.h11_impl import H11Protocol",
        has("uvicorn.protocols.http.h11_impl:H11Protocol.on_response_complete"),
    ),
    Need(
        "websockets",
        "13.0",
        "what uvicorn's websockets-sansio protocol needs (uvicorn requires it from 0.50.2)",
        "host_device/web/guard.py",
        "WebSocketsSansIOProtocol",
    ),
    Need(
        "websockets",
        "13.0",
        "websockets.asyncio (the web benchmark's clients)",
        "bench/web.py",
        "from websockets.asyncio.client import connect",
        has("websockets.asyncio.client:connect"),
    ),
    Need(
        "starlette",
        "0.37",
        "WebSocket.send_denial_response (a 503 to a socket past the public share)",
        "host_device/web/guard.py",
        ".send_denial_response(",
        has("starlette.websockets:WebSocket.send_denial_response"),
    ),
    Need(
        "num2words",
        "0.5.13",
        "gender= for Russian cardinals",
        "voices/forms.py",
        'lang="ru", gender=gender',
        takes("num2words.lang_RU:Num2Word_RU.to_cardinal", "gender"),
    ),
    Need(
        "matplotlib",
        "3.5",
        "Axes.set_xticks with labels",
        "host_device/club/plots.py",
        "axes.set_xticks(",
        takes("matplotlib.axes:Axes.set_xticks", "labels"),
    ),
    # the tools: the first version that passes on this code, measured (a linter's rules change)
    Need(
        "ruff",
        "0.16.1",
        "range() as an argument default not flagged (0.16.0: B008); RUF043 known (0.8.4)",
        "tests/host_device/session/test_deal.py",
        "seats=range(",
    ),
    Need(
        "mypy",
        "2.0",
        "a value narrowed to int by `isinstance(v, bool) or not isinstance(v, int)` (1.20.2: no-any-return)",
        "hardware/pinmap.py",
        "if isinstance(value, bool) or not isinstance(value, int):",
    ),
]


def declared() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = project["dependencies"] + [
        r for group in project["optional-dependencies"].values() for r in group
    ]
    return {(req := Requirement(line)).name: req for line in lines}


def floor(req: Requirement) -> Version | None:
    floors = [Version(s.version) for s in req.specifier if s.operator in (">=", "==", "~=")]
    return max(floors, default=None)


def test_every_dependency_has_a_floor():
    assert [name for name, req in declared().items() if floor(req) is None] == []


def test_no_floor_is_below_what_the_code_uses():
    reqs = declared()
    low = [
        f"{need.dist}>={floor(reqs[need.dist])}, but {need.what} is {need.version}"
        for need in NEEDS
        if floor(reqs[need.dist]) < Version(need.version)
    ]
    assert low == []


def test_each_need_is_real():
    for need in NEEDS:
        assert need.uses in (ROOT / need.where).read_text(), f"{need.where} no longer uses {need.what}"
        assert Version(metadata.version(need.dist)) >= Version(need.version), need
        if need.probe is not None:
            assert need.probe(), f"the installed {need.dist} lacks {need.what}"


def test_every_uvicorn_internal_the_product_imports_is_in_the_table():
    probed = {
        need.uses.removeprefix("from ").replace(" import ", ":")
        for need in NEEDS
        if need.dist == "uvicorn" and need.uses.startswith("from ")
    }
    internals = set()
    for path in (ROOT / "host_device").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("uvicorn."):
                internals |= {f"{node.module}:{alias.name}" for alias in node.names}
    assert internals, "the product imports no uvicorn internal: this test and its table can go"
    assert internals <= probed, f"look up when these appeared and add them to NEEDS: {internals - probed}"
