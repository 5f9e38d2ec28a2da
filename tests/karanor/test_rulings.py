"""docs/rulings.md against the rulebook's open questions and the tests it names.

Every open question of `karanor-open-questions.md` has its ruling (same number), every
ruling R1..Rn names at least one test as `file::function` (paths under tests/karanor/), every
named test exists, and each ruling is cited (its R-number) in the docstring of the tests that
pin it, as the house style asks of a rule test.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rulings.md"
TESTS = ROOT / "tests" / "karanor"
# The open questions live beside the rulebook, outside the repository (shared/rules/).
QUESTIONS = ROOT.parent / "shared" / "rules" / "karanor-open-questions.md"
OPEN_QUESTIONS = 25  # numbered 1-25 in karanor-open-questions.md; R26 and later are our own

ROW = re.compile(r"^\| (R(\d+)[a-z]?) \|(.*)\|\s*$")
REF = re.compile(r"`((?:\w+/)*test_\w+\.py)::(test_\w+)`")


def _rulings() -> dict[str, list[tuple[str, str]]]:
    """Each ruling's id (R1, R13c, ...) and the tests its row names."""
    out: dict[str, list[tuple[str, str]]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            assert m.group(1) not in out, f"{m.group(1)} twice"
            out[m.group(1)] = REF.findall(m.group(3))
    return out


@functools.cache
def _docstrings(file: str) -> dict[str, str]:
    tree = ast.parse((TESTS / file).read_text(encoding="utf-8"))
    return {
        n.name: ast.get_docstring(n) or ""
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def test_every_ruling_names_existing_tests() -> None:
    """docs/rulings.md: R1..Rn without a gap, each naming at least one test that exists and
    whose docstring cites that ruling (R12 is cited by "R12" or "R12b", R13c only by
    "R13c")."""
    rulings = _rulings()
    numbers = sorted({int(re.sub(r"\D", "", r)) for r in rulings})
    assert numbers == list(range(1, numbers[-1] + 1)), f"rulings numbered {numbers}"
    for rid, refs in rulings.items():
        assert refs, f"{rid} names no test (file::function)"
        cite = re.compile(rf"\b{rid}\b" if rid[-1].isalpha() else rf"\b{rid}[a-z]?\b")
        for file, name in refs:
            assert (TESTS / file).is_file(), f"{rid}: no file tests/karanor/{file}"
            docs = _docstrings(file)
            assert name in docs, f"{rid}: no test {file}::{name}"
            assert cite.search(docs[name]), f"{rid}: {file}::{name} does not cite {rid}"


def test_every_open_question_has_its_ruling() -> None:
    """karanor-open-questions.md: each numbered question n is decided by ruling Rn."""
    rulings = _rulings()
    for n in range(1, OPEN_QUESTIONS + 1):
        assert f"R{n}" in rulings, f"open question {n} has no ruling R{n}"
    if not QUESTIONS.is_file():
        pytest.skip(f"{QUESTIONS} is not here (only the numbers 1-{OPEN_QUESTIONS} checked)")
    text = QUESTIONS.read_text(encoding="utf-8")
    asked = [int(n) for n in re.findall(r"^(\d+)\. ", text, re.MULTILINE)]
    assert asked == list(range(1, OPEN_QUESTIONS + 1)), "the open questions changed"
