"""The HTTP layer: thin falcon glue around :mod:`service.core`.

Modules, one concern each:

* :mod:`.problems` -- RFC 9457 ``application/problem+json`` for every error;
* :mod:`.media` -- orjson request/response handlers and reading a JSON body;
* :mod:`.middleware` -- request id, body size limit, metrics;
* :mod:`.schemas` -- marshmallow request schemas (strict fields, card field);
* :mod:`.resources` -- one module per area (``meta``: health, docs, spec;
  ``hands``: the show).  Later areas (pegging, games) add a module there and
  one ``add_route`` line in :func:`service.app.create_app`.

Nothing in :mod:`service.core` imports from here.
"""
