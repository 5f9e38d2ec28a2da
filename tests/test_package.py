"""The wheel is the whole program: built from the checkout, installed into a fresh virtualenv
outside it, `karanor serve` started from an empty folder plays a game through the API
(pages, static files and migrations come from the installed package; the database goes to
the per-user data folder)."""

import os
import random
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.server import REPO_ROOT, free_port
from tests.ops.play import open_table, try_one_command, view


def run(*command: str | Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, check=False, **kwargs
    )
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheels")
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
        "-w", out, REPO_ROOT, timeout=300)  # fmt: skip
    (built,) = out.glob("karanor_online-*.whl")
    return built


def test_the_wheel_holds_pages_static_files_and_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    tree = {
        "templates": REPO_ROOT / "templates",
        "static": REPO_ROOT / "static",
        "migrations": REPO_ROOT / "migrations",
    }
    for folder, source in tree.items():
        for path in source.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                assert f"app/{folder}/{path.relative_to(source).as_posix()}" in names
    assert any(n.startswith("app/karanor/content/base/") and n.endswith(".yaml") for n in names)
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "karanor = app.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv outside the checkout with the wheel installed (its dependencies
    come from the package index)."""
    root = tmp_path_factory.mktemp("venv")
    assert REPO_ROOT not in root.parents
    base_python = getattr(sys, "_base_executable", sys.executable)
    run(base_python, "-m", "venv", root, timeout=120)
    run(root / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check",
        wheel, timeout=600)  # fmt: skip
    return root


def clean_env(home: Path) -> dict[str, str]:
    """This environment without anything that points back at the checkout or its settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("KARANOR_", "PYTHON", "VIRTUAL_ENV", "XDG_"))
        and k not in ("DATABASE_URL", "REDIS_URL", "HOST", "PORT")
    }
    return {**env, "HOME": str(home), "KARANOR_BOT_DELAY_SECONDS": "0"}


@pytest.fixture
def installed_server(venv: Path, tmp_path: Path) -> Iterator[tuple[str, Path, dict[str, str]]]:
    home, empty = tmp_path / "home", tmp_path / "empty"
    home.mkdir()
    empty.mkdir()
    env = clean_env(home)
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [str(venv / "bin" / "karanor"), "serve", "--port", str(port)],
        cwd=empty,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        yield base, empty, env
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="checks the XDG data folder")
def test_installed_wheel_serves_and_plays_from_an_empty_folder(
    venv: Path, installed_server: tuple[str, Path, dict[str, str]]
) -> None:
    base, empty, env = installed_server
    # The program that answers is the installed one, not the checkout.
    where = run(
        venv / "bin" / "python", "-c", "import app; print(app.__file__)", env=env, cwd=empty
    )
    assert Path(where.stdout.strip()).is_relative_to(venv)
    # A SQLite server installs no PostgreSQL driver (an extra: not every machine has its
    # binary wheels).
    driver = run(
        venv / "bin" / "python",
        "-c",
        "import importlib.util; print(importlib.util.find_spec('psycopg') is None)",
        env=env,
        cwd=empty,
    )
    assert driver.stdout.strip() == "True"

    with httpx.Client(base_url=base, timeout=15) as http:
        assert http.get("/").status_code == 200  # a page (templates from the package)
        assert http.get("/static/css/base.css").status_code == 200
        table = open_table(http, humans=1, bots=1)
        rng = random.Random(5)
        accepted = 0
        deadline = time.monotonic() + 90
        while accepted < 4:
            assert time.monotonic() < deadline, view(http, table)
            if try_one_command(http, table, rng) is not None:
                accepted += 1
            elif view(http, table)["status"] != "playing":
                break
        assert accepted >= 3
        assert view(http, table)["version"] >= accepted

    database = Path(env["HOME"]) / ".local" / "share" / "karanor" / "karanor.db"
    assert database.is_file()
    assert list(empty.iterdir()) == []  # nothing written where it was started

    # And the installed `karanor backup` copies it while it runs.
    copy = empty.parent / "backup.db"
    run(venv / "bin" / "karanor", "backup", copy, env=env, cwd=empty)
    assert copy.read_bytes().startswith(b"SQLite format 3\x00")
