# syntax=docker/dockerfile:1
# The cribbage rules service: gunicorn (gthread) serving service.app:app on $PORT (8000).
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000

WORKDIR /app

RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --home-dir /app --no-create-home app

# The package is installed in editable mode from /app, so that it finds
# openapi.yaml next to it (the repository layout).
COPY pyproject.toml README.md ./
COPY service ./service
COPY openapi.yaml gunicorn.conf.py ./
RUN pip install -e . && chown -R root:root /app && chmod -R a+rX /app

USER 10001:10001
EXPOSE 8000

# slim images have no curl: ask the service with the Python interpreter.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2).status == 200 else 1)"]

CMD ["gunicorn", "-c", "gunicorn.conf.py"]
