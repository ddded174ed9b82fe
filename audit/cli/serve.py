"""``tiplu serve``: the website and the APIs on Flask's development server.

For production run it under gunicorn instead: ``gunicorn -w 2 'web:create_app()'``
(``docs/web.md``).
"""
from __future__ import annotations

import os

import click

from . import main


@main.command("serve")
@click.option("--db", "db", envvar="TIPLU_DB", default="tiplu.db", show_default=True, metavar="PATH",
              help="The ledger's SQLite file (env TIPLU_DB).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--debug", is_flag=True, help="Flask debug mode (reloader, tracebacks): never in production.")
def serve(db: str, host: str, port: int, debug: bool) -> None:
    """Serve the pages and the APIs on Flask's development server.

    For production run gunicorn: gunicorn -w 2 'web:create_app()' (docs/web.md).
    """
    from web import create_app

    os.environ["TIPLU_DB"] = os.path.abspath(db)
    app = create_app()
    click.echo(f"Tiplu on http://{host}:{port}/  (ledger {os.environ['TIPLU_DB']})", err=True)
    app.run(host=host, port=port, debug=debug)
