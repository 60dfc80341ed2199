"""The built-in games. Importing this package registers each of them with the kernel's registry.

Each game is a subpackage (or module) here that calls ``polytable.core.register`` at import; they are
found automatically, so adding a game needs no edit elsewhere. Rules modules are pure: they import only
``polytable.core`` and ``polytable.geometry`` (a test enforces it).
"""

import importlib as _importlib
import pkgutil as _pkgutil

for _info in sorted(_pkgutil.iter_modules(__path__), key=lambda i: i.name):
    if not _info.name.startswith("_"):
        _importlib.import_module(f"{__name__}.{_info.name}")
