/**
 * A visible cue on every table that scrolls sideways (issue 29): a `.scroll` box whose table
 * is wider than the box gets data-overflow="true" (the CSS then shows "scroll sideways ⟷"
 * above it and a shadow on the side with more to see) and data-at-end="true" once it is
 * scrolled to its right edge.  Recomputed on resize and on scroll; pages that never
 * overflow get nothing.  No other effect: the tables stay plain HTML without this script.
 */
function update(box) {
  const over = box.scrollWidth > box.clientWidth + 1;
  box.dataset.overflow = String(over);
  box.dataset.atEnd = String(!over || box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
}

function all() {
  document.querySelectorAll(".scroll").forEach(update);
}

document.querySelectorAll(".scroll").forEach((box) => box.addEventListener("scroll", () => update(box), { passive: true }));
window.addEventListener("resize", all);
// a closed <details> has no width yet: look again when one opens
document.addEventListener("toggle", all, true);
all();
