# hauntkeeper: a slim image that runs the bot as a non-root user.
# The SQLite database (and the heartbeat beside it) lives on the /data volume so games
# survive a new container. On PostgreSQL (HAUNTKEEPER_DB=postgresql://...) the heartbeat
# goes to the temporary folder, /tmp here: never to /app, which is root's. The bot and
# its HEALTHCHECK run in one container with one environment, so both find the same file;
# a `--shards` process writes <file>-shards-<range>, and `health` checks every beat.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HAUNTKEEPER_DB=/data/hauntkeeper.sqlite3

# DejaVu: the fonts the boards are drawn with (renderers/common.py finds them in
# /usr/share/fonts; without them a small built-in font is used).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 hauntkeeper \
    && mkdir -p /data && chown hauntkeeper:hauntkeeper /data

# A real (not editable) install: the code and data/ (as bot/data) go to site-packages.
# The sources are built elsewhere and removed: `python -m bot` run where a bot/ folder
# lies would import that folder instead of what the wheel installed.
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY renderers ./renderers
COPY data ./data
RUN pip install --no-cache-dir . \
    && rm -rf /src

# The working folder: a .env mounted here (/app/.env) is read.
WORKDIR /app

USER hauntkeeper
VOLUME ["/data"]

# `docker stop` sends this; the bot closes its store and Discord connection on it
# (bot/__main__.py handles SIGTERM itself: as PID 1, Python would otherwise ignore it
# and be killed ten seconds later).
STOPSIGNAL SIGTERM

# Healthy while the connected bot keeps writing its heartbeat (every 30 s). Nothing
# here restarts a dead bot: run it with `docker run --restart unless-stopped`.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
