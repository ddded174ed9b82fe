// A JSON-lines driver for teenpattisolver, a peer of `tiplu eval kitti` op rank (bench/kitti.py --peer).
// The peer itself is another project's code and is not in this repository.  To measure it:
//   get the teenpattisolver sources (its index.js and cards.js) into a folder DIR, there run
//   `npm install lodash@4 js-combinatorics@0.5`, then
//   bench/run --only kitti --kitti-peer "teenpattisolver=node bench/peers/teenpattisolver.js {file} DIR"
// Reads {"op":"rank","cards":["AS","KD","TC"]} lines from the file in argv[2]; writes one JSON answer per line
// (its hand name and score), all at the end.
const fs = require("fs");
const path = require("path");
const solver = require(path.resolve(process.argv[3] || ".", "index.js"));
const lines = fs.readFileSync(process.argv[2], "utf8").split("\n");
const out = [];
for (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  const cards = req.cards.map((c) => c[0] + c[1].toLowerCase());
  const r = solver.scoreHandsNormal(cards);
  out.push(JSON.stringify({ name: r.name, score: r.score }));
}
process.stdout.write(out.join("\n") + "\n");
