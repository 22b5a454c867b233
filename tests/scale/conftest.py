"""PostgreSQL for the scale-out tests: the server every machine and CI have (127.0.0.1:5432, trust auth,
database ``test``). Each test gets its own namespace, so leases and notices of tests running side by
side never meet."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

PG_DSN = os.environ.get("PODKEEPER_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
async def pg_dsn() -> AsyncIterator[str]:
    import asyncpg

    try:
        connection = await asyncpg.connect(PG_DSN, timeout=5)
    except (OSError, asyncpg.PostgresError) as error:
        if os.environ.get("PODKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here but unreachable at {PG_DSN}: {error}")
        pytest.skip(f"PostgreSQL not reachable at {PG_DSN}")
    await connection.close()
    yield PG_DSN


@pytest.fixture
def namespace() -> str:
    return f"test-{uuid.uuid4().hex}"


@pytest.fixture
async def pg_schema_url(pg_dsn: str) -> AsyncIterator[str]:
    """A fresh schema of its own on the test PostgreSQL, as a ``[database] url``."""
    import asyncpg

    schema = f"t_scale_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(pg_dsn)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield f"{pg_dsn}?search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()
