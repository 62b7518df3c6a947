"""The HTTP layer: thin falcon glue around :mod:`service.core`.

Modules, one concern each:

* :mod:`.problems` -- RFC 9457 ``application/problem+json`` for every error;
* :mod:`.media` -- orjson request/response handlers and reading a JSON body;
* :mod:`.middleware` -- request id, body size limit, CORS, metrics;
* :mod:`.metrics` -- the Prometheus metrics, cheap under several workers;
* :mod:`.schemas` -- marshmallow request schemas (strict fields, card field);
* :mod:`.resources` -- one module per area: ``meta`` (health, docs, spec,
  metrics), ``hands`` (the show), ``pegging`` (the play of one hand, the go),
  ``games`` (whole games, stateless, plain or sealed); each is routed by one
  ``add_route`` line in :func:`service.app.create_app`.

A request is checked at this edge once (its JSON shape, as openapi.yaml
describes it); the rules themselves (docs/rules.md) are the core's, and a
resource parses, calls the core and answers, writing the core's values
with :mod:`service.boundary` (states, options, actions, events, views,
judged claims, and every core error's pointer).  Nothing in :mod:`service.core` imports from here.
"""
