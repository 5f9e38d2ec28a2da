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


GAMES = ("karanor", "darkroad")  # the games whose rules these two subcommands run


def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=GAMES, default="karanor", help="default karanor")
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument(
        "--players", type=int, default=4, help="players per game (Karanor 2-6, Dark Road 1-4)"
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--bots", choices=["random", "greedy"], default="random")
    parser.add_argument("--content", default="base", help="content pack (Karanor; default base)")
    parser.add_argument("--max-rounds", type=int, default=80, help="stop a game after N rounds")
    parser.add_argument("--stats", action="store_true", help="also print scores and tallies")


def _simulate(args: argparse.Namespace) -> int:
    import json

    low, high = (1, 4) if args.game == "darkroad" else (2, 6)
    if not low <= args.players <= high or args.games < 1:
        print(
            f"karanor simulate: --players must be {low}-{high} and --games at least 1",
            file=sys.stderr,
        )
        return 2
    if args.game == "darkroad":
        from app.darkroad.simulate import simulate as simulate_darkroad

        result = simulate_darkroad(args.games, args.players, args.bots, args.seed, stats=args.stats)
    else:
        from app.karanor.simulate import simulate

        result = simulate(
            args.games, args.players, seed=args.seed, kind=args.bots, content=args.content,
            max_rounds=args.max_rounds, stats=args.stats,
        )  # fmt: skip
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _content_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=GAMES, default="karanor", help="default karanor")
    parser.add_argument("pack", nargs="?", default="base", help="content pack (default base)")


def _content(args: argparse.Namespace) -> int:
    import json

    if args.game == "darkroad":
        from app.darkroad import content as darkroad

        try:
            counts = darkroad.counts(darkroad.load(args.pack))
        except darkroad.ContentError as e:
            print(f"karanor content: {e}", file=sys.stderr)
            return 1
        print(json.dumps(counts))
        return 0
    from app.karanor.content import ContentError, load_pack

    try:
        content = load_pack(args.pack)
    except ContentError as e:
        print(f"karanor content: {e}", file=sys.stderr)
        return 1
    print(json.dumps(content.counts()))
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
        report = backup(url, path)
    except BackupError as error:
        print(f"karanor backup: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report.as_json()))
    return 0


def _restore_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a file written by `karanor backup`")


def _restore(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from app.config import get_settings
    from app.store.backup import BackupError, restore

    try:
        report = restore(get_settings().database_url, Path(args.file))
    except BackupError as error:
        print(f"karanor restore: {error}", file=sys.stderr)
        return 1
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
    Subcommand("restore", "load a backup into an empty database", _restore, _restore_arguments),
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
