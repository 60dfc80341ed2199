"""Architecture rules that keep the codebase honest: pure rules, a small public API."""

from __future__ import annotations

import ast
import functools
import itertools
import pathlib
import re

import polytable
import polytable.core
import polytable.geometry

SRC = pathlib.Path(polytable.__file__).parent


@functools.cache
def _tree(path: pathlib.Path) -> ast.Module:
    """A source file's syntax tree, parsed once per test process (most rules below read every file)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(path: pathlib.Path) -> list[str]:
    tree = _tree(path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = path.relative_to(SRC.parent).with_suffix("").parts
                base = parts[: len(parts) - node.level]
                out.append(".".join(base + ((node.module,) if node.module else ())))
            elif node.module:
                out.append(node.module)
    return out


ALLOWED_STDLIB = {
    "__future__", "abc", "collections", "dataclasses", "enum", "functools", "itertools", "math", "re",
    "typing", "types", "string", "tomllib", "json", "operator", "heapq", "bisect", "fractions", "statistics",
    "unicodedata", "textwrap", "array", "struct", "copy", "time", "importlib", "pkgutil", "weakref",
}  # fmt: skip


def test_rules_import_only_core_and_geometry() -> None:
    bad = []
    for path in (SRC / "games").rglob("*.py"):
        for mod in _imports(path):
            top = mod.split(".")[0]
            if top == "polytable":
                parts = mod.split(".")
                if len(parts) > 1 and parts[1] not in ("core", "geometry", "games"):
                    bad.append(f"{path.relative_to(SRC)} imports {mod}")
            elif top not in ALLOWED_STDLIB:
                bad.append(f"{path.relative_to(SRC)} imports {mod}")
    assert not bad, "rules code must import only polytable.core, polytable.geometry and pure stdlib:\n" + "\n".join(bad)


def test_rules_never_use_global_random_or_io() -> None:
    bad = []
    for path in list((SRC / "games").rglob("*.py")) + list((SRC / "core").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = _tree(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("open", "input"):
                bad.append(f"{path.relative_to(SRC)}:{node.lineno} calls {node.func.id}()")
        if "import random" in text or "from random" in text:
            bad.append(f"{path.relative_to(SRC)} imports random")
    assert not bad, "\n".join(bad)


def test_public_api_is_what_was_meant() -> None:
    for mod in (polytable, polytable.core, polytable.geometry):
        exported = set(mod.__all__)
        public = {n for n in dir(mod) if not n.startswith("_") and not isinstance(getattr(mod, n), type(ast))}
        assert exported <= set(dir(mod)), f"{mod.__name__}.__all__ names something missing"
        assert public <= exported, f"{mod.__name__} exposes names not in __all__: {sorted(public - exported)}"


def test_each_games_public_face_is_listed_and_documented() -> None:
    """A game's public face (what tests, players and researchers import) is its ``__all__``: every name
    there exists, every public name the package defines is there, and every function or class says what it
    is (constants are documented where they are defined)."""
    import importlib
    import inspect
    import pkgutil

    import polytable.games

    bad = []
    for info in pkgutil.iter_modules(polytable.games.__path__):
        if info.name.startswith("_") or not info.ispkg:
            continue
        mod = importlib.import_module(f"polytable.games.{info.name}")
        exported = set(getattr(mod, "__all__", ()))
        bad += [f"{mod.__name__}.__all__ names missing {n}" for n in sorted(exported) if not hasattr(mod, n)]
        for name in sorted(n for n in dir(mod) if not n.startswith("_")):
            obj = getattr(mod, name)
            own = getattr(obj, "__module__", "").startswith(f"{mod.__name__}.")
            if own and name not in exported and (inspect.isfunction(obj) or inspect.isclass(obj)):
                bad.append(f"{mod.__name__}.{name} is public but not in __all__")
            if name in exported and (inspect.isfunction(obj) or inspect.isclass(obj)) and not inspect.getdoc(obj):
                bad.append(f"{mod.__name__}.{name} has no docstring")
    assert not bad, "\n".join(bad)


def test_modules_stay_small() -> None:
    big = []
    for path in SRC.rglob("*.py"):
        n = path.read_text(encoding="utf-8").count("\n")
        if n > 1000:
            big.append(f"{path.relative_to(SRC)}: {n} lines")
    assert not big, "split these modules:\n" + "\n".join(big)


# ---------------------------------------------------------------- the import graph between packages

# The layers from the bottom: a package may import only packages on its own or a lower layer.
_FOUNDATION = {"core": set(), "geometry": {"core"}}


def _polytable_imports(path: pathlib.Path) -> list[tuple[str, int]]:
    """Every ``polytable.*`` module or name a file imports (anywhere in it), with its line."""
    tree = _tree(path)
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = path.relative_to(SRC.parent).with_suffix("").parts
                mod = ".".join(parts[: len(parts) - node.level] + ((node.module,) if node.module else ()))
            else:
                mod = node.module or ""
            out.append((mod, node.lineno))
            out += [(f"{mod}.{a.name}", node.lineno) for a in node.names]
    return [(m, n) for m, n in out if m == "polytable" or m.startswith("polytable.")]


def _unit(parts: tuple[str, ...]) -> str:
    """The package-level unit of a module path below ``polytable``: ``core``, ``games``, ``_discover``..."""
    if not parts or not ((SRC / parts[0]).is_dir() or (SRC / f"{parts[0]}.py").is_file()):
        return "polytable"  # the top-level package itself (``from .. import __version__``)
    return parts[0]


def _package_edges() -> dict[str, dict[str, str]]:
    """unit -> {imported unit: the first place that imports it}."""
    edges: dict[str, dict[str, str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        src = "polytable" if rel.parts == ("__init__.py",) else _unit((rel.parts[0].removesuffix(".py"),))
        for mod, line in _polytable_imports(path):
            dst = _unit(tuple(mod.split(".")[1:]))
            if dst != src:
                edges.setdefault(src, {}).setdefault(dst, f"{rel}:{line} imports {mod}")
    return edges


def test_package_import_graph_has_no_cycle() -> None:
    edges = _package_edges()
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(u: str) -> list[str] | None:
        state[u] = 1
        path.append(u)
        for v in sorted(edges.get(u, {})):
            if state.get(v) == 1:
                return [*path[path.index(v) :], v]
            if v not in state and (cycle := visit(v)):
                return cycle
        state[u] = 2
        path.pop()
        return None

    for unit in sorted(edges):
        if unit not in state and (cycle := visit(unit)):
            where = "\n".join(edges[a][b] for a, b in itertools.pairwise(cycle))
            raise AssertionError(f"import cycle between packages {' -> '.join(cycle)}:\n{where}")


def test_foundation_imports_nothing_above_it() -> None:
    edges = _package_edges()
    bad = [
        edges[unit][dst] for unit, allowed in _FOUNDATION.items() for dst in edges.get(unit, {}) if dst not in allowed
    ]
    assert not bad, "core and geometry must not import the layers above them:\n" + "\n".join(sorted(bad))


def test_nothing_outside_a_game_imports_its_private_modules() -> None:
    bad: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        for mod, line in _polytable_imports(path):
            parts = mod.split(".")
            private = len(parts) >= 4 and parts[1] == "games" and parts[3].startswith("_") and parts[3] != "__init__"
            if private and rel.parts[:2] != ("games", parts[2]):
                bad.setdefault(f"{rel}:{line}", f"{rel}:{line} imports {'.'.join(parts[:4])}")
    bad_list = list(bad.values())
    why = "use the game's public face (games/<g>/__init__.py), not its private modules:\n"
    assert not bad_list, why + "\n".join(bad_list)


_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

_C_LAYERS = {"core": 0, "geometry": 1, "games": 2, "ai": 3}
"""The layers of the C from the bottom, as the Python's: any other folder holding C (``interop``) is above
them all."""


def _c_includes() -> list[tuple[pathlib.Path, int, pathlib.Path]]:
    """(file, line, the file it includes) for every quoted ``#include`` of the C sources under src."""
    out = []
    for path in sorted([*SRC.rglob("*.c"), *SRC.rglob("*.h")]):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = _INCLUDE.match(line)
            if m:
                out.append((path, n, (path.parent / m.group(1)).resolve()))
    return out


def _include_goes_up(src: tuple[str, ...], dst: tuple[str, ...]) -> bool:
    """Whether a C file at ``src`` (parts below polytable) including ``dst`` breaks the layers: the target
    is on a higher layer (games -> ai, core -> games, ...), or in another game's folder (games/a -> games/b)."""
    rank = len(_C_LAYERS)
    if _C_LAYERS.get(dst[0], rank) > _C_LAYERS.get(src[0], rank):
        return True
    return src[0] == dst[0] == "games" and src[1] != dst[1]


def test_the_include_rule_catches_an_include_going_up() -> None:
    """The rule below on made-up includes: what goes up or across games is caught, what goes down is not."""
    up = [
        (("games", "quadefy", "_cquadefy.c"), ("ai", "_native", "quadefy_solve.h")),
        (("core", "_rng.h"), ("games", "forma", "_cforma.h")),
        (("games", "forma", "_cforma.h"), ("games", "quadefy", "quadefy_moves.h")),
        (("ai", "forma", "_cforma_eval.c"), ("interop", "_cplanes.c")),
    ]
    down = [
        (("ai", "forma", "_cforma_eval.c"), ("games", "forma", "_cforma.h")),
        (("ai", "_native", "quadefy_solve.c"), ("games", "quadefy", "quadefy_gen.h")),
        (("games", "forma", "_cforma.h"), ("core", "_rng.h")),
        (("interop", "_cplanes.c"), ("games", "forma", "_cforma.h")),
    ]
    assert all(_include_goes_up(s, d) for s, d in up)
    assert not any(_include_goes_up(s, d) for s, d in down)


def test_c_includes_go_down_the_layers() -> None:
    """The C follows the Python's layers (every quoted ``#include`` is read): a game's kernel includes its
    own files and ``core``'s shared headers, never the AI's; the AI's C includes the game's move generation
    downward (the AI may include a game, never the reverse); ``core`` includes only ``core``; every include
    names a file that exists."""
    bad = []
    for path, n, target in _c_includes():
        rel = path.relative_to(SRC)
        if not target.is_file():
            bad.append(f"{rel}:{n} includes a missing {target.name}")
            continue
        dst = target.relative_to(SRC.resolve()).parts
        if _include_goes_up(rel.parts, dst):
            bad.append(f"{rel}:{n} includes {'/'.join(dst)}")
    assert not bad, "a C include goes up (or across games):\n" + "\n".join(bad)
    downward = {(p.relative_to(SRC).parts[0], t.relative_to(SRC.resolve()).parts[0]) for p, _, t in _c_includes()}
    assert ("ai", "games") in downward  # the AI's C reads the game's own move generation


def test_one_generator_in_c() -> None:
    """splitmix64 is written once, in core/_rng.h, and every kernel that draws includes it."""
    step = re.compile(r">>\s*27\)\)\s*\*\s*0x94D049BB133111EB")  # the generator's mixing step (not a hash)
    copies = [p.relative_to(SRC) for p in [*SRC.rglob("*.c"), *SRC.rglob("*.h")] if step.search(p.read_text())]
    assert copies == [pathlib.Path("core/_rng.h")]
    drawing = {t.relative_to(SRC.resolve()).parts[1] for p, _, t in _c_includes() if t.name == "_rng.h"}
    users = {p.relative_to(SRC).parts[1] for p, _, t in _c_includes() if t.name == "_rng.h"}
    assert drawing == {"_rng.h"} and users == {"forma", "foldris", "quadefy", "qwirkle_cubes", "formfinity"}


def test_one_flood_fill_in_c() -> None:
    """The flood fills are written once, in core/_bits.h (bits_flood on a board with a row stride, as
    geometry.flood; bits_flood_layers on Quadefy's stack of layers): every other C function named for a flood
    fill only hands its boards to one (or to another such function)."""
    definition = re.compile(r"^\w[\w \*]*?\b(\w*flood\w*)\s*\(([^;{]*)\)\s*\{", re.M)
    bad, found = [], set()
    for path in sorted([*SRC.rglob("*.c"), *SRC.rglob("*.h")]):
        text = path.read_text(encoding="utf-8")
        for m in definition.finditer(text):
            name, depth, end = m.group(1), 1, m.end()
            while depth:  # the body: up to the brace that closes the function's
                depth += {"{": 1, "}": -1}.get(text[end], 0)
                end += 1
            found.add(name)
            calls = {c for c in re.findall(r"\b(\w*flood\w*)\s*\(", text[m.end() : end]) if c != name}
            if path.name != "_bits.h" and not calls:
                bad.append(f"{path.relative_to(SRC)}: {name} fills on its own")
    assert {"bits_flood", "bits_flood_layers", "forma_flood", "b_flood_to"} <= found
    uses = re.compile(r"\bbits_flood(_layers)?\(")
    c_files = [p for p in SRC.glob("games/*/*") if p.suffix in (".c", ".h")]
    users = {p.relative_to(SRC).parts[1] for p in c_files if uses.search(p.read_text(encoding="utf-8"))}
    assert users >= {"forma", "formfinity", "quadefy"}
    assert not bad, "\n".join(bad)


def test_no_private_cpython_in_c() -> None:
    """The kernels use the documented C API: no descriptor object's internals and no object's field reached
    by pointer arithmetic (a value class's fields are found in its member table and read and set through
    PyMember_GetOne and PyMember_SetOne, core/_codec.h), no private ``_Py`` function but in core/_pylong.h
    (ints as bytes before Python 3.13, the one place it is allowed)."""
    private = re.compile(
        r"\b(_Py[A-Za-z]\w*|PyMemberDescr\w*|d_member)\b|\(PyObject \*\*\)\s*\(\s*\((const )?char \*\)"
    )
    allowed = {pathlib.Path("core/_pylong.h")}
    bad = [
        f"{p.relative_to(SRC)}:{n}: {m.group(0)}"
        for p in sorted([*SRC.rglob("*.c"), *SRC.rglob("*.h")])
        if p.relative_to(SRC) not in allowed
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        for m in private.finditer(line.split("//")[0])
        if not line.lstrip().startswith(("*", "/*"))
    ]
    assert not bad, "private CPython internals outside core/_pylong.h:\n" + "\n".join(bad)


def test_rules_read_no_engine_flag() -> None:
    """The engine is chosen with the game object (``get_game(id, engine=...)``): no module-level flag, no
    module-dictionary switch, no extension looked up by rules code; a game with a kernel names it."""
    bad = []
    for path in sorted((SRC / "games").rglob("*.py")):
        tree = _tree(path)
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
            if name in ("EXT", "native_module", "pure_engine"):
                bad.append(f"{path.relative_to(SRC)}:{node.lineno} uses {name}")
    assert not bad, "\n".join(bad)
    from polytable.core import all_games

    kernels = {g.spec.id: g.compiled_kernel for g in all_games() if g.compiled_kernel}
    assert sorted(kernels) == ["foldris", "forma", "formfinity", "quadefy", "qwirkle-cubes"]


def _private_game_imports(root: pathlib.Path) -> set[tuple[str, str]]:
    """(test file, private module) for every import of ``polytable.games.<game>._<module>`` under ``root``."""
    out = set()
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(_tree(path)):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                private = parts[3].startswith("_") and not parts[3].startswith("__") if len(parts) >= 4 else False
                if private and parts[:2] == ["polytable", "games"]:
                    out.add((path.relative_to(root).as_posix(), ".".join(parts[:4])))
    return out


def test_private_imports_in_tests_are_the_listed_ones() -> None:
    """Tests go through a game's public face; the exceptions (kernel differential tests, and internals
    tests still to move) are listed in one place, tests/data/private_imports.txt, and the list is exact."""
    tests = pathlib.Path(__file__).parent.parent
    listed = set()
    for line in (tests / "data" / "private_imports.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, path, module = line.split()
            assert kind in ("differential", "internals"), line
            listed.add((path, module))
    found = _private_game_imports(tests)
    assert sorted(found - listed) == [], "a new private import in the tests: use the public API, or list it"
    assert sorted(listed - found) == [], "listed but no longer imported: remove the line"
