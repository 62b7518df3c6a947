"""Fixtures for the playground's browser tests: a real gunicorn and Debian's Chromium via Playwright.

Playwright's own browser download is not available here, so the tests launch
the system's Chromium (``CHROMIUM`` or the first of ``chromium``,
``chromium-browser`` on the PATH).  Without Playwright or a Chromium they skip
and say how to enable them: ``pip install -e '.[test]'`` (the test extra pins
playwright) and ``apt-get install chromium`` (``.ci/run`` does it in CI).

In CI (``CI=true``) a missing Playwright or Chromium fails instead.

Every page is watched for console errors and uncaught exceptions: a test
fails if any appeared (``page`` fixture).  Screenshots go to
``reports/screenshots/`` (test artifacts, looked at, not compared).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gunicorn_server import ROOT, gunicorn

SHOTS = ROOT / "reports" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def chromium_path() -> str | None:
    given = os.environ.get("CHROMIUM")
    if given:
        return given if os.access(given, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real gunicorn (plain states) for one test module."""
    log_path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with gunicorn(log_path, GUNICORN_ACCESS_LOG="off") as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    # In CI (.ci/run installs both) a missing browser is a failure, not a skip.
    missing = pytest.fail if os.environ.get("CI") == "true" else pytest.skip
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("browser tests need Playwright: pip install -e '.[test]' (pins playwright)")
    exe = chromium_path()
    if exe is None:
        missing("browser tests need Debian's Chromium: apt-get install chromium "
                "(or set CHROMIUM to a Chromium binary); .ci/run installs it")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"])
        try:
            yield b
        finally:
            b.close()


class ConsoleWatch:
    """Console errors and uncaught exceptions of a page.  ``expect(status)`` allows the
    one console line Chromium writes for a fetch the test provoked on purpose (a 422)."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[str] = []

    def attach(self, page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

    def _console(self, m) -> None:
        if m.type != "error":
            return
        for i, text in enumerate(self.expected):
            if text in m.text:
                del self.expected[i]
                return
        self.errors.append(f"console {m.type}: {m.text}")

    def expect(self, status: int) -> None:
        self.expected.append(f"status of {status}")


def new_page(browser, viewport=DESKTOP, **kw):
    context = browser.new_context(viewport=viewport, **kw)
    page = context.new_page()
    watch = ConsoleWatch()
    watch.attach(page)
    page.console_watch = watch
    page.set_default_timeout(20_000)  # a shared, busy CI machine
    return context, page, watch


@pytest.fixture()
def page(browser):
    """A desktop page; the test fails if the console showed an error or a script threw."""
    context, pg, watch = new_page(browser)
    yield pg
    context.close()
    assert not watch.errors, watch.errors


def screenshot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.wait_for_timeout(450)  # the pegs' move (a 0.35 s transition) ends first
    page.screenshot(path=str(path), full_page=True)
    return path


def has_operation(base: str, path: str) -> bool:
    """Whether the running service offers POST ``path`` (an empty body: 4xx other than 404/405)."""
    import httpx

    r = httpx.post(base + path, json={}, timeout=10)
    return r.status_code not in (404, 405)


UNLABELLED_JS = """() => {
  const name = (el) => (el.getAttribute('aria-label') || el.textContent || el.title || '').trim();
  const bad = [];
  for (const el of document.querySelectorAll('button, a[href]')) {
    if (!name(el)) bad.push(el.outerHTML.slice(0, 80));
  }
  for (const el of document.querySelectorAll('input, select, textarea')) {
    if (!(el.labels && el.labels.length) && !el.getAttribute('aria-label')) bad.push(el.outerHTML.slice(0, 80));
  }
  return bad;
}"""


def assert_labelled(page) -> None:
    """Every button and link has a name, every field a label (what a screen reader reads)."""
    assert page.evaluate(UNLABELLED_JS) == []
