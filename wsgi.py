"""WSGI entry point for production servers: ``gunicorn -w 2 -b 127.0.0.1:8000 wsgi:app``
(or, without this file, ``gunicorn 'web:create_app()'``).  Settings: ``docs/web.md``."""
from web import create_app

app = create_app()
