"""Shared fixtures of the security tests (the web test kit lives in tests/web)."""
from __future__ import annotations

import pathlib
import sys

_WEB_TESTS = str(pathlib.Path(__file__).resolve().parents[1] / "web")
if _WEB_TESTS not in sys.path:
    sys.path.append(_WEB_TESTS)
