"""Register every blueprint that exists (areas are added module by module)."""
from __future__ import annotations

from importlib import import_module

from flask import Flask

AREAS = ("web.pages", "web.api", "web.operator_api", "web.log_api", "web.log_tiles", "web.openapi", "web.stats_page",
         "web.collusion_page")


def init_app(app: Flask) -> None:
    for name in AREAS:
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        app.register_blueprint(module.bp)
