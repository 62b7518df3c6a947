"""Falcon resources, one module per area of the API.

``meta`` serves the health check, the OpenAPI document, the docs page and the
metrics; ``hands`` scores a hand or crib.  Pegging and games will sit beside
them.
"""
