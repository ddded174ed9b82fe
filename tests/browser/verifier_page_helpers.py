"""Helpers shared by the page tests: fill the verify form the way a person would, and
read back the deal the page draws (from its data-card / data-seat attributes)."""


def fill_fields(pg, v, *, commitments=True, overrides=None):
    """Type a vector's inputs into the "Seeds" tab of the verify page."""
    pg.click("#tab-fields")
    pg.select_option("#preset", v["preset"])
    pg.fill("#hand-id", v["hand_id"])
    pg.fill("#dealer", str(v["dealer"]))
    pg.fill("#server-seed", v["server_seed"])
    pg.fill("#player-seeds", "\n".join(v["player_seeds"]))
    if commitments or overrides:
        if not pg.is_visible("#server-commitment"):
            pg.click("details.more > summary")
    if commitments:
        pg.fill("#server-commitment", v["expect"]["server_commitment"])
        pg.fill("#player-commitments", "\n".join(v["expect"]["player_commitments"]))
        pg.fill("#ruleset-hash", v["ruleset_hash"])
    if overrides:
        import json
        pg.fill("#overrides", json.dumps(overrides))


def verify(pg, *, expect_state=None):
    """Press "Verify deal" and wait until the page has finished; returns the body state."""
    pg.click("#verify-btn")
    pg.locator("body:is([data-state='verified'], [data-state='unproven'], [data-state='incomplete'], [data-state='failed'], [data-state='error'])").wait_for(timeout=10000)
    state = pg.evaluate("document.body.dataset.state")
    if expect_state is not None:
        assert state == expect_state, (state, pg.inner_text("#status"))
    return state


def shown_deal(pg):
    """The deal as drawn: hands by seat (in the order drawn), turned-up card, indicator."""
    return pg.evaluate("""() => {
      const seats = [...document.querySelectorAll('#seats [data-seat]')];
      const one = (sel) => { const c = document.querySelector(sel + ' [data-card]'); return c ? c.dataset.card : null; };
      return {
        seats: seats.map((s) => Number(s.dataset.seat)),
        hands: seats.map((s) => [...s.querySelectorAll('[data-card]')].map((c) => c.dataset.card)),
        turned_up: one('#turned-up'),
        indicator: one('#indicator'),
        stock: [...document.querySelectorAll('#stock [data-card]')].map((c) => c.dataset.card),
        shoe: [...document.querySelectorAll('#shoe [data-card]')].map((c) => c.dataset.card),
        checks: [...document.querySelectorAll('#checks [data-check]')].map((li) => [li.dataset.check, li.dataset.ok]),
        reasons: Object.fromEntries([...document.querySelectorAll('#checks [data-reason]')].map((li) => [li.dataset.check, li.dataset.reason])),
      };
    }""")
