# Karanor Online: the wheel, installed, and nothing else.
#   docker build -t karanor-online .
#   docker run -p 8000:8000 -v karanor-data:/data karanor-online

# 1. Build the wheel (pages, static files and migrations are inside it).
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# 2. Install it.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    KARANOR_DATA_DIR=/data
COPY --from=wheel /wheels /wheels
# With the PostgreSQL driver (the `postgres` extra): the image serves SQLite or PostgreSQL.
RUN set -- /wheels/*.whl && pip install "$1[postgres]" && rm -rf /wheels
RUN useradd --system --home-dir /data karanor \
    && mkdir -p /data && chown karanor /data
USER karanor
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
CMD ["karanor", "serve", "--host", "0.0.0.0", "--port", "8000"]
