/** `cairn devnet --limit key=value[,key=value]`: the request caps from the command line. */
import { describe, expect, it } from 'vitest';
import { parseDevnetArgs } from '../../src/cli/devnet.js';

describe('cairn devnet --limit', () => {
  it('sets the caps it names, merging repeated flags, and leaves the rest to the defaults', () => {
    const o = parseDevnetArgs(['--limit', 'maxBatchLength=100,maxResponseBytes=8388608', '--limit=maxJsonDepth=32']);
    expect(o).not.toBe('help');
    expect(o !== 'help' && o.limits).toEqual({ maxBatchLength: 100, maxResponseBytes: 8388608, maxJsonDepth: 32 });
    expect((parseDevnetArgs([]) as { limits?: unknown }).limits).toBeUndefined();
  });

  it('refuses an unknown cap or a value that is not a positive integer, naming it', () => {
    expect(() => parseDevnetArgs(['--limit', 'maxBatch=5'])).toThrow(expect.objectContaining({ context: expect.objectContaining({ field: 'limits.maxBatch' }) }));
    expect(() => parseDevnetArgs(['--limit', 'maxBodyBytes=0'])).toThrow(expect.objectContaining({ context: expect.objectContaining({ field: 'limits.maxBodyBytes' }) }));
    expect(() => parseDevnetArgs(['--limit', 'maxBodyBytes=1e3x'])).toThrow(/maxBodyBytes/);
    expect(() => parseDevnetArgs(['--limit', 'maxBodyBytes'])).toThrow(/key=value/);
    expect(() => parseDevnetArgs(['--limit'])).toThrow(/"--limit": expected a value/);
  });
});
