"""gunicorn settings for the cribbage service (read automatically from the working directory).

Environment:
  HOST (default 0.0.0.0), PORT (default 8000)
  WEB_CONCURRENCY   worker processes (default: CPUs + 1, at most 8)
  GUNICORN_THREADS  threads per worker (default 2)
  GUNICORN_TIMEOUT  seconds before a silent worker is restarted (default 30)
  PROMETHEUS_MULTIPROC_DIR  where workers write metrics (default: a fresh temp dir)

gthread with a few workers x 2 threads beats sync here: sync closes every
connection, gthread keeps them alive.  Over-provisioning workers loses
throughput on small machines, hence CPUs + 1.
"""

import os
import shutil
import tempfile


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


wsgi_app = "service.app:app"
bind = [f"{os.environ.get('HOST', '0.0.0.0')}:{_int_env('PORT', 8000)}"]

worker_class = "gthread"
workers = _int_env("WEB_CONCURRENCY", min(_cpus() + 1, 8))
threads = _int_env("GUNICORN_THREADS", 2)
timeout = _int_env("GUNICORN_TIMEOUT", 30)
graceful_timeout = 20
keepalive = 5
max_requests = 0  # no periodic worker recycling: nothing leaks

# Request line and header limits (the body limit is the app's: CRIBBAGE_MAX_BODY_BYTES).
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190

accesslog = None if os.environ.get("GUNICORN_ACCESS_LOG", "-") == "off" else os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = '%(t)s %(h)s "%(r)s" %(s)s %(B)s %(M)sms rid=%({x-request-id}o)s "%(a)s"'

# gunicorn >= 25.1 opens a control socket under $HOME by default; not wanted here.
control_socket_disable = True

# Metrics: every worker writes its samples under PROMETHEUS_MULTIPROC_DIR, and
# GET /metrics aggregates them.  Must be set before a worker imports the app.
_OWN_METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _OWN_METRICS_DIR:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="cribbage-metrics-")


def on_starting(server):
    """Start with no samples left over from an earlier run."""
    path = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if os.path.isfile(full):
            os.unlink(full)


def worker_exit(server, worker):
    """In the worker: write the metrics it buffered (service/http/metrics.py)."""
    import sys

    metrics = sys.modules.get("service.http.metrics")
    if metrics is not None:
        metrics.flush()


def child_exit(server, worker):
    try:
        from prometheus_client import multiprocess
    except ImportError:  # an app without prometheus-client (bench/peer_flask.py)
        return
    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _OWN_METRICS_DIR:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
