#!/usr/bin/env node
/**
 * Writes test/support/durations.json, the per-file durations the sequencer (sequencer.ts) orders
 * files by, from a vitest JSON report: `node test/support/durations.mjs .vitest-report.json`.
 * Rounded to 0.1 s so a refresh after an ordinary run changes few lines; only the order matters.
 * Prints the files ranked by duration, and the report's wall time (first start to last end).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const input = process.argv[2];
if (!input) {
  process.stderr.write('usage: node test/support/durations.mjs REPORT.json\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(input, 'utf8'));
// a report written elsewhere (a fresh clone in /tmp) names files under its own root: keep from test/ or src/
const path = (name) => {
  const m = /(?:^|\/)((?:test|src)\/.*)$/.exec(relative(root, name).split('\\').join('/'));
  return m ? m[1] : name;
};
const rows = report.testResults.map((t) => ({
  path: path(t.name),
  ms: Math.max(100, Math.round((t.endTime - t.startTime) / 100) * 100),
  start: t.startTime,
  end: t.endTime,
}));
rows.sort((a, b) => b.ms - a.ms || (a.path < b.path ? -1 : 1));
const files = Object.fromEntries(rows.map((r) => [r.path, r.ms]));
const note = 'ms per test file, from one run of the suite (node test/support/durations.mjs REPORT); only their order is used';
writeFileSync(join(root, 'test', 'support', 'durations.json'), `${JSON.stringify({ note, files }, null, 1)}\n`);
const wall = (Math.max(...rows.map((r) => r.end)) - Math.min(...rows.map((r) => r.start))) / 1000;
const sum = rows.reduce((a, r) => a + r.ms, 0) / 1000;
process.stdout.write(`${rows.length} files, wall ${wall.toFixed(1)} s, sum of file durations ${sum.toFixed(1)} s\n`);
for (const r of rows.slice(0, 25)) process.stdout.write(`${(r.ms / 1000).toFixed(1).padStart(6)}  ${r.path}\n`);
