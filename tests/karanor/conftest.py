"""Fixtures of the engine rule tests: the mini pack and ready-made positions.

The helpers themselves live in `tests/karanor/scenario.py` (plain functions, so
tests can also call them with arguments: `scenario(3, public_quests=True)`).
"""

from __future__ import annotations

import pytest

from app.karanor.content import Content
from app.karanor.state import State
from tests.karanor.scenario import MINI, scenario


@pytest.fixture
def mini() -> Content:
    """The small test content pack (every construct of the effect language)."""
    return MINI


@pytest.fixture
def s2() -> State:
    """Two players after the draft, blank slates, seat 0 to play (4 actions)."""
    return scenario(2)


@pytest.fixture
def s3() -> State:
    """Three players after the draft, blank slates, seat 0 to play."""
    return scenario(3)


@pytest.fixture
def s4() -> State:
    """Four players after the draft (4+ cards in play), blank slates, seat 0 to play."""
    return scenario(4)
