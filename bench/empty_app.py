"""The "empty falcon endpoint": the reference side of bench/harness.py.

``bench.empty_app:app`` is a bare falcon WSGI app, served by gunicorn under the
same ``gunicorn.conf.py`` as the service, so that a ratio against it measures
only the work behind the service's endpoint:

``POST /empty``
    reads the JSON body with ``req.get_media()`` through the service's own
    orjson media handlers (:func:`service.http.media.install`) and answers
    ``{"ok": true}``.
``GET /healthz``
    answers ``{"status": "ok"}`` (the harness waits on it).

No middleware, no error serializer, no metrics: only what falcon needs.
"""

from __future__ import annotations

import falcon

from service.http import media


class Empty:
    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        req.get_media()  # parse the body like the service does, then drop it
        resp.media = {"ok": True}


class Health:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.media = {"status": "ok"}


def create_app() -> falcon.App:
    app = falcon.App()
    media.install(app)
    app.add_route("/empty", Empty())
    app.add_route("/healthz", Health())
    return app


app = create_app()
