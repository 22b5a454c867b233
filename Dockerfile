# Podkeeper's container image, built on the wheel: the first stage builds the wheel from the source (assets
# mapped into the package, as for any install), the second installs only that wheel and its dependencies.
# Build and run: docs/operators/deploy.md (`docker compose up -d` with compose.yaml runs it with PostgreSQL).
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in README.md LICENSE CHANGELOG.md config.example.toml ./
COPY bot ./bot
COPY cogs ./cogs
COPY assets ./assets
RUN python -m pip wheel --no-cache-dir --no-deps --wheel-dir /dist .

FROM python:3.11-slim
# A user of its own (no root in the running bot) and /data for the SQLite database when no PostgreSQL
# is configured; the message catalogue's cache goes to a folder that user may write.
RUN useradd --create-home --uid 10001 podkeeper && mkdir /data && chown podkeeper:podkeeper /data
COPY --from=wheel /dist /dist
RUN python -m pip install --no-cache-dir /dist/podkeeper-*.whl && rm -rf /dist
USER podkeeper
WORKDIR /data
ENV PODKEEPER_DATABASE_PATH=/data/podkeeper.sqlite3 \
    PODKEEPER_CACHE_DIR=/home/podkeeper/.cache/podkeeper \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
# The live pages, when [web] enabled (set PODKEEPER_WEB_HOST=0.0.0.0 inside a container).
EXPOSE 8737
# SIGTERM: the bot stops taking commands, lets the running ones finish ([discord] shutdown_wait_seconds),
# then closes the database; the orchestrator's stop timeout must be longer than that wait.
STOPSIGNAL SIGTERM
# --no-sandbox: without a token a container has no terminal for the sandbox; it says what to set and exits.
CMD ["podkeeper", "run", "--no-sandbox"]
