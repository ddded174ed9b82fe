"""Anonymous reads against honest writes (issue 29, item 11), gunicorn on 127.0.0.1.

    python bench/read_starvation.py [--readers 40] [--seconds 10] [--workers 2] [--threads 4]

For each setting -- no read cap and no read cache (as before issue 29 item 11), the read
cap alone (``TIPLU_READ_SLOTS=2``, ``TIPLU_READ_CACHE=0``) and the defaults (the cap and the
read cache, web/read_cache.py) -- on a fresh ledger: one honest client plays hands alone for
``--seconds`` (the baseline, same run), then again while ``--readers`` threads fetch the
public hand list and hand pages as fast as they can.  Printed: the honest client's write
latency (its POSTs) with readers as a ratio of its own baseline, the hands it finished,
and what the readers got (200s and 503 ``busy``).  ``--reader-nice 19`` runs the readers'
processes niced: on this one machine their own client CPU otherwise takes most of the two
cores from the server and the honest client, which a real flood (from other machines) does not.  Ratios within one run, never absolute
times; no assertion (the behaviour is tested in tests/web/test_web_read_slots.py and
tests/web/test_web_read_cache.py).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import requests  # noqa: E402

from bench.servekit import HandClient, Server, percentiles, prepare  # noqa: E402


def honest(url: str, token: str, seconds: float, name: str) -> HandClient:
    client = HandClient(url, token, name)
    stop = threading.Event()
    t = threading.Thread(target=client.run, args=(stop,), daemon=True)
    t.start()
    time.sleep(seconds)
    stop.set()
    t.join(60)
    return client


def reader(url: str, stop: threading.Event, got: dict) -> None:
    session = requests.Session()
    paths = ["/api/v1/hands?limit=200", "/", "/api/v1/tables/load-t"]
    k = 0
    while not stop.is_set():
        try:
            code = session.get(url + paths[k % len(paths)], timeout=30).status_code
        except requests.RequestException:
            code = "error"
        got[code] = got.get(code, 0) + 1
        k += 1


def reader_process(args: tuple[str, int, float, int]) -> dict:
    """``n`` reader threads for ``seconds``, in a process of their own (at ``nice``): what they got."""
    url, n, seconds, nice = args
    if nice:
        os.nice(nice)
    stop, got = threading.Event(), {}
    threads = [threading.Thread(target=reader, args=(url, stop, got), daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(30)
    return got


def write_p50(client: HandClient) -> float:
    # the client's latencies are every request it made; its writes are the POSTs, which it
    # makes after each GET: take the median over all of them (reads are the minority)
    return percentiles(client.stats.latencies)["p50"]


#: the settings compared, each on a fresh ledger: before issue 29 item 11, the read cap alone
#: (its first step), and the defaults (the read cap and the read cache)
SETTINGS = [("no cap, no cache", {"TIPLU_READ_SLOTS": 0, "TIPLU_READ_CACHE": 0}),
            ("read cap 2, no cache", {"TIPLU_READ_SLOTS": 2, "TIPLU_READ_CACHE": 0}),
            ("defaults (cap 2, cache 1 s)", {})]


def one(name: str, config: dict, readers: int, seconds: float, workers: int, threads: int, directory: str,
        nice: int) -> dict:
    path = os.path.join(directory, f"{len(os.listdir(directory))}.db")
    token = prepare(path)
    server = Server(path, workers=workers, threads=threads, config=config).start()
    try:
        alone = honest(server.url, token, seconds, "alone")
        # the readers run in processes of their own, so they never hold this process's GIL
        # while the honest client waits for an answer
        procs = max(1, min(8, readers // 5))
        with multiprocessing.Pool(procs) as pool:
            counts = pool.map_async(reader_process, [(server.url, readers // procs + (k < readers % procs), seconds + 1,
                                                      nice) for k in range(procs)])
            time.sleep(1)  # the readers are at full speed before the honest client starts
            loaded = honest(server.url, token, seconds, "loaded")
            got: dict = {}
            for c in counts.get(seconds + 60):
                for code, n in c.items():
                    got[code] = got.get(code, 0) + n
    finally:
        server.stop()
    return {"setting": name,
            "alone_hands": alone.stats.hands_done, "loaded_hands": loaded.stats.hands_done,
            "alone_p50_ms": round(write_p50(alone) * 1000, 1), "loaded_p50_ms": round(write_p50(loaded) * 1000, 1),
            "ratio_p50": round(write_p50(loaded) / write_p50(alone), 1),
            "ratio_p90": round(percentiles(loaded.stats.latencies)["p90"] / percentiles(alone.stats.latencies)["p90"], 1),
            "honest_errors": len(alone.stats.errors) + len(loaded.stats.errors),
            "honest_error_samples": (alone.stats.errors + loaded.stats.errors)[:3],
            "readers_got": {str(k): v for k, v in sorted(got.items(), key=str)}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--readers", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--reader-nice", type=int, default=0,
                    help="run the readers at this niceness (19: their own CPU, which attackers spend on their own "
                         "machines, barely competes with the server and the honest client on this one)")
    ap.add_argument("--only", choices=["before", "cap", "defaults"], action="append",
                    help="run only these settings (default: all three)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    chosen = [s for s, tag in zip(SETTINGS, ("before", "cap", "defaults")) if not args.only or tag in args.only]
    with tempfile.TemporaryDirectory() as d:
        rows = [one(name, config, args.readers, args.seconds, args.workers, args.threads, d, args.reader_nice)
                for name, config in chosen]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for r in rows:
        print(f"{r['setting']}: honest client alone {r['alone_hands']} hands, with {args.readers} readers "
              f"{r['loaded_hands']} hands; its request p50 x{r['ratio_p50']} (p90 x{r['ratio_p90']}) of its own "
              f"baseline; honest errors {r['honest_errors']}; readers got {r['readers_got']}")


if __name__ == "__main__":
    main()
