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

Accessibility is checked with axe-core (``assert_axe_clean``): the version
pinned below, with its registry integrity, is fetched once per test run by
``npm pack`` into a temporary directory (nothing is installed or committed);
without npm the axe checks skip locally and fail in CI, like the browser.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
import warnings
from functools import cache
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


def missing(reason: str):
    """In CI (.ci/run installs what the browser tests need) a missing tool is a failure,
    elsewhere a skip that says what to install."""
    (pytest.fail if os.environ.get("CI") == "true" else pytest.skip)(reason)


@pytest.fixture(scope="module")
def browser():
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


@pytest.fixture()
def phone(browser):
    """A phone's page (390 px wide), watched as ``page`` is."""
    context, pg, watch = new_page(browser, PHONE)
    yield pg
    context.close()
    assert not watch.errors, watch.errors


IN_VIEW_JS = """(sel) => {
  // Where an element is cut off: by the window, or by an ancestor that clips (overflow).
  const cuts = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.left < 0 || r.right > window.innerWidth + 0.5) cuts.push([el.outerHTML.slice(0, 60), 'window', r.left, r.right]);
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.left + a.clientWidth + 0.5) cuts.push([el.outerHTML.slice(0, 60), a.className || a.tagName, r.right, b.left + a.clientWidth]);
    }
  }
  return cuts;
}"""


def assert_in_view_across(page, selector: str) -> None:
    """Every element matching ``selector`` is whole across the window: not cut off by its
    edge nor by a clipping (sideways-scrolling) box, and the page itself does not scroll
    sideways."""
    assert page.locator(selector).count() > 0, selector
    assert page.evaluate(IN_VIEW_JS, selector) == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """The whole page, or (``full_page=False``) the screen as scrolled, as a person sees it
    (a whole-page shot draws a sticky element where the screen happened to be)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.wait_for_timeout(450)  # the pegs' move (a 0.35 s transition) ends first
    page.screenshot(path=str(path), full_page=full_page)
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


# --- axe-core ---------------------------------------------------------------------------------

AXE_VERSION = "4.14.1"
AXE_INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
"""The npm registry's integrity of axe-core's tarball (``npm view axe-core@VERSION dist.integrity``)."""


@cache
def _fetch_axe() -> tuple[str | None, str]:
    """(axe.min.js, "") of the pinned axe-core, its tarball checked against the pinned
    integrity; or (None, why not).  Once per test run, a failure included."""
    npm = shutil.which("npm")
    if npm is None:
        return None, "the accessibility checks need npm (axe-core comes from the npm registry)"
    with tempfile.TemporaryDirectory(prefix="axe-core-") as tmp:
        env = {**os.environ, "npm_config_update_notifier": "false", "npm_config_fund": "false",
               "npm_config_audit": "false"}
        try:
            proc = subprocess.run([npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", tmp],
                                  cwd=tmp, env=env, capture_output=True, text=True, timeout=180, check=False)
        except subprocess.TimeoutExpired:
            return None, f"npm pack axe-core@{AXE_VERSION} took more than 180 s"
        tarball = Path(tmp) / f"axe-core-{AXE_VERSION}.tgz"
        if proc.returncode != 0 or not tarball.exists():
            return None, f"npm pack axe-core@{AXE_VERSION} failed:\n{proc.stdout}\n{proc.stderr}"
        data = tarball.read_bytes()
        digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        if digest != AXE_INTEGRITY:  # never skipped: a tarball that is not the pinned one
            raise AssertionError(f"axe-core {AXE_VERSION}: integrity {digest}, pinned {AXE_INTEGRITY}")
        with tarfile.open(tarball) as tar:
            return tar.extractfile("package/axe.min.js").read().decode(), ""


def axe_source() -> str:
    source, why = _fetch_axe()
    if source is None:
        missing(why)
    return source


AXE_RULES_NEEDED = ("label-content-name-mismatch", "scrollable-region-focusable", "color-contrast")
"""The rules the playground once broke (issue 18): each must be among those axe ran."""


def axe_run(page) -> dict:
    """axe-core on the page as it is now, with every rule axe runs by default (WCAG 2.0-2.2
    A and AA and its best practices): ``violations`` and the ids of the rules ``ran``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated by the DevTools protocol: the page's CSP (script-src 'self') refuses an
        # inline <script> (page.add_script_tag), and the CSP stays as it is served
        page.evaluate(axe_source())
    return page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      const ran = [...r.violations, ...r.passes, ...r.incomplete, ...r.inapplicable].map((x) => x.id);
      return {ran, violations: r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 3).join(' '))}))};
    }""")


def assert_axe_clean(page, where: str) -> None:
    """No axe-core violation at all on the page as it is now; ``where`` names the state.
    Without axe-core (no npm; in CI a failure) a test about something else goes on, warned;
    the tests about accessibility itself call ``axe_source()`` first and skip."""
    if _fetch_axe()[0] is None and os.environ.get("CI") != "true":
        warnings.warn(f"axe-core not run on {where}: {_fetch_axe()[1]}", stacklevel=2)
        return
    result = axe_run(page)
    assert set(AXE_RULES_NEEDED) <= set(result["ran"]), result["ran"]
    found = result["violations"]
    assert found == [], f"axe-core {AXE_VERSION} on {where}:\n" + "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"][:6]) for v in found)
