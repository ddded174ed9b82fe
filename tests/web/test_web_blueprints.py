"""Every area of the site is registered, and one that does not import fails loudly: the app
does not start without it (web/blueprints.py)."""
from __future__ import annotations

import pytest
from flask import Flask

from web.blueprints import AREAS, init_app


def test_every_area_is_registered(app):
    assert {bp.import_name for bp in app.blueprints.values()} >= set(AREAS)


def test_an_area_that_does_not_import_stops_the_app():
    with pytest.raises(ModuleNotFoundError, match="web.no_such_area"):
        init_app(Flask(__name__), ("web.no_such_area", *AREAS))
