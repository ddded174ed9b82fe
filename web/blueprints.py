"""Register every blueprint of the site: each area is one module with a ``bp``.

Every area must import: a module that fails to (a missing dependency, a syntax error, a
renamed module) fails the app's start with its own error, never a site that quietly lacks a
part (tests/web/test_web_blueprints.py)."""
from __future__ import annotations

from importlib import import_module

from flask import Flask

AREAS = ("web.pages", "web.static_files", "web.api", "web.operator_api", "web.log_api", "web.log_tiles", "web.openapi",
         "web.stats_page", "web.collusion_page")


def init_app(app: Flask, areas: tuple[str, ...] = AREAS) -> None:
    for name in areas:
        app.register_blueprint(import_module(name).bp)
