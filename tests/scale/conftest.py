"""PostgreSQL for the scale-out tests: each test is marked ``postgresql_only`` (tests/conftest.py gives it
a schema of its own in the test server, skips when there is none, and fails under
PODKEEPER_REQUIRE_POSTGRES=1). Tests that pass an explicit ``namespace`` get a fresh one, so leases and
notices of tests running side by side never meet."""

from __future__ import annotations

import os
import uuid

import pytest


@pytest.fixture
def pg_dsn(engine: str) -> str:
    """The test's PostgreSQL URL (its own schema in ``search_path``)."""
    assert engine == "postgresql", "mark the test postgresql_only"
    return os.environ["PODKEEPER_DATABASE_URL"]


@pytest.fixture
def pg_schema_url(pg_dsn: str) -> str:
    return pg_dsn


@pytest.fixture
def namespace() -> str:
    return f"test-{uuid.uuid4().hex}"
