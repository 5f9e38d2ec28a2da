"""Where the files that are not Python live: templates/, static/ and migrations/.

In an installed wheel they are inside the package (`app/templates`, `app/static`,
`app/migrations`: the build maps the top-level folders there, see pyproject.toml) and are
found through `importlib.resources`. In a source tree or an editable install they sit
beside the `app` package.
"""

from importlib.resources import files
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder `name` shipped with the package, else the one beside it in a source tree.

    :raises FileNotFoundError: when neither exists (a broken install).
    """
    candidates = [Path(str(files("app").joinpath(name))), PACKAGE_DIR.parent / name]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"{name}/ not found in any of: {tried} (a broken install?)")


def templates_dir() -> Path:
    return resource_dir("templates")


def static_dir() -> Path:
    return resource_dir("static")


def migrations_dir() -> Path:
    return resource_dir("migrations")


def locale_dir() -> Path:
    """The platform's translations (`<lang>.po`); each game has its own `locale/`."""
    return PACKAGE_DIR / "locale"
