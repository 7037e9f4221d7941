#!/usr/bin/env node
// An installed package runs the compiled dist/ only (it ships no src/, and a user's own tsx must
// never change what runs). Only in a checkout of the repository (src/ present, not under
// node_modules) does it run the TypeScript source through tsx's in-process loader, so a stale dist/
// never hides a change while developing and signals reach the command itself.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join, sep } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'main.js');
const source = join(root, 'src', 'cli', 'main.ts');
const checkout = !root.split(sep).includes('node_modules') && existsSync(source) && existsSync(join(root, 'tsconfig.json'));
let tsx = null;
if (checkout) {
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    tsx = null;
  }
}
if (tsx) {
  tsx.register();
  await import(pathToFileURL(source).href);
} else if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  process.stderr.write('cairn: not built; run `npm run build` first\n');
  process.exitCode = 2;
}
