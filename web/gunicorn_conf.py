"""gunicorn settings for Tiplu's apps (the site and the witness)::

    gunicorn -c python:web.gunicorn_conf -w 2 -b 127.0.0.1:8000 'web:create_app()'

(a ``gunicorn.conf.py`` at the repo root loads this when gunicorn runs there).  gunicorn's
own answers -- a request line or headers past the limits below, a request that is not HTTP
-- come in the app's one JSON error shape (``web/gunicorn_errors.py``), as 414, 431 or 400.
The limits are gunicorn's defaults, written out so they are documented (docs/web.md).
"""
from web.gunicorn_errors import install

#: the longest request line (method, path, query, version), in bytes
limit_request_line = 4094
#: at most this many request headers
limit_request_fields = 100
#: the longest request header, in bytes
limit_request_field_size = 8190

install()
