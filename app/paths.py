"""Where the project's non-Python files live (alembic.ini, migrations/, templates/, static/).

They sit beside the `app` package in a source tree or editable install. A plain
`pip install .` puts `app` in site-packages without them; then the current
directory, or `KARANOR_ROOT`, is the project root (the Docker image sets it).
"""

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def project_root() -> Path:
    """Return the folder holding alembic.ini, migrations/, templates/ and static/.

    :raises FileNotFoundError: when no candidate folder holds alembic.ini.
    """
    candidates = []
    if env_root := os.environ.get("KARANOR_ROOT"):
        candidates.append(Path(env_root))
    candidates += [PACKAGE_DIR.parent, Path.cwd()]
    for candidate in candidates:
        if (candidate / "alembic.ini").is_file():
            return candidate.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"alembic.ini not found in any of: {tried}; set KARANOR_ROOT")


def templates_dir() -> Path:
    return project_root() / "templates"


def static_dir() -> Path:
    return project_root() / "static"
