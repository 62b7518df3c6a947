"""What the worker's poller gathers before a thread sees a request (service/http/gather.py).

Each verdict is checked against gunicorn's own parser: bytes handed on
(``in``) are parsed, body and all, without asking the client for one more
byte (the thread never waits on a slow upload), or are refused by the parser
with the bytes in hand; bytes held back (``more``) are not a whole request
yet.  Bodies are split at every point and in random pieces (hypothesis).
"""

from __future__ import annotations

import pytest
from gunicorn.config import Config
from gunicorn.http import errors as gerrors
from gunicorn.http.parser import RequestParser
from hypothesis import given, settings
from hypothesis import strategies as st

from service.http.gather import CONTINUE, FRAMING_SLACK, IN, MORE, REFUSE, Arrival
from service.http.limits import DEFAULT_MAX_BODY_BYTES, body_limits

LIMITS = body_limits(DEFAULT_MAX_BODY_BYTES)
HEAD_MAX = 4094 + 4 + 50 * (8190 + 2)  # as the worker works it out from gunicorn.conf.py's limits


def arrival() -> Arrival:
    return Arrival(LIMITS, DEFAULT_MAX_BODY_BYTES, HEAD_MAX, 8190)


def verdicts(*pieces: bytes) -> list[str]:
    a = arrival()
    return [a.feed(p) for p in pieces]


def parsed(data: bytes) -> bytes:
    """The body gunicorn's parser reads from ``data`` alone; ``NoMoreData`` would mean
    that it needed more from the client."""
    cfg = Config()
    cfg.set("limit_request_line", 4094)
    cfg.set("limit_request_fields", 50)
    cfg.set("limit_request_field_size", 8190)
    req = next(RequestParser(cfg, iter([data]), ("127.0.0.1", 1)))
    return req.body.read()


def post(path: str, body: bytes = b"", *headers: str) -> bytes:
    head = [f"POST {path} HTTP/1.1", "Host: x", *headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def chunked(path: str, *chunks: bytes, trailers: bytes = b"") -> bytes:
    return post(path, b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n" + trailers + b"\r\n",
                "Transfer-Encoding: chunked")


WHOLE = [
    pytest.param(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"", id="get"),
    pytest.param(post("/v1/hands/score", b"{}", "Content-Length: 2"), b"{}", id="length"),
    pytest.param(post("/v1/hands/score", b"{}", "content-length:  2 "), b"{}", id="length-spaced"),
    pytest.param(chunked("/v1/hands/score", b'{"a"', b": 1}"), b'{"a": 1}', id="chunked"),
    pytest.param(chunked("/v1/hands/score", b"{}", trailers=b"X-T: 1\r\n"), b"{}", id="chunked-trailers"),
    pytest.param(post("/v1/hands/score", b"2;ext=1\r\n{}\r\n0\r\n\r\n", "Transfer-Encoding: chunked"), b"{}",
                 id="chunk-extension"),
    pytest.param(post("/v1/tournaments/standings", b"x" * 200_000, "Content-Length: 200000"), b"x" * 200_000,
                 id="standings-own-limit"),
    pytest.param(chunked("/v1/hands/score-batch", *[b"y" * 50_000] * 6), b"y" * 300_000, id="batch-chunked"),
    pytest.param(post("/v1/tournaments/%62racket", b"z" * 100_000, "Content-Length: 100000"), b"z" * 100_000,
                 id="percent-encoded-path"),
    pytest.param(b"POST http://x/v1/tournaments/bracket HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n"
                 + b"b" * 70_000, b"b" * 70_000, id="absolute-form"),
]


@pytest.mark.parametrize(("data", "body"), WHOLE)
def test_a_whole_request_is_in_at_its_last_byte_and_not_before(data, body):
    """Every split of the head and body: more, until the last byte; the parser then reads
    the whole body from what was gathered."""
    step = max(1, len(data) // 300)
    for cut in range(1, len(data), step):
        assert verdicts(data[:cut]) == [MORE], cut
    assert verdicts(data) == [IN]
    assert verdicts(data[:-1], data[-1:]) == [MORE, IN]
    assert parsed(data) == body


@given(st.lists(st.binary(min_size=1, max_size=300), min_size=1, max_size=8), st.data())
@settings(max_examples=200, deadline=None)
def test_chunked_bodies_in_any_pieces(chunks, data):
    raw = chunked("/v1/hands/score", *chunks)
    cuts = sorted(set(data.draw(st.lists(st.integers(1, len(raw) - 1), max_size=12))))
    pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)])]
    assert verdicts(*pieces) == [MORE] * (len(pieces) - 1) + [IN]
    assert parsed(raw) == b"".join(chunks)


@pytest.mark.parametrize("data", [
    pytest.param(post("/v1/hands/score", b"{}", "Content-Length: 2x"), id="length-not-digits"),
    pytest.param(post("/v1/hands/score", b"{}", "Content-Length: 2", "Content-Length: 2"), id="length-twice"),
    pytest.param(post("/v1/hands/score", b"2\r\n{}\r\n0\r\n\r\n", "Content-Length: 2", "Transfer-Encoding: chunked"),
                 id="length-and-chunked"),
    pytest.param(post("/v1/hands/score", b"zz\r\n{}", "Transfer-Encoding: chunked"), id="chunk-size-not-hex"),
    pytest.param(post("/v1/hands/score", b"2\r\n{}XX0\r\n", "Transfer-Encoding: chunked"), id="chunk-no-crlf"),
    pytest.param(post("/v1/hands/score", b"2", "Transfer-Encoding: chunked, gzip"), id="chunked-not-last"),
    pytest.param(post("/v1/hands/score", b"", "Expect: the-unexpected", "Content-Length: 2"), id="expect-unknown"),
    pytest.param(b"GET / HTTP/1.1\nHost: x\n\n", id="bare-lf"),
])
def test_what_the_parser_refuses_goes_on_with_what_it_needs(data):
    """In at once, with bytes enough for the parser to refuse it: it never waits for more."""
    assert verdicts(data) == [IN]
    with pytest.raises(gerrors.ParseException):
        parsed(data)


@pytest.mark.parametrize(("data", "detail"), [
    (post("/v1/hands/score", b"", "Content-Length: 65537"), "at most 65536 bytes"),
    (post("/v1/tournaments/standings", b"", f"Content-Length: {2560 * 1024 + 1}"), "at most 2621440 bytes"),
    (chunked("/v1/hands/score", *[b"c" * 30_000] * 3)[:-20], "at most 65536 bytes"),
    (post("/v1/hands/score", b"1\r\nx\r\n" * 40_000, "Transfer-Encoding: chunked"),
     f"framing included, may be at most {2 * 65536 + FRAMING_SLACK} bytes"),
])
def test_a_body_past_its_path_s_limit_is_refused_at_once(data, detail):
    a = arrival()
    assert a.feed(data) == REFUSE
    status, slug, _, reason = a.refusal
    assert (status, slug) == (413, "content-too-large") and detail in reason


def test_a_head_that_does_not_end_is_refused_at_once():
    """gunicorn's parser would wait for its end (a thread held) before judging it."""
    data = b"GET / HTTP/1.1\r\nX-A: " + b"a" * (HEAD_MAX + 10)
    a = arrival()
    assert a.feed(data) == REFUSE and a.refusal[0] == 431
    with pytest.raises(gerrors.NoMoreData):  # what the parser would do: ask the client for more
        parsed(data)


@pytest.mark.parametrize(("data", "status"), [
    (post("/v1/hands/score", b"a" * 9000, "Transfer-Encoding: chunked"), 400),
    (post("/v1/tournaments/standings", b"0\r\nX-T: " + b"t" * (HEAD_MAX + 10), "Transfer-Encoding: chunked"), 431),
])
def test_a_chunk_line_or_trailers_that_do_not_end_are_refused_at_once(data, status):
    a = arrival()
    assert a.feed(data) == REFUSE and a.refusal[0] == status


def test_a_tls_handshake_is_refused_at_its_first_bytes():
    assert verdicts(b"\x16") == [MORE]
    a = arrival()
    assert [a.feed(b"\x16"), a.feed(b"\x03\x01\x00\x5a\x01")] == [MORE, REFUSE] and a.refusal[0] == 400


def test_expect_100_continue_is_answered_then_the_body_gathered():
    head = post("/v1/tournaments/standings", b"", "Content-Length: 100000", "Expect: 100-continue")
    assert verdicts(head, b"x" * 50_000, b"x" * 50_000) == [CONTINUE, MORE, IN]
    head = post("/v1/hands/score", b"", "Transfer-Encoding: chunked", "Expect: 100-continue")
    assert verdicts(head, b"2\r\n{}\r\n", b"0\r\n\r\n") == [CONTINUE, MORE, IN]
    # the body sent without waiting: nothing to answer; over the limit: 413, no 100
    assert verdicts(post("/v1/hands/score", b"{}", "Content-Length: 2", "Expect: 100-continue")) == [IN]
    assert verdicts(post("/v1/hands/score", b"", "Content-Length: 99999", "Expect: 100-continue")) == [REFUSE]
    # HTTP/1.0 ignores the expectation (RFC 9110 10.1.1), as gunicorn does
    assert verdicts(b"POST / HTTP/1.0\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n") == [MORE]
