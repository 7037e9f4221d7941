// docs/devnet.md's vitest globalSetup recipe for startDevnet, run for real: a second vitest run (through
// vitest's node API) whose global setup starts the devnet and whose test file reaches it by inject().
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { startVitest } from 'vitest/node';

it('a globalSetup module starts the devnet once, a test file reaches it, teardown stops it', async () => {
  const root = fileURLToPath(new URL('./global-setup/', import.meta.url));
  const vitest = await startVitest('test', [], { root, config: `${root}vitest.config.ts`, watch: false, reporters: [] });
  try {
    const files = vitest.state.getFiles();
    expect(files.map((f) => f.name)).toEqual(['uses-devnet.spec.ts']);
    expect(files[0]!.result?.state).toBe('pass');
    expect(vitest.state.getCountOfFailedTests()).toBe(0);
  } finally {
    await vitest.close();
  }
}, 30_000);
