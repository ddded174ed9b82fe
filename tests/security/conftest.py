"""Shared fixtures of the security tests (the web test kit lives in tests/web)."""
from __future__ import annotations

import pathlib
import sys

_WEB_TESTS = str(pathlib.Path(__file__).resolve().parents[1] / "web")
if _WEB_TESTS not in sys.path:
    sys.path.append(_WEB_TESTS)

import sqlite3  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """A real ledger with Kitti hands in every lifecycle state (``tests/web/web_testkit.py``)."""
    from web_testkit import build_site

    return build_site(str(tmp_path_factory.mktemp("security-site") / "site.db"))


def copy_db(src_path: str, dst_path: str) -> str:
    """An online-backup copy of a ledger file (what an operator's backup does)."""
    src, out = sqlite3.connect(src_path), sqlite3.connect(dst_path)
    try:
        src.backup(out)
    finally:
        src.close()
        out.close()
    return dst_path


@pytest.fixture
def make_app(site, tmp_path):
    """``make_app(**config)``: the app over a private copy of the site's ledger."""
    from web import create_app

    def make(**config):
        db = copy_db(site.db_path, str(tmp_path / f"copy{len(list(tmp_path.iterdir()))}.db"))
        return create_app({"TESTING": True, "TIPLU_DB": db, **config})

    return make
