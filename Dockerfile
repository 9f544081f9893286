# hauntkeeper: a slim image that runs the bot as a non-root user.
# The SQLite database lives on the /data volume so games survive a new container.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HAUNTKEEPER_DB=/data/hauntkeeper.sqlite3

RUN useradd --create-home --uid 10001 hauntkeeper \
    && mkdir -p /data && chown hauntkeeper:hauntkeeper /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY renderers ./renderers
COPY data ./data
RUN pip install --no-cache-dir -e .

USER hauntkeeper
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
