import { describe, expect, it } from 'vitest';
import { CairnError, registerSecret } from '../../src/errors/index.js';
import { scanForLeaks } from './leak-guard.js';

// The guard itself must be able to fail: it finds a secret wherever one could hide.
describe('leak guard', () => {
  const key = 'guard-test-key-0f9e8d7c';
  registerSecret(key);

  it('finds a registered secret in a plain object, a string and an error cause', () => {
    expect(scanForLeaks({ headers: { auth: `Bearer ${key}` } }, 'obj')).not.toEqual([]);
    expect(scanForLeaks(`GET /?api-key=${key}`, 'line')).not.toEqual([]);
    const e = new Error('outer', { cause: new Error(`inner ${key}`) });
    expect(scanForLeaks(e, 'err').some((w) => w.includes('cause'))).toBe(true);
  });

  it('a CairnError built with the secret carries it nowhere', () => {
    const e = new CairnError('RPC_HTTP', `failed at http://h/?api-key=${key} with ${key}`, {
      context: { url: `http://h/?api-key=${key}` },
      cause: new Error(`socket for ${key}`),
    });
    expect(scanForLeaks(e, 'e')).toEqual([]);
    expect(e.message).toContain('***');
  });
});
