"""``tiplu serve``: the website and the APIs on Flask's development server.

For production run it under gunicorn instead: ``gunicorn -w 2 'web:create_app()'``
(``docs/web.md``).
"""
from __future__ import annotations

import os

import click

from . import main
from ._ledger_common import db_option


@main.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--debug", is_flag=True, help="Flask debug mode (reloader, tracebacks): never in production.")
def serve(db: str, host: str, port: int, debug: bool) -> None:
    """Serve the pages and the APIs on Flask's development server.

    For production run gunicorn: gunicorn -w 2 'web:create_app()' (docs/web.md).
    """
    from web import create_app

    from ..ledger import Ledger

    Ledger(db).close()  # a missing, empty or foreign file: one line now, not a 503 on every request
    os.environ["TIPLU_DB"] = os.path.abspath(db)
    app = create_app()
    click.echo(f"Tiplu on http://{host}:{port}/  (ledger {os.environ['TIPLU_DB']})", err=True)
    app.run(host=host, port=port, debug=debug)
