#!/usr/bin/env node
// In a checkout (tsx installed as a dev dependency) run the TypeScript source through tsx's
// in-process loader, so a stale dist/ never hides a change and signals reach the command itself;
// an installed package (no tsx) runs the compiled dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'main.js');
const source = join(root, 'src', 'cli', 'main.ts');
let tsx = null;
if (existsSync(source)) {
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
