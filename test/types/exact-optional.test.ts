/**
 * A user's code under strict + exactOptionalPropertyTypes (test/types/exact-optional/consumer.ts.fixture):
 * `undefined` passed to optional options (`apiKey: process.env.KEY`), and web3.js/kit types passed
 * where cairn takes addresses, signers and clients. Compiled against cairn's emitted declarations, as
 * a consumer sees them (cairn's own sources are not written for that flag, and need not be). The
 * fixture is not a .ts file so the project's own typecheck, which has no declarations, skips it.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = fileURLToPath(new URL('./exact-optional/', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

describe('types under exactOptionalPropertyTypes', () => {
  it('the fixture type-checks against the emitted declarations', async () => {
    // Under node_modules/.cache: the consumer resolves web3.js, kit and @types/node from the project's
    // node_modules as an installed one would, and no typecheck of the project sees the files.
    const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
    await mkdir(cache, { recursive: true });
    const out = await mkdtemp(join(cache, 'cairn-exact-optional-'));
    try {
      // The declarations are emitted even when the project has an error elsewhere; the fixture's check decides.
      await run(process.execPath, [tsc, '-p', `${dir}tsconfig.decl.json`, '--outDir', out], { timeout: 120_000 }).catch(() => undefined);
      await copyFile(`${dir}consumer.ts.fixture`, join(out, 'consumer.ts'));
      await copyFile(`${dir}tsconfig.json`, join(out, 'tsconfig.json'));
      const r = await run(process.execPath, [tsc, '-p', out], { timeout: 120_000 }).then(
        () => ({ code: 0, out: '' }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
      );
      expect(r.out).toBe('');
      expect(r.code).toBe(0);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 240_000);
});
