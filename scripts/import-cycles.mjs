#!/usr/bin/env node
// Circles in the import graph, type imports included (what counts: scripts/import-graph.mjs).
//
//   node scripts/import-cycles.mjs [dir ...]     (npm run check:cycles; default: every file tsconfig.json includes)
//
// Prints each circle with its files and one closed path through it; exits 1 when there is any, 0 otherwise.
import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ImportGraph, sourceFilesUnder } from './import-graph.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dirs = process.argv.slice(2).map((dir) => resolve(root, dir));
for (const dir of dirs) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    console.error(`import-cycles: ${relative(root, dir) || dir} is not a directory`);
    process.exit(2);
  }
}

const graph = new ImportGraph(root, dirs.length ? dirs.flatMap(sourceFilesUnder) : undefined);
const name = (file) => relative(root, file);
const scope = dirs.length ? dirs.map(name).join(', ') : "the files tsconfig.json includes";
const circles = graph.circles();
if (!circles.length) {
  console.log(`import-cycles: no circle among ${graph.files.length} files (${graph.edges} imports, type imports included) in ${scope}`);
  process.exit(0);
}
const circled = circles.reduce((sum, circle) => sum + circle.length, 0);
console.log(`import-cycles: ${circles.length} circle(s) through ${circled} of ${graph.files.length} files (type imports included) in ${scope}`);
for (const circle of circles) {
  const [first] = circle;
  const back = circle.length === 1 ? [first] : graph.pathWithin(graph.targets(first).find((target) => circle.includes(target)), first);
  console.log(`\n${circle.length} files:`);
  for (const file of circle) console.log(`  ${name(file)}`);
  console.log(`  e.g. ${[first, ...back].map(name).join('\n    → ')}`);
}
process.exit(1);
