"""The playground's pages and files as served: types, caching, ETag, the CSP, no path escapes."""

from __future__ import annotations

import gzip
import re

import pytest

from service.http.resources import pages

PAGES = ["/", "/play/scorer", "/play/scorekeeper", "/play/table"]


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_html_with_a_strict_policy(client, path):
    r = client.simulate_get(path)
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert re.fullmatch(r'"[0-9a-f]{32}"', r.headers["etag"])
    # nothing from another origin, and no inline script or style for the policy to refuse
    assert "http://" not in r.text and "https://" not in r.text
    assert "<style" not in r.text and " style=" not in r.text
    assert re.search(r"<script(?![^>]*\bsrc=)", r.text) is None


def test_every_file_a_page_names_is_served(client):
    for path in PAGES:
        html = client.simulate_get(path).text
        for ref in re.findall(r'(?:src|href)="(/play/static/[^"]+)"', html):
            r = client.simulate_get(ref)
            assert r.status_code == 200, ref
            assert r.headers["cache-control"] == "public, max-age=3600"
            assert "content-security-policy" in r.headers


def test_scripts_import_only_files_that_exist(client):
    names = set(pages.load_static())
    for name in names:
        if name.endswith(".js"):
            text = client.simulate_get(f"/play/static/{name}").text
            assert client.simulate_get(f"/play/static/{name}").headers["content-type"].startswith("text/javascript")
            for imported in re.findall(r'from "\./([^"]+)"', text):
                assert imported in names, (name, imported)
            # no other origin: the one URL a script names is SVG's namespace
            assert set(re.findall(r"https?://[^\s\"'`]+", text)) <= {"http://www.w3.org/2000/svg"}, name


def test_etag_revalidation_answers_304(client):
    r = client.simulate_get("/play/static/app.css")
    etag = r.headers["etag"]
    again = client.simulate_get("/play/static/app.css", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    other = client.simulate_get("/play/static/app.css", headers={"If-None-Match": '"0000"'})
    assert other.status_code == 200 and other.content == r.content


@pytest.mark.parametrize("path", ["/play/nothing", "/play/static/nothing.js", "/play/static/..%2Fpages.py",
                                  "/play/static/index.html", "/play/static"])
def test_unknown_names_are_404_problems(client, path):
    r = client.simulate_get(path)
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/problem+json"


def test_api_routes_are_untouched(client):
    assert client.simulate_get("/healthz").json == {"status": "ok"}
    assert client.simulate_get("/docs").status_code == 200
    assert client.simulate_post("/", json={}).status_code == 405


def test_gzip_is_a_representation_of_its_own(client):
    plain = client.simulate_get("/play/static/table.js")
    gz = client.simulate_get("/play/static/table.js", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["content-encoding"] == "gzip"
    assert gzip.decompress(gz.content) == plain.content
    assert gz.headers["etag"] != plain.headers["etag"]
    assert "Accept-Encoding" in gz.headers["vary"] and "Accept-Encoding" in plain.headers["vary"]
    again = client.simulate_get("/play/static/table.js", headers={"Accept-Encoding": "gzip",
                                                                 "If-None-Match": gz.headers["etag"]})
    assert again.status_code == 304
