# syntax=docker/dockerfile:1
# The cribbage rules service: gunicorn (gthread) serving service.app:app on $PORT (8000),
# and Debian's nginx, which deploy/kubernetes runs from this same image as the pod's proxy
# (nginx -e stderr -c /etc/cribbage/nginx/nginx.conf).
#
# PYTHON_IMAGE: a Debian-based image with Python 3.11 or later, either the official
# python:3.11-slim (Python in /usr/local, venv and pip included) or plain Debian with
# Debian's python3 (python3-venv is installed when `python3 -m venv` cannot work).
# deploy/image-check.sh builds this on a Debian bookworm made with debootstrap.
# GIT_REVISION: the commit built, reported by GET /version.
#
# Runs as uid/gid 10001 on a read-only root filesystem: nothing is written outside
# /tmp (gunicorn's worker heartbeats and metrics directory, nginx's pid and temp files;
# bytecode is compiled at build time), which deploy/kubernetes mounts as emptyDirs.
#
# Two stages on one base: "build" makes the wheel from the source (pip's PEP 517 build,
# as `python -m build` does), and the image installs that wheel, not the source tree:
# what runs is what a release ships (the OpenAPI document, the gunicorn settings and the
# tuned table are package data; tests/system/test_wheel.py serves an installed wheel).
# The build stage has a C compiler, so the wheel holds the rules kernel compiled by
# mypyc (setup.py); the image refuses to build without it (GET /version and /readyz say
# "kernel": "compiled").
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE} AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    PATH=/opt/venv/bin:$PATH

SHELL ["/bin/sh", "-eux", "-c"]

# Debian's package versions differ between the base images this supports, so they
# are not pinned (DL3008); the Debian release of the base image pins them.  $packages
# is split into words on purpose (SC2086).
# hadolint ignore=DL3008,SC2086
RUN packages="nginx"; \
    if ! python3 -m venv /tmp/venv-probe >/dev/null 2>&1; then packages="$packages python3-venv"; fi; \
    rm -rf /tmp/venv-probe; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages; \
    rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default; \
    python3 -m venv /opt/venv; \
    groupadd --system --gid 10001 app; \
    useradd --system --uid 10001 --gid app --home-dir /app --no-create-home --shell /usr/sbin/nologin app

# The wheel, built from the files a release is made of (no tests, no bench), with a C
# compiler (and Python's headers where the base lacks them) for the compiled kernel.
FROM base AS build
# hadolint ignore=DL3008,SC2086
RUN packages="gcc libc6-dev"; \
    if ! python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(sysconfig.get_paths()["include"] + "/Python.h"))'; then packages="$packages python3-dev"; fi; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages; \
    rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY service ./service
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM base
ARG GIT_REVISION=""
ENV CRIBBAGE_GIT_REVISION=${GIT_REVISION}
WORKDIR /app
# The wheel and its dependencies into /opt/venv (compiled there now: the root filesystem
# is read-only at run time); nothing of the source tree is in the image.
COPY --from=build /wheels /wheels
RUN pip install --no-compile /wheels/*.whl \
    && rm -rf /wheels \
    && python -c 'from service.core import engine; assert engine.KERNEL == "compiled", engine.WHY' \
    && python -m compileall -q /opt/venv \
    && chown -R root:root /opt/venv \
    && chmod -R a+rX,go-w /opt/venv

USER 10001:10001
EXPOSE 8000 8080

# slim images have no curl: ask the service with the Python interpreter.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2).status == 200 else 1)"]

# gunicorn with the package's settings (service/gunicorn_conf.py); `serve` execs it, so
# gunicorn's master is PID 1 and gets the stop signals.
CMD ["cribbage-service", "serve"]
