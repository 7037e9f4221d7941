/**
 * `npm run lint` in the suite, so CI runs it: ESLint (eslint.config.js) and knip (knip.jsonc) each
 * find nothing. Each runs as its own process, as `npm run lint` runs it; a failure shows its report.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function npmRun(script: string): Promise<{ code: number; text: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script], { cwd: root, timeout: 590_000, maxBuffer: 16 << 20 }, (e, stdout, stderr) =>
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, text: `${stdout}${stderr}` }),
    );
  });
}

// typed linting builds the whole program with TypeScript 5.9: ~80 s of one core, longer on a busy box
it('npm run lint:eslint: no problem in src, test, bench, soak, examples, scripts', async () => {
  const r = await npmRun('lint:eslint');
  expect(r.code, r.text).toBe(0);
}, 600_000);

it('npm run lint:knip: no unused file, export or dependency', async () => {
  const r = await npmRun('lint:knip');
  expect(r.code, r.text).toBe(0);
}, 600_000);
