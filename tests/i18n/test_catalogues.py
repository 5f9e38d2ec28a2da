"""Every message of the sources has its French text, with the same {parameters}
(scripts/i18n.py: `update` adds new messages to the .po files, `check` lists these)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_message_has_its_french_text() -> None:
    problems = tool().problems()
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


def test_the_catalogues_are_found_and_read() -> None:
    # Extraction works: the shell's own i18n module marks none, the catalogues exist.
    t = tool()
    for domain in t.DOMAINS:
        assert (domain.locale / "fr.po").is_file(), domain.locale
