"""Fixtures of the content tests: the base pack, and copies of packs to break."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.karanor.content import PACKS_DIR, Content, load


@pytest.fixture(scope="session")
def base() -> Content:
    return load("base")


class PackCopy:
    """A copy of a pack in a temporary folder, with helpers to edit its YAML."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def read(self, file: str) -> Any:
        return yaml.safe_load((self.folder / file).read_text(encoding="utf-8"))

    def write(self, file: str, data: Any) -> None:
        (self.folder / file).write_text(
            yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8"
        )

    def edit(self, file: str, change: Callable[[Any], None]) -> None:
        data = self.read(file)
        change(data)
        self.write(file, data)

    def entry(self, data: Any, key: str, ident: str) -> dict[str, Any]:
        return next(e for e in data[key] if e["id"] == ident)


@pytest.fixture
def pack_copy(tmp_path: Path) -> Callable[[str], PackCopy]:
    """`pack_copy("base")`: the base pack copied to tmp_path/base (the folder keeps its
    name, so the component counts are checked as for the real base pack)."""

    def make(name: str) -> PackCopy:
        dest = tmp_path / name
        shutil.copytree(PACKS_DIR / name, dest)
        return PackCopy(dest)

    return make
