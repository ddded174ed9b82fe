#!/usr/bin/env python3
"""Hand page and verdict API requests per second, against a static file on the same server.

    python bench/web.py [--requests 200] [--threads 4] [--hands 8]

Builds a ledger of simulated Kitti hands in a temporary directory, serves the Flask app
(:func:`web.create_app`) with werkzeug's threaded server on 127.0.0.1 (an ephemeral port,
never another interface), and sends a bounded number of requests from ``--threads``
concurrent client threads to each of: ``GET /hands/<id>`` (the hand page),
``GET /api/v1/hands/<id>/verdict`` (a full audit of the record per request), and a static
file of ``web/static`` (the baseline: the same server, the same sockets, no work), in
``--rounds`` interleaved rounds, each figure the best of its rounds.  Prints
requests per second and each figure as a ratio of the static one.  Skips with "not
available" when the app lacks those routes.
"""
from __future__ import annotations

import argparse
import http.client
import json
import logging
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROUTES = ("/hands/<hand_id>", "/api/v1/hands/<hand_id>/verdict")


def _load(port: int, paths: list[str], requests: int, threads: int) -> tuple[float, int]:
    """Requests per second for ``requests`` GETs cycling over ``paths``; and the non-200 count."""
    per_thread = max(1, requests // threads)
    bad = [0]
    lock = threading.Lock()

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for i in range(per_thread):
            conn.request("GET", paths[(k + i) % len(paths)])
            resp = conn.getresponse()
            resp.read()
            if resp.status != 200:
                with lock:
                    bad[0] += 1
            if resp.getheader("Connection", "").lower() == "close" or resp.version == 10:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.close()

    workers = [threading.Thread(target=client, args=(k,)) for k in range(threads)]
    t = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return per_thread * threads / (time.perf_counter() - t), bad[0]


def run(requests: int = 200, threads: int = 4, hands: int = 8, rounds: int = 3) -> dict:
    try:
        from web import create_app
    except ImportError as exc:
        return {"available": False, "why": f"no web app ({exc})"}
    from werkzeug.serving import make_server

    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "tiplu.db")
        app = create_app({"TIPLU_DB": db, "TESTING": False})
        rules = {r.rule for r in app.url_map.iter_rules()}
        missing = [r for r in ROUTES if r not in rules]
        if missing:
            return {"available": False, "why": f"the app has no route {', '.join(missing)}"}
        ledger = Ledger(db, create=True)
        ledger.new_operator("demo-operator")
        ids: list[str] = []
        simulate_table(ledger, preset="kitti", players=4, hands=hands, seed="bench-web", table_id="bw",
                       on_record=lambda r, k: ids.append(r["hand_id"]))
        ledger.close()
        static_dir = Path(app.static_folder)
        static = next(p for p in sorted(static_dir.rglob("*")) if p.is_file())
        static_url = f"{app.static_url_path}/{static.relative_to(static_dir).as_posix()}"
        logging.getLogger("werkzeug").setLevel(logging.ERROR)   # no line per request on stderr
        server = make_server("127.0.0.1", 0, app, threaded=True)
        port = server.server_port
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            _load(port, [static_url], 20, 2)  # warm up
            out = {"available": True, "threads": threads, "requests": requests, "static_path": static_url,
                   "rounds": rounds}
            kinds = (("static", [static_url]), ("hand_page", [f"/hands/{h}" for h in ids]),
                     ("verdict_api", [f"/api/v1/hands/{h}/verdict" for h in ids]))
            for _ in range(rounds):   # interleaved, best of the rounds: drift on a shared VM favours no kind
                for name, paths in kinds:
                    rate, bad = _load(port, paths, requests, threads)
                    out[name] = max(out.get(name, 0.0), rate)
                    out[f"{name}_non_200"] = out.get(f"{name}_non_200", 0) + bad
        finally:
            server.shutdown()
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; each figure is the best (default 3)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = run(args.requests, args.threads, args.hands, args.rounds)
    if args.json:
        print(json.dumps(out))
    elif not out["available"]:
        print(f"web: not available ({out['why']})")
    else:
        print(f"{args.threads} concurrent clients, {args.requests} requests each kind, on 127.0.0.1")
        for name in ("static", "hand_page", "verdict_api"):
            print(f"{name:12} {out[name]:8,.0f} requests/s   x{out[name] / out['static']:.3f} static"
                  + (f"   ({out[name + '_non_200']} not 200)" if out[name + "_non_200"] else ""))
    return out


if __name__ == "__main__":
    main()
