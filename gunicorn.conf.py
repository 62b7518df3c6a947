"""gunicorn reads this file from the working directory (``gunicorn -c gunicorn.conf.py``).

The settings live in the package, :mod:`service.gunicorn_conf`, so that an
installed wheel carries them too (``cribbage-service serve`` runs
``gunicorn -c python:service.gunicorn_conf``); this file only makes them the
checkout's default.
"""

from service.gunicorn_conf import *  # noqa: F401,F403
