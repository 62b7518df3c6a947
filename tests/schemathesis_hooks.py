"""schemathesis hooks, shared by pytest (imported from conftest) and the CLI
(``SCHEMATHESIS_HOOKS=tests/schemathesis_hooks.py``).

JSON Schema cannot say "no card twice, spelling-insensitive, and the starter
is not one of the cards" (``uniqueItems`` sees ``5H`` and ``5h`` as
different).  Such bodies are *invalid* for the service (422), so they are
dropped from *positive* generation only; negative generation keeps them.
"""

from __future__ import annotations

import schemathesis

from service.core.cards import Card
from service.core.errors import MalformedCardError


def _gives_a_card_twice(body: object) -> bool:
    if not isinstance(body, dict):
        return False
    texts = list(body.get("cards") or []) if isinstance(body.get("cards"), list) else []
    if "starter" in body:
        texts.append(body["starter"])
    seen: set[int] = set()
    for text in texts:
        try:
            card = Card.parse(text)
        except MalformedCardError:
            continue
        if card in seen:
            return True
        seen.add(card)
    return False


@schemathesis.hook
def filter_case(context, case) -> bool:
    meta = case.meta
    positive = meta is None or meta.generation.mode.is_positive
    if positive and case.path == "/v1/hands/score" and _gives_a_card_twice(case.body):
        return False
    return True
