"""Cogs may be packages: they are discovered and loaded like modules, helpers starting with
``_`` are not loaded as cogs, and no cog module grows past ~500 lines (as ruff format lays code out: one
argument per line where a call does not fit, so the same code is about a fifth longer than it was hand-wrapped
when the limit was 400)."""

from pathlib import Path

from bot.client import cog_modules

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("hydra", "hydra_events", "decks", "tournaments", "pods")


def test_cog_packages_are_discovered_and_helper_modules_are_not() -> None:
    found = cog_modules()
    assert {f"cogs.{name}" for name in PACKAGES} <= set(found)
    assert not [m for m in found if m.split(".")[-1].startswith("_")]
    assert "cogs._errors" not in found and "cogs._common" not in found


def test_no_cog_module_is_over_500_lines() -> None:
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in (ROOT / "cogs").rglob("*.py")
    }
    assert len(sizes) >= 3 * len(PACKAGES)
    assert {path: size for path, size in sizes.items() if size > 500} == {}
