"""/docs in a real browser (Chromium via Playwright) against a real gunicorn on a port other than 8000.

openapi.yaml's ``servers`` is a relative URL, so Swagger UI's "Try it out"
sends its request to the origin that served the page, wherever that is
(behind a proxy, in Kubernetes, on any port): the test opens the score
operation, clicks "Try it out" and "Execute" with the documented example,
and sees a 200 whose request went to the page's own origin (a server on
localhost:8000, if one happened to run, would not make it pass), and the
29 of the example's hand (docs/rules.md).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect
from pages_browser import browser, page, screenshot, server  # noqa: F401

pytestmark = pytest.mark.slow


def test_try_it_out_calls_the_origin_that_served_the_page(server, page):
    assert urlsplit(server).port != 8000
    sent = []
    page.on("request", lambda r: sent.append(r.url) if "/v1/" in r.url else None)
    page.goto(f"{server}/docs#/hands/scoreHand")  # deep link: the operation opens
    operation = page.locator("#operations-hands-scoreHand")
    operation.get_by_role("button", name="Try it out").click()
    with page.expect_response(lambda r: r.request.method == "POST" and "/v1/hands/score" in r.url) as answer:
        operation.get_by_role("button", name="Execute").click()
    response = answer.value
    assert response.status == 200, response.text()
    assert sent == [f"{server}/v1/hands/score"]
    body = response.json()
    assert body["cards"] == ["5H", "5C", "5S", "JD"] and body["total"] == 29, json.dumps(body)[:200]
    # What the page shows the reader: the request URL and the live answer's status.
    expect(operation.locator(".request-url pre")).to_have_text(f"{server}/v1/hands/score")
    expect(operation.locator(".live-responses-table tr.response .response-col_status")).to_have_text("200")
    screenshot(page, "docs-try-it-out")
