"""The import graph follows the layer order of docs/architecture.md: every
import points down (or stays inside its own folder), none runs back up, two
folders of one floor never import each other, and there is no circle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.helpers.paths import ROOT

PACKAGES = ("engine", "voices", "hardware", "host_device")


def layers() -> list[list[str]]:
    """The floors, ground first, as docs/architecture.md writes them."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("<!-- layers -->")[1]
    floors = []
    for line in block.strip().splitlines():
        match = re.match(r"\s*\d+\.\s+(.*)", line)
        if not match:
            break
        floors.append([unit.strip(" `") for unit in match.group(1).split("|")])
    return floors


def unit_of(module: str, units: list[str]) -> str | None:
    best = None
    for unit in units:
        if (module == unit or module.startswith(unit + ".")) and (best is None or len(unit) > len(best)):
            best = unit
    return best


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, text: str | None = None) -> list[tuple[int, str]]:
    """Every module a file imports, wherever the import stands (in a function too)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text)
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] in PACKAGES]


def product_files() -> list[Path]:
    """Every module of the product (host_device/__init__.py is only the namespace: it imports nothing)."""
    files = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
    return [p for p in files if module_name(p) != "host_device"]


def arrows(extra: dict[Path, str] | None = None) -> dict[tuple[str, str], list[str]]:
    """(importing unit, imported unit) -> where (file:line) for every arrow between two units
    (``extra``: files that are not on disk, with their text, read as if they were)."""
    units = [unit for floor in layers() for unit in floor]
    found: dict[tuple[str, str], list[str]] = {}
    extra = extra or {}
    for path in [*product_files(), *extra]:
        here = unit_of(module_name(path), units)
        assert here is not None, f"{path.relative_to(ROOT)} is on no floor of docs/architecture.md"
        for line, name in imports(path, extra.get(path)):
            there = unit_of(name, units)
            if there is not None and there != here:
                found.setdefault((here, there), []).append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return found


def test_every_folder_of_the_product_stands_on_a_floor() -> None:
    units = [unit for floor in layers() for unit in floor]
    assert len(units) == len(set(units))
    assert {"host_device.base", "engine", "host_device.cli"} <= set(units)
    for path in product_files():
        assert unit_of(module_name(path), units) is not None, path


def test_every_import_points_down() -> None:
    floor_of = {unit: k for k, floor in enumerate(layers()) for unit in floor}
    wrong = [
        f"{where} (floor {floor_of[a]} {a} -> floor {floor_of[b]} {b})"
        for (a, b), places in arrows().items()
        if floor_of[b] >= floor_of[a]
        for where in places
    ]
    assert wrong == []


def test_the_base_imports_nothing_of_the_project() -> None:
    for path in (ROOT / "host_device" / "base").rglob("*.py"):
        assert [name for _, name in imports(path) if not name.startswith("host_device.base")] == [], path


def test_the_check_catches_an_arrow_that_runs_back_up() -> None:
    """The rule itself can fail: an engine module importing the runtime is found."""
    probe = ROOT / "engine" / "_arrow_probe.py"
    found = arrows({probe: "from host_device.runtime.loop import Runtime\n"})
    assert found[("engine", "host_device.runtime")] == [
        "engine/_arrow_probe.py:1 imports host_device.runtime.loop",
        "engine/_arrow_probe.py:1 imports host_device.runtime.loop.Runtime",
    ]


def test_no_circle_between_modules() -> None:
    graph: dict[str, set[str]] = {}
    names = {module_name(p) for p in product_files()}
    for path in product_files():
        here = module_name(path)
        graph[here] = {name for _, name in imports(path) if name in names and name != here}
    state: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert circles == []


MAX_LINES = 500  # a module small enough to read in one sitting


def test_no_module_of_the_product_is_longer_than_one_sitting() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in product_files()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


ABSTRACT = ("ABC", "Protocol")


def classes(path: Path, text: str | None = None) -> dict[str, ast.ClassDef]:
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text)
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def is_interface(node: ast.ClassDef) -> bool:
    """An abstract class (an ABC or a Protocol, or one that declares an abstract
    method), or an error (the errors' tree is the one root error's, by design)."""
    if node.name.endswith("Error"):
        return True
    bases = {
        b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
        for b in node.bases
    }
    declares = any(
        isinstance(item, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "abstractmethod" for d in item.decorator_list)
        for item in node.body
    )
    return bool(bases & set(ABSTRACT)) or declares


def assembled(extra: dict[Path, str] | None = None) -> list[str]:
    """Every class of the product built on a class of another module of its own
    folder that is not an interface (a mixin spread over files)."""
    extra = extra or {}
    files = [*product_files(), *extra]
    defined = {module_name(p): classes(p, extra.get(p)) for p in files}
    found = []
    for path in files:
        here = module_name(path)
        folder = here.rpartition(".")[0]
        imported = {}  # a name this module imports -> the module of its own folder that defines it
        modules = {}  # a module of its own folder this module imports as a name
        for node in ast.walk(ast.parse(extra.get(path) or path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == folder:
                for alias in node.names:
                    modules[alias.asname or alias.name] = f"{folder}.{alias.name}"
            elif (
                isinstance(node, ast.ImportFrom) and node.module and node.module.rpartition(".")[0] == folder
            ):
                for alias in node.names:
                    imported[alias.asname or alias.name] = node.module
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.rpartition(".")[0] == folder:
                        modules[alias.asname or alias.name] = alias.name
        for name, node in defined[here].items():
            for base in node.bases:
                if isinstance(base, ast.Name):
                    source, base_name = imported.get(base.id), base.id
                elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
                    source, base_name = modules.get(base.value.id), base.attr
                else:
                    continue
                parent = defined.get(source, {}).get(base_name) if source else None
                if parent is not None and source != here and not is_interface(parent):
                    found.append(f"{path.relative_to(ROOT)}: {name}({base_name}) — {base_name} is {source}'s")
    return found


def test_no_class_is_assembled_from_parents_in_other_modules_of_its_folder():
    """Parts are held, not inherited: a class may implement an interface of its
    folder (a panel implementing ``Panel``), never build itself out of other
    modules' classes (the mixin chains this house had: ``Machine(Checks, Night,
    …)``, ``Runtime(TableInputs, Undo, FreeTimers)``, ``Store(Outbox(Roster(…)))``)."""
    assert assembled() == []


def test_the_mixin_check_catches_a_class_built_from_another_modules_class():
    probe = ROOT / "host_device" / "runtime" / "_mixin_probe.py"
    text = "from host_device.runtime.loop import Runtime\n\n\nclass Bigger(Runtime):\n    pass\n"
    assert assembled({probe: text}) == [
        "host_device/runtime/_mixin_probe.py: Bigger(Runtime) — Runtime is host_device.runtime.loop's"
    ]
    through_module = "import host_device.runtime.loop as loop\n\n\nclass Bigger(loop.Runtime):\n    pass\n"
    assert assembled({probe: through_module}) == [
        "host_device/runtime/_mixin_probe.py: Bigger(Runtime) — Runtime is host_device.runtime.loop's"
    ]
    from_folder = "from host_device.runtime import loop\n\n\nclass Bigger(loop.Runtime):\n    pass\n"
    assert len(assembled({probe: from_folder})) == 1
    interface = "from hardware.panel import Panel\n\n\nclass Lamp(Panel):\n    pass\n"
    assert assembled({ROOT / "hardware" / "_lamp_probe.py": interface}) == []
