FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    KARANOR_ROOT=/srv/karanor \
    KARANOR_DATA_DIR=/data

WORKDIR /srv/karanor
# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install .
# alembic.ini, migrations, templates and static are read from KARANOR_ROOT.
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static

RUN useradd --system --home-dir /srv/karanor karanor \
    && mkdir -p /data && chown karanor /data
USER karanor
VOLUME ["/data"]
EXPOSE 8000
CMD ["karanor", "serve", "--host", "0.0.0.0", "--port", "8000"]
