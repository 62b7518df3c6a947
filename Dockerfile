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
# The rules kernel (service/core/kernel.py) is compiled with mypyc in the `kernel` stage,
# which has a C compiler; the final image has none and takes the extension module from it.
# GET /version and /readyz say "kernel": "compiled".
#
# Runs as uid/gid 10001 on a read-only root filesystem: nothing is written outside
# /tmp (gunicorn's worker heartbeats and metrics directory, nginx's pid and temp files;
# bytecode is compiled at build time), which deploy/kubernetes mounts as emptyDirs.
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE} AS kernel

SHELL ["/bin/sh", "-eux", "-c"]

# The same base image (the same Python); gcc, and Python's headers and venv where the base lacks them.
# hadolint ignore=DL3008,SC2086
RUN packages="gcc libc6-dev"; \
    if ! python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(sysconfig.get_paths()["include"] + "/Python.h"))'; then packages="$packages python3-dev"; fi; \
    if ! python3 -m venv /tmp/venv-probe >/dev/null 2>&1; then packages="$packages python3-venv"; fi; \
    rm -rf /tmp/venv-probe; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages; \
    rm -rf /var/lib/apt/lists/*; \
    python3 -m venv /opt/build; \
    /opt/build/bin/pip install --no-cache-dir setuptools==84.2.1 mypy==2.4.1

WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY service/core/kernel.py ./service/core/kernel.py
# Here the compiled kernel is required: a failure fails the build.
RUN /opt/build/bin/python setup.py build_ext --build-lib /out \
    && ls /out/cribbage_kernel.*.so

FROM ${PYTHON_IMAGE}

ARG GIT_REVISION=""

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    PATH=/opt/venv/bin:$PATH \
    CRIBBAGE_GIT_REVISION=${GIT_REVISION}

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

WORKDIR /app

# The package is installed in editable mode from /app, so that it finds
# openapi.yaml and pyproject.toml next to it (the repository layout).
COPY pyproject.toml setup.py README.md LICENSE ./
COPY service ./service
COPY openapi.yaml gunicorn.conf.py ./
COPY --from=kernel /out/ /tmp/kernel/
# The compiled kernel comes from the kernel stage, beside the installed packages.
RUN CRIBBAGE_KERNEL_COMPILE=0 pip install --no-compile -e . \
    && cp /tmp/kernel/cribbage_kernel.*.so "$(python -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')/" \
    && rm -rf /tmp/kernel \
    && python -c 'from service.core import engine; assert engine.KERNEL == "compiled", engine.WHY' \
    && python -m compileall -q /app/service /opt/venv \
    && chown -R root:root /app /opt/venv \
    && chmod -R a+rX,go-w /app /opt/venv

USER 10001:10001
EXPOSE 8000 8080

# slim images have no curl: ask the service with the Python interpreter.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2).status == 200 else 1)"]

CMD ["gunicorn", "-c", "gunicorn.conf.py"]
