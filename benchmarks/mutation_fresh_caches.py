"""pytest plugin for benchmarks/mutation.sh: every test starts with the domain's caches empty.

mutmut learns which tests reach which function from one clean run, then runs only those tests against each
mutant. The domain keeps results across calls (colour identities, card facts and derived records per card, section words),
so in that run only the first test to look at a card reached the identity code, and a mutant there was then
checked by whichever test came first — often one that asserts nothing about identity. Emptying the caches
before each test makes "which tests reach it" true; product code is unchanged.
"""

from __future__ import annotations

import sys

import pytest

_MODULE_CACHES = ("_cache", "_derived")  # rules.identity, rules.facts; rules.records


def _empty_domain_caches() -> None:
    for name, module in list(sys.modules.items()):
        if not name.startswith("bot.domain") or module is None:
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
        for cache_name in _MODULE_CACHES:
            cache = vars(module).get(cache_name)
            if isinstance(cache, dict):
                cache.clear()


@pytest.fixture(autouse=True)
def _fresh_domain_caches() -> None:
    _empty_domain_caches()


# Beyond the domain: the stand-in's contract compiles a validator per route once per process
# (``validator_for``), so only the first test to send a message walked the schema simplifier; the
# catalogue, the plural parser and the translator's locale map keep their results the same way, and so
# would anything in bot.cards that caches. Emptied before each test for the same reason as the domain's.
# The parsed OpenAPI file itself stays: reading it reaches no code mutmut changes, and it is the one
# expensive load.
_PACKAGES_BEYOND_THE_DOMAIN = ("bot.testing", "bot.cards", "bot.i18n")
_KEPT_CACHES = {("bot.testing.fakediscord.contract", "spec")}


def _empty_caches_beyond_the_domain() -> None:
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(_PACKAGES_BEYOND_THE_DOMAIN):
            continue
        for attribute, value in list(vars(module).items()):
            if (name, attribute) in _KEPT_CACHES:
                continue
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_caches_beyond_the_domain() -> None:
    _empty_caches_beyond_the_domain()


# A SQLite connection a failing test never closed must not keep mutmut alive: mutmut runs the tests once in
# its own process (and once more with every mutant forced to fail, where the first test stops half-way), and
# aiosqlite's worker thread of a connection left open kept that process from ever exiting after the last
# mutant. Daemon worker threads end with the process; a test that closes its database is unaffected.
def _daemon_sqlite_workers() -> None:
    import aiosqlite.core

    start = aiosqlite.core.Connection.__init__

    def init(self: aiosqlite.core.Connection, *args: object, **kwargs: object) -> None:
        start(self, *args, **kwargs)  # type: ignore[arg-type]
        self._thread.daemon = True

    aiosqlite.core.Connection.__init__ = init  # type: ignore[method-assign]


_daemon_sqlite_workers()
