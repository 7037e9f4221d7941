import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.js';

// Tests talk only to 127.0.0.1. Worker-pool and devnet tests spawn threads/servers of their own,
// so files run in forks and a slow 2-core CI box gets generous per-test timeouts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    // vitest's default (available parallelism − 1) runs one file at a time on a 2-core box: ~330 s.
    // Two forks there: ~190 s, since most files wait on a devnet, PostgreSQL or a child process
    // rather than compute. Timing-sensitive tests assert order, never durations, so they hold.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // the longest files first (test/support/durations.json), so no 45 s file starts last
    sequence: { sequencer: LongestFirst },
    // proves across the whole suite that no error, log line or warning ever carries an API key
    setupFiles: ['test/support/leak-guard.ts'],
    // the devnet's proving keys (src/prover/key-cache.ts), made once and shared by every test file
    env: { CAIRN_CACHE_DIR: process.env.CAIRN_CACHE_DIR ?? `${process.cwd()}/node_modules/.cache/cairn` },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
});
