"""Where a problem is, as a JSON pointer (RFC 6901) into the request body.

The core locates an error by keys and indexes (a
:data:`~service.core.errors.Location`); each layer that handed it a part of
the request adds where that part sits; this is the one place a location
becomes the text a client reads in a problem's ``field``.
"""

from __future__ import annotations

from service.core.errors import Location, Step


def json_pointer(*steps: Step) -> str:
    """RFC 6901 pointer from path steps: ``json_pointer("cards", 2) == "/cards/2"``.

    >>> json_pointer("cards", 2), json_pointer(), json_pointer("a/b~c")
    ('/cards/2', '', '/a~1b~0c')
    """
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in steps)


def pointer(at: Location) -> str:
    """The pointer of a location (``""``: the body as a whole).

    >>> pointer(("state", "actions", 3))
    '/state/actions/3'
    """
    return json_pointer(*at)
