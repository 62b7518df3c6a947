"""HEAD wherever GET (RFC 9110 9.3.2: a general-purpose server supports both).

Uptime checkers, caches and link checkers ask with HEAD.  falcon answers a HEAD
request with its responder's status and headers, ``Content-Length`` included,
and drops the body itself (``falcon.App``), so the GET responder serves HEAD
as it is: this router only maps one to the other, for every route, so that a
GET route added later answers HEAD too.  (falcon's static routes, such as
``/docs/static``, answer HEAD already.)
"""

from __future__ import annotations

from typing import Any

import falcon.inspect
from falcon.routing import CompiledRouter


class Router(CompiledRouter):
    """falcon's router, with ``HEAD`` answered by the resource's GET responder."""

    def map_http_methods(self, resource: object, **kwargs: Any) -> dict[str, Any]:
        methods: dict[str, Any] = super().map_http_methods(resource, **kwargs)
        if "GET" in methods and "HEAD" not in methods:
            methods["HEAD"] = methods["GET"]
        return methods


# falcon's route inspection (falcon.inspect, falcon-print-routes) reads it as the router it extends.
falcon.inspect.register_router(Router)(falcon.inspect.inspect_compiled_router)
