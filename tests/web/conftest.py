"""Fixtures of the web tests: one real ledger built once, copied for each test that writes."""
from __future__ import annotations

import pytest

from web import create_app

from web_testkit import build_site


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The shared test ledger (read-only use): see ``web_testkit.build_site``."""
    return build_site(str(tmp_path_factory.mktemp("site") / "site.db"))


def _app(db_path: str, **config):
    return create_app({"TESTING": True, "TIPLU_DB": db_path, **config})


@pytest.fixture
def app(site):
    return _app(site.db_path)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def fresh_db(site, tmp_path):
    """A private copy of the site's ledger, for tests that write."""
    from audit.operator.ledger.secret_store import copy_ledger

    dst = str(tmp_path / "copy.db")
    copy_ledger(site.db_path, dst)
    return dst


@pytest.fixture
def make_app():
    return _app
