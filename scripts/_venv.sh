# Sourced by scripts/serve and scripts/test: make sure .venv exists and holds the
# package (editable) with the requested extra. Re-installs only when pyproject.toml
# is newer than the stamp left by the last successful install.
#   ensure_venv ""      runtime dependencies
#   ensure_venv test    runtime + test dependencies

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${KARANOR_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"

ensure_venv() {
    local extra="$1" stamp target
    if [ ! -x "$VENV/bin/python" ]; then
        if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
            echo "error: $PYTHON is older than Python 3.11 (set PYTHON=...)" >&2
            return 1
        fi
        echo "creating $VENV" >&2
        "$PYTHON" -m venv "$VENV"
    fi
    stamp="$VENV/.karanor-installed${extra:+-$extra}"
    # The test install includes everything the plain one has.
    if [ -z "$extra" ] && [ -f "$VENV/.karanor-installed-test" ] \
        && [ "$VENV/.karanor-installed-test" -nt "$ROOT/pyproject.toml" ]; then
        return 0
    fi
    if [ -f "$stamp" ] && [ "$stamp" -nt "$ROOT/pyproject.toml" ]; then
        return 0
    fi
    target="$ROOT${extra:+[$extra]}"
    echo "installing $target into $VENV" >&2
    # -qq: keep pip's notices about optional local package folders out of the log.
    "$VENV/bin/python" -m pip install -qq --disable-pip-version-check -e "$target"
    touch "$stamp"
}
