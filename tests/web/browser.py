"""Debian's Chromium, headless, through Selenium: never a downloaded browser or driver.

The tests skip when the apt packages ``chromium`` and ``chromium-driver`` are missing, except where
``PODKEEPER_REQUIRE_BROWSER=1`` (``.ci/run`` sets it after installing them), where they fail instead.
Selenium is blocking and the page server runs on the test's event loop, so every browser call goes
through :meth:`Browser.run` on a worker thread.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "pages"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


def require_browser() -> None:
    if CHROMIUM and DRIVER:
        return
    reason = ("Debian's chromium and chromium-driver are not installed "
              "(apt-get install chromium chromium-driver); browser tests need them")
    if os.environ.get("PODKEEPER_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


class Browser:
    def __init__(self, profile: Path) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service

        options = Options()
        options.binary_location = str(CHROMIUM)
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument("--window-size=360,800")
        self.driver = webdriver.Chrome(options=options, service=Service(executable_path=str(DRIVER)))

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    async def open(self, url: str, width: int, height: int) -> None:
        await self.run(self.driver.set_window_size, width, height)
        await self.run(self.driver.get, url)
        await self.wait_for("return document.body.dataset.updates >= '1'")  # the first live update came

    async def js(self, script: str) -> Any:
        return await self.run(self.driver.execute_script, script)

    async def wait_for(self, script: str, timeout: float = 5.0) -> float:
        """Seconds until ``script`` returned true (polling every 10 ms in the page)."""
        started = time.perf_counter()
        while not await self.js(script):
            if time.perf_counter() - started > timeout:
                raise AssertionError(f"not true after {timeout} s: {script}")
            await asyncio.sleep(0.01)
        return time.perf_counter() - started

    async def text(self) -> str:
        return await self.js("return document.body.innerText")

    async def screenshot_and_check_overflow(self, name: str, width: int, height: int = 1080) -> Path:
        """A screenshot at ``width`` saved as a test artefact, and no horizontal overflow at that width."""
        await self.run(self.driver.set_window_size, width, height)
        await self.wait_for(f"return window.innerWidth === {width}")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}-{width}.png"
        await self.run(self.driver.save_screenshot, str(path))
        scroll, inner = await self.js("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"{name} overflows at {width} px: scrollWidth {scroll} > innerWidth {inner}"
        assert path.stat().st_size > 1000
        return path

    def quit(self) -> None:
        self.driver.quit()


@pytest.fixture
async def browser(tmp_path: Path):
    require_browser()
    opened = await asyncio.to_thread(Browser, tmp_path / "chromium-profile")
    try:
        yield opened
    finally:
        await asyncio.to_thread(opened.quit)
