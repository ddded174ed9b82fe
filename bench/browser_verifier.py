#!/usr/bin/env python3
"""How fast the in-browser verifier recomputes hands, as ratios against baselines measured
in the same run (no absolute thresholds: machines differ).

* JS verifyHand (commitments + shuffle + deal) per hand, against replay.fairness doing the
  same work in Python.
* The JS shuffle with batched HMAC blocks (what web/static/verifier/stream.mjs does),
  against the same shuffle awaiting one WebCrypto HMAC at a time.

    python bench/browser_verifier.py [--rounds 5]

Needs Debian's Chromium (/usr/bin/chromium) and the python playwright package.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
import pathlib
import shutil
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.fairness import commit_player_seed, commit_server_seed, hand_randomness  # noqa: E402
from replay.rulesets import Ruleset  # noqa: E402

ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

JS = """
async ({vectors, rounds}) => {
  const V = await import("./verifier/verifier.mjs");
  const S = await import("./verifier/stream.mjs");
  const F = await import("./verifier/fairness.mjs");
  const R = await import("./verifier/rulesets.mjs");
  const Sh = await import("./verifier/shoes.mjs");
  class OneAtATime extends S.Stream {
    async ensure(n) { while (this.pos + 1 > this.words.length) await this.fetch(1); }
  }
  const inputs = vectors.map((v) => ({ruleset: v.ruleset, hand_id: v.hand_id, dealer: v.dealer,
    server_seed: v.server_seed, player_seeds: v.player_seeds,
    server_commitment: v.expect.server_commitment, player_commitments: v.expect.player_commitments}));
  let t = performance.now();
  for (let r = 0; r < rounds; r++) for (const x of inputs) await V.verifyHand(x);
  const verifyMs = (performance.now() - t) / (rounds * inputs.length);
  const prepared = [];
  for (const v of vectors) {
    const rs = await R.rulesetFromJson(v.ruleset);
    const hr = await F.HandRandomness.create(F.parseServerSeed(v.server_seed), v.hand_id, rs,
                                             v.player_seeds.map(F.parsePlayerSeed));
    prepared.push([hr, Sh.canonicalShoe(rs, v.n_seats)]);
  }
  const timeShuffle = async (Cls) => {
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) for (const [hr, shoe] of prepared) await new Cls(hr.key, hr.material, "deal").shuffle(shoe);
    return (performance.now() - t0) / (rounds * prepared.length);
  };
  const oneMs = await timeShuffle(OneAtATime);
  const batchMs = await timeShuffle(S.Stream);
  return {verifyMs, oneMs, batchMs};
}
"""


def python_ms(vectors, rounds: int) -> float:
    t = time.perf_counter()
    for _ in range(rounds):
        for v in vectors:
            server = bytes.fromhex(v["server_seed"])
            seeds = [bytes.fromhex(s) for s in v["player_seeds"]]
            commit_server_seed(server)
            for i, s in enumerate(seeds):
                commit_player_seed(v["hand_id"], i, s)
            hand_randomness(server, v["hand_id"], Ruleset.from_json(v["ruleset"]), seeds).deal(v["dealer"])
    return (time.perf_counter() - t) * 1000 / (rounds * len(vectors))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    chromium = "/usr/bin/chromium" if pathlib.Path("/usr/bin/chromium").exists() else shutil.which("chromium")
    if not chromium:
        print("no chromium: nothing to measure")
        return 0
    from playwright.sync_api import sync_playwright

    vectors = json.loads((ROOT / "fixtures" / "vectors" / "v1.json").read_text())["vectors"]
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT / "web" / "static"))
    handler.func.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript"}
    handler.func.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/verify.html")
            page.evaluate(JS, {"vectors": vectors[:4], "rounds": 1})  # warm up
            js = page.evaluate(JS, {"vectors": vectors, "rounds": args.rounds})
            browser.close()
    finally:
        server.shutdown()
    py = python_ms(vectors, args.rounds)
    print(f"{len(vectors)} vectors x {args.rounds} rounds")
    print(f"verify one hand: JS {js['verifyMs']:.2f} ms, Python {py:.2f} ms  (JS/Python = {js['verifyMs'] / py:.2f})")
    print(f"shuffle one shoe: batched {js['batchMs']:.2f} ms, one HMAC per await {js['oneMs']:.2f} ms"
          f"  (speed-up = {js['oneMs'] / js['batchMs']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
