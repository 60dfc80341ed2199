"""The built-in games, one subpackage each.

The kernel's registry finds every subpackage here by name and imports it; the package registers its game
(``register(GAME)``) and exports its public face from its ``__init__.py``. Rules modules are pure: they
import only ``polytable.core`` and ``polytable.geometry`` (tests/kernel/test_architecture.py enforces it,
and that nothing outside a game imports the game's private ``_`` modules).
"""
