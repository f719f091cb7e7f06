#!/usr/bin/env node
// The pairs of top-level src/server places (folders, and the files at its top) that import each other in both
// directions, tests left out: `npm run boundaries:pairs`. docs/architecture.md lists the pairs the map accepts, with
// their reasons; .dependency-cruiser.cjs fails the build on any import that would add one.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cruise = JSON.parse(
  execFileSync(path.join(root, "node_modules", ".bin", "depcruise"), ["src/server", "--output-type", "json"], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  }).toString(),
);

const place = (file) => (file.startsWith("src/server/") ? file.slice("src/server/".length).split("/")[0] : undefined);
const arrows = new Set();
for (const cruised of cruise.modules) {
  const from = place(cruised.source);
  for (const dependency of cruised.dependencies) {
    const to = place(dependency.resolved);
    if (from && to && from !== to) arrows.add(`${from} ${to}`);
  }
}
const pairs = [...arrows]
  .map((arrow) => arrow.split(" "))
  .filter(([from, to]) => from < to && arrows.has(`${to} ${from}`))
  .map(([from, to]) => `${from} <-> ${to}`)
  .sort();
for (const pair of pairs) console.log(pair);
console.log(`${pairs.length} pairs of src/server places import each other in both directions`);
