"""Shared test set-up: the kernel's toy game is registered for the whole test session."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from kernel.toy import ToyGame
from polytable.core import register

register(ToyGame())
