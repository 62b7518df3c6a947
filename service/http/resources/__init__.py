"""Falcon resources, one module per area of the API: parse, call the core, answer.

``meta`` serves the health check, the OpenAPI document, the docs page and the
metrics; ``hands`` scores a hand or crib; ``pegging`` scores the play of a
hand and rules on a go; ``games`` plays whole games.
"""
