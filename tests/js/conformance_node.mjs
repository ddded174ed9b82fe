// The browser verifier's conformance command under Node (docs/conformance.md): one JSON request
// per line on stdin, one answer per line on stdout, computed by web/static/verifier/conformance.mjs.
//   python3 tools/conformance.py -- node tests/js/conformance_node.mjs
import { createInterface } from "node:readline";
import { answerConformance } from "../../web/static/verifier/conformance.mjs";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  process.stdout.write(JSON.stringify(await answerConformance(request)) + "\n");
}
