#!/usr/bin/env bash
# Five-minute walk-through: commit, seed, deal, reveal and verify one hand with the tiplu CLI,
# on a throw-away SQLite ledger (mktemp).  Exits non-zero if any step fails.
#
#   tools/walkthrough.sh              # runs "python3 -m audit.cli" from this checkout
#   TIPLU=tiplu tools/walkthrough.sh  # or an installed tiplu
#
# Needs "tiplu deal" and "tiplu verify-commitment" for the last steps; if this checkout
# lacks them they are skipped with a note (set WALKTHROUGH_STRICT=1 to fail instead).
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a TIPLU_CMD <<< "${TIPLU:-python3 -m audit.cli}"
tiplu() { "${TIPLU_CMD[@]}" "$@"; }
# jget PATH: read JSON on stdin, print the value at a dotted path (strings bare, others as JSON)
jget() { python3 -c 'import json,sys
v=json.load(sys.stdin)
for k in sys.argv[1].split("."): v=v[int(k)] if isinstance(v,list) else v[k]
print(v if isinstance(v,str) else json.dumps(v,sort_keys=True))' "$1"; }
step() { printf '\n== %s\n' "$*"; }
fail() { echo "walkthrough: FAILED: $*" >&2; exit 1; }

WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
export TIPLU_DB="$WORK/ledger.db"
HAND=demo-1
PLAYERS=(asha bikash chandra dipa)

step "1. The operator registers (a key is generated and kept in the ledger) and opens a table"
tiplu operator new acme
tiplu table new t1 --operator acme --preset kitti --seats 4 --point-value 0.25 --commission-pct 5
PUB=$(tiplu operator show acme --json | jget public_key)

step "2. A hand: the players in seat order and the dealer"
tiplu hand new --table t1 --hand-id "$HAND" --dealer 3 \
  --player "${PLAYERS[0]}" --player "${PLAYERS[1]}" --player "${PLAYERS[2]}" --player "${PLAYERS[3]}"

step "3. The operator commits to its server seed: only the hash is published (R-21)"
COMMIT=$(tiplu hand commit "$HAND" --json | jget statement.server_seed_commitment)
echo "server seed commitment $COMMIT"

step "4. Each player makes a seed and commits to it; each gets a receipt (the logged server commitment and theirs)"
SEEDS=()
for seat in 0 1 2 3; do
  SEEDS[$seat]=$(tiplu seed new)            # on the player's own device
done
# seat 0 hands over only its commitment, computed on its own device ...
C0=$(tiplu seed commit --hand-id "$HAND" --seat 0 --seed "${SEEDS[0]}")
tiplu hand seed-commit "$HAND" --seat 0 --commitment "$C0" --json > "$WORK/receipt-0.json"
# ... the others let the operator's tool compute it (their seed is not stored until they reveal)
for seat in 1 2 3; do
  tiplu hand seed-commit "$HAND" --seat "$seat" --seed "${SEEDS[$seat]}" --json > "$WORK/receipt-$seat.json"
done
for seat in 0 1 2 3; do
  echo "seat $seat receipt: commitment $(jget statements.1.statement.commitment < "$WORK/receipt-$seat.json")"
done

step "5. Once every seat has committed, each checks its receipt (under the pinned key) and reveals its seed"
for seat in 0 1 2 3; do
  tiplu hand seed-reveal "$HAND" --seat "$seat" --seed "${SEEDS[$seat]}" \
    --receipt "$WORK/receipt-$seat.json" --public-key "$PUB" --server-commitment "$COMMIT"
done

step "6. The deal (the operator's server sees the cards; nobody else can compute them yet)"
tiplu hand deal "$HAND"
tiplu hand cards "$HAND" --json > "$WORK/cards.json"

step "7. The hand is played and its record attached"
printf '{"hand_id": "%s", "moves": []}\n' "$HAND" > "$WORK/record.json"
tiplu hand finish "$HAND" --record "$WORK/record.json"

step "8. The operator reveals the server seed (R-22)"
SERVER=$(tiplu hand reveal "$HAND" --json | jget statement.server_seed)
echo "server seed $SERVER"

step "9. Anyone verifies: signatures, commitments, and the deal itself"
tiplu hand verify "$HAND" --public-key "$PUB"
tiplu hand show "$HAND"
if tiplu verify-commitment --help >/dev/null 2>&1 && tiplu deal --help >/dev/null 2>&1; then
  tiplu verify-commitment --server-seed "$SERVER" --commitment "$COMMIT"
  for seat in 0 1 2 3; do
    tiplu verify-commitment --hand-id "$HAND" --seat "$seat" --player-seed "${SEEDS[$seat]}" \
      --commitment "$(jget statements.1.statement.commitment < "$WORK/receipt-$seat.json")"
  done
  tiplu deal --preset kitti --hand-id "$HAND" --server-seed "$SERVER" --dealer 3 --json \
    --player-seed "${SEEDS[0]}" --player-seed "${SEEDS[1]}" --player-seed "${SEEDS[2]}" --player-seed "${SEEDS[3]}" \
    > "$WORK/replayed.json"
  [ "$(jget expect.server_commitment < "$WORK/replayed.json")" = "$COMMIT" ] || fail "replayed commitment differs"
  for part in hands turned_up indicator stock; do
    [ "$(jget "expect.$part" < "$WORK/replayed.json")" = "$(jget "$part" < "$WORK/cards.json")" ] \
      || fail "the replayed deal's $part differs from the operator's"
  done
  echo "OK: the deal replayed from the published seeds is the deal the operator dealt"
  step "10. A wrong seed is refused: one line on stderr, non-zero exit"
  if tiplu verify-commitment --server-seed "$(tiplu seed new)" --commitment "$COMMIT"; then
    fail "a wrong server seed was accepted"
  fi
elif [ "${WALKTHROUGH_STRICT:-0}" = 1 ]; then
  fail "this checkout has no 'tiplu deal' / 'tiplu verify-commitment'"
else
  echo "(skipped: this checkout has no 'tiplu deal' / 'tiplu verify-commitment')"
fi
if tiplu hand reveal "$HAND"; then fail "a second reveal was accepted"; fi

printf '\nwalkthrough: all steps passed\n'
