"""Architecture rules that keep the codebase honest: pure rules, a small public API."""

from __future__ import annotations

import ast
import pathlib

import polytable
import polytable.core
import polytable.geometry

SRC = pathlib.Path(polytable.__file__).parent


def _imports(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
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
        tree = ast.parse(text)
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


def test_modules_stay_small() -> None:
    big = []
    for path in SRC.rglob("*.py"):
        n = path.read_text(encoding="utf-8").count("\n")
        if n > 1000:
            big.append(f"{path.relative_to(SRC)}: {n} lines")
    assert not big, "split these modules:\n" + "\n".join(big)
