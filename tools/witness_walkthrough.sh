#!/usr/bin/env bash
# The README's witness section, run exactly as written there: the block between
# "<!-- witness:start -->" and "<!-- witness:end -->" in README.md is read from the file and
# run as one bash script (so the README and this script cannot drift apart), then the result
# is checked: the served checkpoint is the operator's own log, signed by the operator's key,
# and carries the witness's cosignature.  Exits non-zero if any step fails.
#
#   tools/witness_walkthrough.sh            # runs "python3 -m web.cli" from this checkout
#   TIPLU=tiplu tools/witness_walkthrough.sh
#   tools/witness_walkthrough.sh --print    # print the block it runs
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BLOCK=$(awk '/<!-- witness:start -->/{on=1; next} /<!-- witness:end -->/{on=0} on' "$ROOT/README.md" \
        | sed -e 's/^    //')
[ -n "$BLOCK" ] || { echo "witness walkthrough: no witness block in README.md" >&2; exit 1; }
if [ "${1:-}" = "--print" ]; then printf '%s\n' "$BLOCK"; exit 0; fi

# `tiplu` as a real executable (not a shell function), so that `tiplu … &` and `kill $!`
# act on the tiplu process itself, as they do with an installed tiplu
BIN=$(mktemp -d)
printf '#!/bin/sh\nexec %s "$@"\n' "${TIPLU:-python3 -m web.cli}" > "$BIN/tiplu"
chmod +x "$BIN/tiplu"
export PATH="$BIN:$PATH" PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
fail() { echo "witness walkthrough: FAILED: $*" >&2; exit 1; }
cleanup() {
  for pid in ${SITE_PID:-} ${WITNESS_PID:-}; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$BIN" "${HERE:-}"
}
trap cleanup EXIT

echo "== the README's witness section"
eval "$BLOCK"
HERE=$PWD

echo "== checks"
python3 - "$PUB" "$(cat witness.vkey)" checkpoint.json <<'PY' || fail "the served checkpoint is not witnessed as the README says"
import json, sys
from audit.tlog.checkpoint import verify_checkpoint
from audit.tlog.cosignature import check_quorum, parse_witness_vkey
pub, vkey, path = sys.argv[1:]
body = json.load(open(path))
assert body["operator"] == "acme" and body["public_key"] == pub, body
verify_checkpoint(body["checkpoint"], pub, origin="tiplu.local/log/acme")
[r] = check_quorum(body["checkpoint"], [parse_witness_vkey(vkey)], 1)
assert body["witnesses_missing"] == [], body
print(f"OK: checkpoint of tiplu.local/log/acme, size {body['size']}, signed by acme's key, "
      f"cosigned by {r.name} at {r.timestamp}")
PY
tiplu witness state --db witness.db | grep -q "tiplu.local/log/acme size" || fail "the witness holds no state for the log"
[ -f witness.key.state ] || fail "the witness kept no state marker beside its key"
printf '\nwitness walkthrough: all steps passed\n'
