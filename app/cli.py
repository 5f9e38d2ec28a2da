"""The `karanor` command line.

Each subcommand is one `Subcommand` in `SUBCOMMANDS`: a name, a help line, a
function adding its arguments, and a function running it that returns the exit
code. To add one, write those two functions (import heavy modules inside `run`
so other subcommands stay fast) and append a `Subcommand` to the list.
"""

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app import __version__


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    del parser


@dataclass(frozen=True)
class Subcommand:
    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments


# ------------------------------------------------------------------ serve


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="interface to listen on (default: $HOST or 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (default: $PORT or 8000)")


def _serve(args: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.server import serve
    from app.store.migrate import MigrationFailed

    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    try:
        serve(get_settings().model_copy(update=overrides))
    except MigrationFailed as error:  # the migration's own error is printed above
        print(f"karanor: {error}", file=sys.stderr)
        return error.status
    return 0


# ------------------------------------------------------------------ db


def _db_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="db_action", required=True, metavar="ACTION")
    actions.add_parser("upgrade", help="migrate the database to the latest schema")
    actions.add_parser("current", help="print the database's schema revision")
    down = actions.add_parser("downgrade", help="migrate the database down to REVISION")
    down.add_argument("revision", help='target revision, e.g. "base"')


def _db(args: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.store import migrate

    url = get_settings().database_url
    if args.db_action == "upgrade":
        migrate.upgrade(url)
    elif args.db_action == "downgrade":
        migrate.downgrade(url, args.revision)
    print(f"database at revision {migrate.current_revision(url) or 'base'}")
    return 0


# ------------------------------------------------------------------ simulate, content


def _game_names() -> list[str]:
    from app.games import registry

    return [g.id for g in registry.games()]


def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help="a hosted game's id (default: the first)")
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="players per game (each game's range; default 4, or one per --bots level)",
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--bots",
        default="random",
        help="a bot level for every seat (easy, normal, hard; random, greedy) or a comma"
        " list, one per seat",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="the searching bot's most seconds per decision (a room's setting; its designed"
        " tries otherwise)",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="the searching bot's tries per decision (default: the bot's own)",
    )
    parser.add_argument("--content", default=None, help="content pack (default: the game's)")
    parser.add_argument("--max-rounds", type=int, default=80, help="stop a game after N rounds")
    parser.add_argument("--stats", action="store_true", help="also print scores and tallies")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes sharing the games (default 1; the same games and figures, but the"
        " speed's: wall clock shared, CPU time summed); not with --stats",
    )


def _pick_game(name: str | None, command: str) -> Any:
    """The hosted game `name` (None: the default), or None after saying which exist."""
    from app.games import registry

    game = registry.get(name) if name else registry.games()[0]
    if game is None:
        print(f"karanor {command}: no game {name!r} (hosted: {', '.join(_game_names())})",
              file=sys.stderr)  # fmt: skip
        return None
    return game


def _simulate(args: argparse.Namespace) -> int:
    import json

    game = _pick_game(args.game, "simulate")
    if game is None:
        return 2
    kinds = [k.strip() for k in args.bots.split(",")]
    if args.players is None:
        args.players = len(kinds) if len(kinds) > 1 else 4
    low, high = game.min_players, game.max_players
    if not low <= args.players <= high or args.games < 1:
        print(
            f"karanor simulate: --players must be {low}-{high} and --games at least 1",
            file=sys.stderr,
        )
        return 2
    if any(k not in game.bot_kinds for k in kinds) or len(kinds) not in (1, args.players):
        print(f"karanor simulate: --bots must be one of {', '.join(game.bot_kinds)}"
              " or a comma list of them, one per player", file=sys.stderr)  # fmt: skip
        return 2
    if args.jobs < 1 or (args.jobs > 1 and args.stats):
        print("karanor simulate: --jobs must be at least 1, and 1 with --stats (tallied in"
              " one process)", file=sys.stderr)  # fmt: skip
        return 2
    budget = None
    if args.budget is not None or args.iterations is not None:
        from app.games.kit.search import Budget

        # No --iterations: the bot's designed count, capped by --budget, as a room plays.
        budget = Budget(args.iterations, args.budget)
    result = game.simulate(
        args.games, args.players, seed=args.seed, bots=args.bots, content=args.content,
        max_rounds=args.max_rounds, stats=args.stats, budget=budget, jobs=args.jobs,
    )  # fmt: skip
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _content_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help="a hosted game's id (default: the first)")
    parser.add_argument("pack", nargs="?", default=None, help="content pack (default: the game's)")


def _content(args: argparse.Namespace) -> int:
    import json

    game = _pick_game(args.game, "content")
    if game is None:
        return 2
    try:
        counts = game.content_counts(args.pack or game.content_pack)
    except ValueError as e:
        print(f"karanor content: {e}", file=sys.stderr)
        return 1
    print(json.dumps(counts))
    return 0


# ------------------------------------------------------------------ export


def _export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", help="the room code")


def _export(args: argparse.Namespace) -> int:
    import orjson

    from app.config import get_settings
    from app.rooms.export import export_room
    from app.store.db import create_db_engine

    settings = get_settings()
    engine = create_db_engine(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
    try:
        data = export_room(engine, args.code)
    except LookupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


# ------------------------------------------------------------------ cleanup


def _cleanup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dry-run", action="store_true", help="list the rooms that would go; delete nothing"
    )


def _cleanup(args: argparse.Namespace) -> int:
    import json

    from app.config import get_settings
    from app.rooms.cleanup import cleanup
    from app.store.db import create_db_engine

    settings = get_settings()
    engine = create_db_engine(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
    try:
        report = cleanup(
            engine,
            finished_days=settings.finished_retention_days,
            idle_days=settings.idle_retention_days,
            dry_run=args.dry_run,
        )
    finally:
        engine.dispose()
    print(json.dumps(report.as_json()))
    return 0


# ------------------------------------------------------------------ backup, restore


def _backup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        help="where to write it (default: $KARANOR_DATA_DIR/backups/karanor-DATE-TIME.db, "
        "or .jsonl.gz on PostgreSQL)",
    )


def _backup(args: argparse.Namespace) -> int:
    import json
    from datetime import datetime
    from pathlib import Path

    from app.config import get_settings
    from app.store.backup import BackupError, backup, default_backup_name

    settings = get_settings()
    url = settings.database_url
    name = default_backup_name(url, datetime.now())
    path = Path(args.file) if args.file else settings.data_dir / "backups" / name
    try:
        report = backup(url, path, settings.backed_up_files)
    except BackupError as error:
        print(f"karanor backup: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report.as_json()))
    return 0


def _restore_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "backup",
        nargs="?",
        help="a file written by `karanor backup`, or the number `karanor restore` lists "
        "(without it: list the backups, newest first)",
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="SQLite, server stopped: move the current database aside first "
        "(the file renamed with .replaced-DATE) instead of refusing a database that is not empty",
    )


def _restore(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from app.config import get_settings
    from app.store import rolling
    from app.store.backup import BackupError, restore

    settings = get_settings()
    folders = dict.fromkeys([settings.backup_dir, settings.data_dir / "backups"])
    found = sorted(
        (b for folder in folders for b in rolling.list_backups(folder)),
        key=lambda b: b.taken,
        reverse=True,
    )
    if args.backup is None:
        for number, b in enumerate(found, start=1):
            kind = "rolling" if b.automatic else "yours"
            print(
                f"{number:3}  {b.taken:%Y-%m-%d %H:%M}  {b.size / 1e6:8.1f} MB  {kind:7}  {b.path}"
            )
        if not found:
            print(f"no backups in {', '.join(str(f) for f in folders)}")
        return 0
    path = Path(args.backup)
    if args.backup.isdigit() and not path.exists():
        if not 1 <= int(args.backup) <= len(found):
            print(
                f"karanor restore: no backup {args.backup} (see `karanor restore`)", file=sys.stderr
            )
            return 1
        path = found[int(args.backup) - 1].path
    aside = None
    if args.replace:
        if settings.sqlite_path is None:
            print("karanor restore: --replace is for SQLite only", file=sys.stderr)
            return 2
        aside = rolling.set_aside(settings.sqlite_path)
    try:
        report = restore(settings.database_url, path, settings.backed_up_files)
    except BackupError as error:
        if aside is not None and settings.sqlite_path is not None:
            rolling.put_back(aside, settings.sqlite_path)  # as it was
        print(f"karanor restore: {error}", file=sys.stderr)
        return 1
    if aside is not None:
        print(f"the database it replaced was moved to {aside}", file=sys.stderr)
    for kept in report.set_aside:
        print(f"the file it replaced was moved to {kept}", file=sys.stderr)
    print(json.dumps(report.as_json()))
    return 0


SUBCOMMANDS: list[Subcommand] = [
    Subcommand("serve", "serve pages, API and WebSockets", _serve, _serve_arguments),
    Subcommand("db", "database schema: upgrade | current | downgrade", _db, _db_arguments),
    Subcommand(
        "backup",
        "copy the database, consistently, while the server runs",
        _backup,
        _backup_arguments,
    ),
    Subcommand(
        "restore",
        "list the backups, or load one into an empty database",
        _restore,
        _restore_arguments,
    ),
    Subcommand(
        "export", "print a room, its seats and its full log as JSON", _export, _export_arguments
    ),
    Subcommand(
        "cleanup",
        "delete rooms past their retention (run `karanor export CODE` first to keep one)",
        _cleanup,
        _cleanup_arguments,
    ),
    Subcommand("simulate", "play whole games between bots", _simulate, _simulate_arguments),
    Subcommand("content", "validate a content pack and count it", _content, _content_arguments),
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="karanor", description="Karanor Online server.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for sub in SUBCOMMANDS:
        sub_parser = subparsers.add_parser(sub.name, help=sub.help, description=sub.help)
        sub.add_arguments(sub_parser)
        sub_parser.set_defaults(run=sub.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from app.store.db import MissingDriver

    args = build_parser().parse_args(argv)
    try:
        result: int = args.run(args)
    except MissingDriver as error:
        print(f"karanor: {error}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
