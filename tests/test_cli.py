"""`karanor serve` as a real process; `karanor db upgrade`; the subcommand registry."""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from app import cli
from app.store import migrate
from tests.helpers.server import REPO_ROOT, ServerProcess


@pytest.mark.slow
def test_serve_creates_sqlite_database_and_answers_healthz(
    tmp_path: Path, server_factory: Callable[..., ServerProcess]
) -> None:
    data_dir = tmp_path / "fresh-data"
    server = server_factory(env={"KARANOR_DATA_DIR": str(data_dir), "DATABASE_URL": None})

    server.start()
    assert (data_dir / "karanor.db").is_file()
    assert httpx.get(server.url + "/healthz").json() == {"status": "ok"}
    assert f"http://127.0.0.1:{server.port}/" in server.log_text()

    # A crash, then a restart on the same port and database.
    server.kill()
    assert not server.running
    server.start()
    assert httpx.get(server.url + "/healthz").status_code == 200
    assert migrate.current_revision(f"sqlite:///{data_dir / 'karanor.db'}") is not None


@pytest.mark.slow
def test_serve_on_given_database(
    database_url: str, server_factory: Callable[..., ServerProcess]
) -> None:
    with server_factory(env={"DATABASE_URL": database_url}) as server:
        assert httpx.get(server.url + "/healthz").json() == {"status": "ok"}
    assert migrate.current_revision(database_url) == migrate.head_revision()


def test_db_upgrade_command(tmp_path: Path) -> None:
    env = {**os.environ, "KARANOR_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "db", "upgrade"],
        cwd=tmp_path,  # any working directory will do
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert str(migrate.head_revision()) in result.stdout
    assert (tmp_path / "karanor.db").is_file()


def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    names = [sub.name for sub in cli.SUBCOMMANDS]
    assert {"serve", "db", "backup", "restore"} <= set(names)
    assert len(names) == len(set(names))
    for name in names:
        with pytest.raises(SystemExit) as exit_info:
            cli.main([name, "--help"])
        assert exit_info.value.code == 0
    assert "usage: karanor" in capsys.readouterr().out


def test_console_script_is_declared() -> None:
    assert 'karanor = "app.cli:main"' in (REPO_ROOT / "pyproject.toml").read_text()


def test_simulate_and_content_take_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    """`karanor simulate --game ID` and `karanor content --game ID` (API.md, Running): every
    hosted game through the registry, its own player range and bot kinds; the last line
    is JSON; `--game` defaults to the default game (Karanor)."""
    import json

    from app.cli import main
    from app.games import registry
    from app.games.kit import KitGame

    def last() -> dict[str, object]:
        out: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        return out

    for game in registry.games():
        argv = ["simulate", "--game", game.id, "--games", "2", "--players"]
        assert main([*argv, str(game.min_players), "--bots", game.bot_kinds[0]]) == 0
        figures = last()
        assert (figures["games"], figures["finished"]) == (2, 2) and figures["commands"]
        assert main([*argv, str(game.max_players + 1)]) == 2
        assert main([*argv, str(game.min_players), "--bots", "clever"]) == 2
    assert main(["content"]) == 0
    assert last()["quests"] == 50
    assert main(["simulate", "--games", "1", "--players", "2"]) == 0
    assert last()["finished"] == 1
    # Levels per seat (issue 30): wins per seat with intervals, the search's decision times.
    argv = ["simulate", "--game", "darkroad", "--games", "1", "--bots", "hard,normal"]
    assert main([*argv, "--iterations", "2", "--budget", "5"]) == 0
    figures = last()
    assert figures["players"] == 2 and sum(figures["wins"]) == 1  # type: ignore[arg-type]
    assert len(figures["win_share_ci95"]) == 2  # type: ignore[arg-type]
    assert {"p50", "p95"} <= set(figures["decision_ms"])  # type: ignore[arg-type]
    assert main(["simulate", "--bots", "hard,greedy", "--players", "3"]) == 2
    # Games shared among processes: the same games (tests/games/test_kit.py).
    assert main(["simulate", "--games", "2", "--bots", "greedy", "--jobs", "2"]) == 0
    figures = last()
    assert (figures["jobs"], figures["finished"]) == (2, 2)
    assert main(["simulate", "--games", "2", "--jobs", "2", "--stats"]) == 2
    assert "--jobs must be at least 1, and 1 with --stats" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--jobs", "0"]) == 2
    assert main(["content", "--game", "chess"]) == 2
    assert "no game 'chess'" in capsys.readouterr().err
    if isinstance(registry.get("darkroad"), KitGame):  # Dark Road on the kit counts its pack
        assert main(["content", "--game", "darkroad"]) == 0
        assert last() == {
            "heroes": 48, "companions": 22, "steeds": 7, "deeds": 19, "events": 26,
            "commissions": 30, "buildings": 10, "upgrades": 6,
        }  # fmt: skip


def test_the_command_line_names_no_game() -> None:
    """Only the registry names games (docs/architecture.md): the CLI asks it."""
    text = (REPO_ROOT / "app" / "cli.py").read_text()
    for name in ("darkroad", "dark road", "app.karanor", "karanor.", "Merchants"):
        assert name not in text.lower(), name


# psycopg is an extra (`karanor-online[postgres]`): a server on PostgreSQL without it says
# what to install, for `serve` as for every command that opens the database.
NO_DRIVER = """
import sys
sys.modules["psycopg"] = None  # as if the extra were not installed
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", [["db", "upgrade"], ["serve", "--port", "0"]])
def test_postgresql_without_its_driver_says_what_to_install(command: list[str]) -> None:
    env = {**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"}
    out = subprocess.run(
        [sys.executable, "-c", NO_DRIVER, *command],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2, out.stderr
    assert "pip install 'karanor-online[postgres]'" in out.stderr
    assert "Traceback" not in out.stderr
