"""Every string in a JSON-like value: the property tests look for secrets in views."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def strings(obj: Any) -> Iterator[str]:
    """Every string of `obj` (dict keys included), depth first."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from strings(v)
