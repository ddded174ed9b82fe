"""Shared fixtures of the security tests (the web test kit lives in tests/web)."""
from __future__ import annotations

import pathlib
import sys

_WEB_TESTS = str(pathlib.Path(__file__).resolve().parents[1] / "web")
if _WEB_TESTS not in sys.path:
    sys.path.append(_WEB_TESTS)

import pytest  # noqa: E402

from security_kit import copy_db  # noqa: E402


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """A real ledger with Kitti hands in every lifecycle state (``tests/web/web_testkit.py``)."""
    from web_testkit import build_site

    return build_site(str(tmp_path_factory.mktemp("security-site") / "site.db"))


@pytest.fixture
def make_app(site, tmp_path):
    """``make_app(**config)``: the app over a private copy of the site's ledger."""
    from web import create_app

    def make(**config):
        db = copy_db(site.db_path, str(tmp_path / f"copy{len(list(tmp_path.iterdir()))}.db"))
        return create_app({"TESTING": True, "TIPLU_DB": db, **config})

    return make
