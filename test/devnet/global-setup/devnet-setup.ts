// docs/devnet.md's global-setup recipe, as a user's project would write it: one devnet for the whole
// run, its URL handed to the test files through vitest's provide/inject, stopped after the last file.
import type { TestProject } from 'vitest/node';
import { startDevnet } from '../../../src/devnet/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    devnetUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const devnet = await startDevnet({ slotMs: 50 });
  project.provide('devnetUrl', devnet.url);
  return () => devnet.stop();
}
