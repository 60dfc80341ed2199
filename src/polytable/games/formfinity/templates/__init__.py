"""The shipped FORMFINITY templates, as text in the template format (see ``_template.py``).

Why Python constants and not data files: rules code does no I/O, so the templates are embedded here; the
``.txt`` files beside this module are the same templates for people to print, copy and edit (a test
checks that both agree). Sizes were chosen by simulation (see docs/games/formfinity.md).
"""

from __future__ import annotations

__all__ = ["TEMPLATES", "TEMPLATE_NAMES"]

VARIANT_1 = """\
; FORMFINITY variant 1: squares in a line (14 x 14, 10 black squares)
. . . . . . # . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . # . . . . . . # . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . # . . . . . . #
# . . . . . . # . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . # . . . . . . # . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . # . . . . . .
"""

VARIANT_2 = """\
; FORMFINITY variant 2: fill the area (12 x 12, 12 areas A-L, 5 black squares)
A A A B B B B C C C C C
A A A B B B B C C C C C
A A A B B B B D D C C C
E E A A # F F D D D D D
E E E E F F F F D D # D
E E E E F F F F G G G G
H H # E F F F I I G G G
H H H H H I I I I G G G
H H H H J J I I I I # K
L L L J J J J K K K K K
L L L J J J J K K K K K
L L L L J J # K K K K K
"""

VARIANT_3 = """\
; FORMFINITY variant 3: black squares (11 x 15). Player 1 starts at the lower *, player 2 at the upper *.
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . * . . . . .
. . . . . . . . . . .
. # . . . . . . . # .
. . . . . . . . . . .
. . . . # . # . . . .
. . . . . . . . . . .
. # . . . . . . . # .
. . . . . . . . . . .
. . . . . * . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
"""

VARIANT_4 = """\
; FORMFINITY variant 4: connect the numbers (12 x 12, numbers 1-11: an odd count, so no tie)
. . . . . . . . . . . .
. . 4 . . . . . . 7 . .
. . . . . . . . . . . .
. . . . . # . . . . . .
. . . . . . . . 2 . . .
. 9 . . 1 . . . . . . 5
. . . . . . . # . . . .
. . . . . . . . . . . .
. . . 3 . . . . . 10 . .
. . . . . # . . . . . .
. 6 . . . . . . . . . .
. . . . 11 . . . 8 . . .
"""

BLANK = """\
; FORMFINITY blank template (14 x 14): for your own variants
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
"""

TEMPLATES: dict[str, str] = {"1": VARIANT_1, "2": VARIANT_2, "3": VARIANT_3, "4": VARIANT_4, "blank": BLANK}
"""Template name (variant number or ``blank``) -> template text."""
TEMPLATE_NAMES = tuple(TEMPLATES)
