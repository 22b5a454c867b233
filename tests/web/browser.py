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
DRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None
)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "pages"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)


ACCESSIBILITY_JS = """
const parse = c => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
function background(el) {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const [r, g, b, a = 1] = parse(getComputedStyle(e).backgroundColor);
    if (a > 0) layers.push([r, g, b, a]);
  }
  let colour = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) colour = [r * a + colour[0] * (1 - a), g * a + colour[1] * (1 - a), b * a + colour[2] * (1 - a)];
  return colour;
}
const problems = [];
for (const el of document.querySelectorAll('main *, header *, footer *')) {
  const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own || !el.getClientRects().length || el.closest('.visually-hidden')) continue;
  const fg = parse(getComputedStyle(el).color).slice(0, 3), bg = background(el);
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  if (ratio < 4.5) problems.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" contrast ${ratio.toFixed(2)}`);
}
if (document.querySelectorAll('main').length !== 1) problems.push('not exactly one <main>');
if (!document.documentElement.lang) problems.push('no lang on <html>');
for (const table of document.querySelectorAll('table'))
  if (!table.querySelector('thead th[scope=col]')) problems.push('a table without column headers');
if (!document.querySelector('h1')) problems.push('no <h1>');
return problems;
"""


def require_browser() -> None:
    if CHROMIUM and DRIVER:
        return
    reason = (
        "Debian's chromium and chromium-driver are not installed "
        "(apt-get install chromium chromium-driver); browser tests need them"
    )
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

    async def accessibility_problems(self) -> list[str]:
        """Text below WCAG AA contrast (4.5:1; backgrounds composed up to the page, a transparent page
        counted as white, the worst case for the overlay's light text), and missing landmarks or headers."""
        return await self.js(ACCESSIBILITY_JS)

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
