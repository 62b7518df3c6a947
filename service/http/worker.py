"""The gunicorn worker: gthread, with problem+json errors, a request deadline and load shedding.

gunicorn.conf.py names it (``worker_class = "service.http.worker.Worker"``).
It is gunicorn's own :class:`~gunicorn.workers.gthread.ThreadWorker` with
these changes, each where gunicorn itself decides (what it reads and writes
on the wire itself is :mod:`.wire`):

* **Its own error answers are problem+json.**  gunicorn answers a request it
  cannot parse (a bad request line or header, a URL over
  ``limit_request_line``, a header over ``limit_request_field_size``, a bad
  chunk) itself, before the app sees it, with an HTML page.
  :meth:`Worker.handle_error` answers the same status as an RFC 9457
  problem (``type``, ``title``, ``status``, ``detail``, ``errors``), and
  answers 400 where gunicorn would answer 5xx for what a client sent (a
  transfer coding it does not know: 501 in gunicorn).  Every answer the
  worker writes (these, its 408, 413 and 503) is written by the app's own
  writer (:mod:`.answers`): the caller's sane ``X-Request-ID``, and CORS's
  headers for a request with an ``Origin``, read from its bytes
  (:func:`.wire.request_facts`), so that a browser can read it.
* **A TLS handshake on the plain port is answered at once**: 400
  ``bad-request`` (a ClientHello has no end of head, so it waited for the
  read deadline's 408).  Every problem the worker writes names its
  ``instance``: the request's path, or ``#`` and the request id where no
  request line could be read.
* **A request has a deadline.**  gthread reads a connection's request
  blocking, without a timeout: a client trickling its head a byte at a time
  held a thread for ever (8 such clients held every thread of 2 workers x 4).
  Here the head and a Content-Length body must have arrived
  ``read_timeout`` seconds after the first byte, or the answer is 408
  (``request-timeout``) and the connection closes; what a thread still
  reads (a chunked body, one after ``Expect: 100-continue``) it reads
  through a :class:`~.wire.DeadlineSocket` under the same deadline.  In
  production nginx buffers whole requests in front (deploy/kubernetes).
* **Overload is shed.**  A worker has ``threads`` threads; connections with
  a request to read wait in its thread pool's queue, and under more load
  than it can serve that queue, and with it every answer's latency, grows
  without bound.  Here a worker holding ``threads + max_pending``
  connections that await a thread answers any further one at once, from its
  main loop and without reading it into the app: 503 problem+json
  (``overloaded``) with ``Retry-After`` (:meth:`Worker.shed`).
* **A thread gets a request only once it is in.**  gthread gives a
  connection a thread at its first byte (or at once, for a new one: up to
  5 s waiting for it).  Here every connection waits in the poller, and its
  bytes are gathered there (:meth:`Worker._gather`) until the head and the
  whole body are in, however the body is framed (:class:`.gather.Arrival`):
  a Content-Length body, chunks up to the last one, and after ``Expect:
  100-continue`` (answered ``100 Continue`` from the poller) either, each up
  to its own path's body limit (:mod:`.limits`, which gunicorn.conf.py
  sets on the class: the batch, standings and bracket take more).  A body
  past its limit is answered 413 from the poller at once.  Then the bytes
  go into gthread's parser and the connection to a thread, which never
  waits on the client.  Slow and idle clients hold no thread (measured: 8
  tricklers reconnecting at once, or 16 silent connections, left /healthz
  answered in milliseconds; under plain gthread it went unanswered; 8
  stalled uploads of each framing to the large-body operations kept
  /healthz waiting 9 s when only a short Content-Length body was gathered);
  one that is not done in time is answered 408 from the main loop.  What a
  worker holds gathering is bounded (:data:`GATHER_BUDGET`): past it a
  further upload is answered 503.  A connection gthread closes gracefully
  is drained by the poller (:class:`Conn`), not by a 2 s blocking read on
  the main loop.

* **Idle connections cannot crowd out work.**  gthread stops accepting at
  ``worker_connections`` open connections and closes an idle one only when
  its keep-alive runs out: 2,500 idle connections on 2 workers delayed
  every request by seconds.  Here a worker at its cap keeps accepting, and
  closes its longest-idle connections first (kept-alive ones, or new ones
  that sent nothing yet; never one with a request coming in or in
  service) to make room (:meth:`Worker.accept`).  The cap is
  ``GUNICORN_WORKER_CONNECTIONS`` (default 1,000 a worker) and the idle
  time ``GUNICORN_KEEPALIVE`` (default 5 s; a new connection's first byte
  waits as long).

What the worker answers itself is counted in
``cribbage_http_server_answers_total{status}`` (prometheus-client's
multiprocess files, so ``GET /metrics`` shows it with the app's own).

Configuration (set by gunicorn.conf.py from the environment on the class): ``read_timeout``
is ``GUNICORN_READ_TIMEOUT`` (default 5 s, as nginx's client_header_timeout
in deploy/kubernetes), ``max_pending`` is ``GUNICORN_MAX_PENDING`` (default
32 a worker; negative: never shed), ``retry_after`` is 1 s, ``body_limit``
and ``path_limits`` are :mod:`.limits`' (``CRIBBAGE_MAX_BODY_BYTES``).
gunicorn's own settings ``worker_connections`` and ``keepalive`` are the
connection cap and the idle time.  TLS is not handled here (it ends at the
proxy): with ``certfile`` set the sockets are gunicorn's own.
"""

from __future__ import annotations

import errno
import selectors
import socket
import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

from gunicorn.http2 import negotiation
from gunicorn.workers.gthread import STOP_KEEPALIVE_LINGER as STOP_LINGER
from gunicorn.workers.gthread import TConn, ThreadWorker

from .gather import CONTINUE, IN, MORE, Arrival
from .limits import DEFAULT_MAX_BODY_BYTES, body_limits
from .wire import (
    NO_FACTS,
    HeadTooSlow,
    READ_TIMEOUT,
    DeadlineSocket,
    RequestFacts,
    bounded_message,
    one_whole_request,
    overloaded_answer,
    problem_answer,
    problem_for,
    request_facts,
)

if TYPE_CHECKING:  # gunicorn has no types (pyproject.toml): these names are Any to mypy
    from gunicorn.http.message import Request
    from prometheus_client import Counter

MAX_PENDING = 32
"""Default connections a worker holds waiting for a thread (gunicorn.conf.py: GUNICORN_MAX_PENDING)."""
ACCEPT_BATCH = 64
NEVER_SHED = (b"GET /healthz ", b"GET /healthz?")
"""Requests served however loaded the worker is: the liveness probe (cheap; a probe
answered 503 under load would have the orchestrator restart a busy, healthy
process).  Readiness (/readyz) is shed: an overloaded worker is not ready for more."""
GATHER_BUDGET = 64 * 1024 * 1024
"""Bytes a worker holds in requests it is gathering, at most: an upload that would pass it
is answered 503 (``overloaded``) at once, so that many large slow uploads at a time
cannot take a worker's memory (a body waits at most ``read_timeout`` to arrive)."""
CONTINUE_ANSWER = b"HTTP/1.1 100 Continue\r\n\r\n"
SHED_REST = 0.1
"""Seconds a connection just answered 503 is left unread: a client that ignores
Retry-After and asks again at once waits that long to be read (measured: a
closed-loop load answered at once took the CPU from the requests in service,
and halved the 2xx a second)."""
SHED_LINGER = 2.0
"""Seconds a shed connection is read and discarded after its 503, so that the
kernel does not reset it (and the client lose the answer) over unread bytes."""


class Conn(TConn):
    """gthread's connection, closed without blocking the worker's main loop.

    gthread closes a connection it will not keep gracefully (RFC 9112 9.6:
    half-close, then read until the client closes) *on the main loop*,
    blocking for up to 2 s on a client that does not close: one such client
    stops the worker accepting and answering for that long.  Here the
    lingering read is the poller's (:meth:`Worker.linger`)."""

    worker: Worker | None = None
    arrival: Arrival | None = None  # the request being gathered in the poller
    continued = False  # the poller answered its Expect: 100-continue
    # TConn's attributes used here (gunicorn has no types; TConn sets them):
    sock: socket.socket  # a DeadlineSocket, but with TLS once a thread has wrapped it
    initialized: bool
    data_ready: bool

    def close(self, graceful: bool = False) -> None:
        if graceful and self.worker is not None:
            self.worker.linger(self.sock)
        else:
            super().close(graceful)



class Worker(ThreadWorker):
    """gthread with problem+json errors, a request deadline and load shedding (module docstring)."""

    read_timeout = READ_TIMEOUT
    max_pending = MAX_PENDING
    body_limit = DEFAULT_MAX_BODY_BYTES
    path_limits = body_limits(DEFAULT_MAX_BODY_BYTES)
    # gthread's attributes used here (gunicorn has no types; ThreadWorker sets them):
    alive: bool
    nr_conns: int
    worker_connections: int
    _accepting: bool
    tpool: ThreadPoolExecutor
    poller: selectors.BaseSelector
    keepalived_conns: deque[Conn]  # every connection here is a Conn (accept)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.answers: dict[int, int] = {}
        self.answers_lock = threading.Lock()
        self.answers_flushed = 0.0
        self.answers_metric: Counter | None = None
        self.in_flight = 0  # connections handed to the thread pool and not yet back; main thread only
        self.shed_count = 0
        self.lingering: dict[socket.socket, float] = {}  # half-closed socket -> when to close it (ordered)
        # Connections in the poller, each dict in deadline order (one wait per dict):
        self.resting: dict[Conn, float] = {}  # answered 503, not read again until
        self.waiting: dict[Conn, float] = {}  # no byte of a request yet: closed at
        self.gathering: dict[Conn, float] = {}  # a request coming in: 408 at
        # An idle connection (its first request, or its next one) waits this long; with no
        # keep-alive, a new connection still waits as long as a request may take to arrive.
        self.idle_wait: float = self.cfg.keepalive or self.read_timeout
        self.evicted = 0  # idle connections closed to make room at the cap
        self.held = 0  # bytes held in the requests being gathered (GATHER_BUDGET)
        cfg = self.cfg
        # A head without its end past every limit of gunicorn's is the parser's to refuse.
        self.line_max: int = cfg.limit_request_field_size or 8190
        self.head_max: int = ((cfg.limit_request_line or 8190) + 4
                              + (cfg.limit_request_fields or 100) * (self.line_max + 2))

    def init_process(self) -> None:
        # Counted here, written to prometheus-client at most once a second from the
        # main loop (a write is a lock and an mmap store: not on the shed path).
        try:
            from prometheus_client import Counter
        except ImportError:  # an app without it (bench's peers)
            self.answers_metric = None
        else:
            self.answers_metric = Counter(
                "cribbage_http_server_answers",
                "Answers the gunicorn worker gave itself, before the application: 503 shed under "
                "overload, 408 too slow, 400/414/431 requests it could not parse; by status.",
                ("status",))
        super().init_process()

    def count(self, status: int) -> None:
        with self.answers_lock:  # handle_error runs in the threads
            self.answers[status] = self.answers.get(status, 0) + 1

    def flush_answers(self, force: bool = False) -> None:
        now = time.monotonic()
        if not self.answers or self.answers_metric is None or (now < self.answers_flushed + 1.0 and not force):
            return
        self.answers_flushed = now
        with self.answers_lock:
            counts, self.answers = self.answers, {}
        for status, n in counts.items():
            self.answers_metric.labels(str(status)).inc(n)

    # -- problem+json instead of gunicorn's HTML ---------------------------------

    def handle_error(self, req: Request | None, client: socket.socket, addr: Any, exc: BaseException) -> None:
        found = problem_for(exc)
        if found is None:  # not the client's doing: gunicorn's own log and 500
            status, slug, title = 500, "internal-error", "Internal server error"
            self.log.exception("Error handling request %s", getattr(req, "uri", "(no URI read)"))
            detail = "the server failed to answer this request"
        else:
            status, slug, title = found
            detail = bounded_message(str(exc) or title)
            self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], detail)
        raw = getattr(client, "request_bytes", None)  # a DeadlineSocket's (not once TLS wrapped it)
        facts = request_facts(raw) if raw else NO_FACTS
        parsed_path = getattr(req, "path", None)  # gunicorn's, when it read the request line
        if not facts.path and isinstance(parsed_path, str) and parsed_path:
            facts = facts._replace(path=parsed_path)
        self.count(status)
        try:
            client.setblocking(False)
            client.send(problem_answer(status, slug, title, detail, facts=facts))
        except OSError:
            self.log.debug("Failed to send error message.")

    # -- the request deadline ----------------------------------------------------

    def accept(self, listener: socket.socket) -> None:
        """gthread's accept, with the client socket a :class:`DeadlineSocket`, handed
        to a thread only once its request is in (:meth:`_watch`), and
        up to :data:`ACCEPT_BATCH` connections at a time: the main loop gets the
        GIL back only every few milliseconds while the threads are busy, and
        one connection a turn let the listen queue, and every new
        connection's wait, grow under load (measured: p99 1.75 s at 1,000
        connections, shed or not)."""
        for _ in range(ACCEPT_BATCH):
            if self.nr_conns >= self.worker_connections and not self.waiting:
                return  # at the cap, and nothing idle to close: the connection waits in the backlog
            try:
                client_sock, client_addr = listener.accept()
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                    raise
                return
            if self.nr_conns >= self.worker_connections:
                self._close_longest_idle()
            if not self.cfg.is_ssl:
                client_sock = DeadlineSocket(client_sock.family, client_sock.type, client_sock.proto,
                                             fileno=client_sock.detach())
                client_sock.arm(self.read_timeout)
            self.nr_conns += 1
            client_sock.setblocking(True)
            conn = Conn(self.cfg, client_sock, client_addr, listener.getsockname())
            conn.worker = self
            if self.cfg.is_ssl or negotiation.prior_knowledge_allowed(self.cfg, client_addr):
                self.enqueue_req(conn)  # the handshake or preface is a thread's to read
            else:
                self._watch(conn)

    def set_accept_enabled(self, enabled: bool) -> None:
        """gthread stops accepting at ``worker_connections``; here only when none of them is
        idle (an idle one is closed to make room: :meth:`accept`)."""
        super().set_accept_enabled(enabled or (self.alive and bool(self.waiting)))

    def _close_longest_idle(self) -> None:
        """Close the connection that has waited longest for a request (``waiting`` is in
        the order connections began to wait)."""
        conn = next(iter(self.waiting))
        self._unwatch(conn)
        self.nr_conns -= 1
        self.evicted += 1
        conn.sock.close()

    def handle_request(self, req: Request, conn: Conn) -> bool:
        """The head is in: from here a late read is the body's (answered by the app).  An
        ``Expect: 100-continue`` the poller answered is not answered again."""
        if isinstance(conn.sock, DeadlineSocket):  # not once TLS wrapped it
            conn.sock.in_head = False
        if conn.continued:
            conn.continued = False
            req._expected_100_continue = False
        keep_alive: bool = super().handle_request(req, conn)
        return keep_alive

    # -- gathering requests in the poller ---------------------------------------------

    def _watch(self, conn: Conn) -> None:
        """Wait in the poller for a request on ``conn`` (a new connection, a kept-alive
        one, a shed one after its rest), without a thread."""
        socket.socket.setblocking(conn.sock, False)
        conn.arrival = None
        self.waiting[conn] = time.monotonic() + (self.idle_wait if self.alive else STOP_LINGER)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._gather, conn))
        if not self._accepting and self.alive:
            self.set_accept_enabled(True)  # at the cap, an idle connection can make room

    def _gather(self, conn: Conn, _fileobj: object = None) -> None:
        """Read what has come; once the request is in (:class:`.gather.Arrival`: its head
        and its whole body), hand it on (:meth:`_dispatch`).  The first bytes start the
        request's deadline (``read_timeout``): past it, 408 from here."""
        try:
            data = socket.socket.recv(conn.sock, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        arrival = conn.arrival
        if not data:  # the client is done sending
            self._unwatch(conn)
            if arrival is not None:  # a request cut short: the parser and the app say what is missing
                self._dispatch(conn, bytes(arrival.data))
            else:
                self.nr_conns -= 1
                conn.sock.close()
            return
        if arrival is None:
            self.waiting.pop(conn, None)
            self.gathering[conn] = time.monotonic() + self.read_timeout
            arrival = conn.arrival = Arrival(self.path_limits, self.body_limit, self.head_max, self.line_max)
        self.held += len(data)
        verdict = arrival.feed(data)
        if verdict is MORE:
            if self.held > GATHER_BUDGET:
                facts = request_facts(arrival.data)
                self._unwatch(conn)
                self.shed(conn, b"", facts)
            return
        if verdict is CONTINUE:
            try:
                socket.socket.send(conn.sock, CONTINUE_ANSWER)  # a few bytes: the buffer takes them
            except OSError:
                pass  # a client gone: its reads say so
            conn.continued = True
            return
        facts = request_facts(arrival.data) if verdict is not IN else NO_FACTS
        self._unwatch(conn)
        if verdict is IN:
            self._dispatch(conn, bytes(arrival.data))
        else:
            self.nr_conns -= 1
            assert arrival.refusal is not None  # REFUSE: the arrival says why
            self._refuse(conn, *arrival.refusal, facts=facts)

    def _unwatch(self, conn: Conn) -> None:
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        self.waiting.pop(conn, None)
        self.gathering.pop(conn, None)
        if conn.arrival is not None:
            self.held -= len(conn.arrival.data)
            conn.arrival = None

    def _dispatch(self, conn: Conn, buf: bytes) -> None:
        """A whole request: to a thread, or 503 at once when the worker holds enough."""
        if (0 <= self.max_pending and self.in_flight >= self.cfg.threads + self.max_pending
                and not buf.startswith(NEVER_SHED)):
            self.shed(conn, buf)
            return
        if type(conn.sock) is DeadlineSocket:
            conn.sock.request_bytes = buf  # for a problem answered before the app's (read only then)
        if not conn.initialized:
            conn.init()  # the HTTP/1 parser (no I/O without TLS or HTTP/2 prior knowledge)
        conn.parser.unreader.unread(buf)
        conn.data_ready = True
        self.enqueue_req(conn)

    # -- load shedding -------------------------------------------------------------

    def enqueue_req(self, conn: Conn) -> None:
        self.in_flight += 1
        fs = self.tpool.submit(self.handle, conn)
        fs.add_done_callback(lambda fut: self.method_queue.defer(self.finish_request, conn, fut))

    def finish_request(self, conn: Conn, fs: Future[object]) -> None:
        """gthread's, then a kept-alive connection waits here (:meth:`_watch`) rather than in
        gthread's deque (whose every wake-up scans every idle connection)."""
        self.in_flight -= 1
        super().finish_request(conn, fs)
        kept = self.keepalived_conns
        if kept and kept[-1] is conn:
            kept.pop()
            self.poller.unregister(conn.sock)
            self._watch(conn)

    def shed(self, conn: Conn, buf: bytes, facts: RequestFacts | None = None) -> None:
        """503 at once from the main loop, without a thread.

        One whole HTTP/1.1 request and nothing more (the usual case) is
        answered 503 with keep-alive, and the connection is read again after
        :data:`SHED_REST`: a shed request costs a write, not a new
        connection (measured: closing every shed connection halved the 2xx a
        second under wrk's reconnecting load).  Anything else (a chunked or
        pipelined request) is answered 503 with ``Connection: close`` and
        the connection closed gracefully (:meth:`linger`)."""
        sock = conn.sock
        self.shed_count += 1
        self.answers[503] = self.answers.get(503, 0) + 1  # the main loop's, as flush_answers
        keep = self.alive and one_whole_request(buf)
        answer = overloaded_answer(keep, request_facts(buf) if facts is None else facts)
        try:
            sent = socket.socket.send(sock, answer)
        except OSError:
            sent = -1
        if sent == len(answer) and keep:
            self.resting[conn] = time.monotonic() + SHED_REST
            return
        self.nr_conns -= 1
        if sent < 0:
            sock.close()
        else:
            self.linger(sock)

    def linger(self, sock: socket.socket) -> None:
        """Half-close ``sock`` and let the poller read and drop what still comes, until
        the client closes or :data:`SHED_LINGER` seconds pass; then close it."""
        try:
            socket.socket.setblocking(sock, False)
            sock.shutdown(socket.SHUT_WR)
            self.poller.register(sock, selectors.EVENT_READ, partial(self._drain, sock))
        except (OSError, ValueError, KeyError):
            sock.close()
            return
        self.lingering[sock] = time.monotonic() + SHED_LINGER

    def _drain(self, sock: socket.socket, _fileobj: object = None) -> None:
        try:
            if socket.socket.recv(sock, 65536):
                return
        except BlockingIOError:
            return
        except OSError:
            pass
        self._close_lingering(sock)

    def _close_lingering(self, sock: socket.socket) -> None:
        try:
            self.poller.unregister(sock)
        except (KeyError, ValueError, OSError):
            pass
        self.lingering.pop(sock, None)
        sock.close()

    def _cap_keepalive(self, deadline: float) -> None:
        """Stopping: waiting connections go by ``deadline`` too, as gthread's kept-alive ones."""
        super()._cap_keepalive(deadline)
        for conn, until in self.waiting.items():
            self.waiting[conn] = min(until, deadline)

    def murder_keepalived(self, force: bool = False) -> None:
        """gthread's sweep of idle connections, and of this worker's: connections that
        sent nothing in time (closed), requests that did not arrive in time (408),
        shed ones at the end of their rest (watched again) or linger (closed)."""
        super().murder_keepalived(force)
        self.flush_answers(force)
        now = time.monotonic()
        for table in (self.resting, self.waiting, self.gathering):
            while table:
                conn, until = next(iter(table.items()))
                if until > now and not force:
                    break
                del table[conn]
                if table is self.resting and not force:
                    self._watch(conn)
                    continue
                facts = request_facts(conn.arrival.data) if conn.arrival is not None else NO_FACTS
                self._unwatch(conn)
                self.nr_conns -= 1
                if table is self.gathering and not force:
                    self._refuse(conn, 408, "request-timeout", "Request timeout",
                                 str(HeadTooSlow(self.read_timeout)), facts=facts)
                else:
                    conn.sock.close()
        while self.lingering:
            sock, until = next(iter(self.lingering.items()))
            if until > now and not force:
                break
            self._close_lingering(sock)

    def _refuse(self, conn: Conn, status: int, slug: str, title: str, detail: str,
                facts: RequestFacts = NO_FACTS) -> None:
        """Answer ``status`` from the main loop and close gracefully (what is still sent is
        read and dropped: :meth:`linger`)."""
        self.count(status)
        try:
            socket.socket.send(conn.sock, problem_answer(status, slug, title, detail, facts=facts))
        except OSError:
            conn.sock.close()
            return
        self.linger(conn.sock)
