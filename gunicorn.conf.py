"""Loaded by gunicorn when it runs from the repo root: Tiplu's settings (web/gunicorn_conf.py)."""
from web.gunicorn_conf import *  # noqa: F401,F403
