import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../src/errors/index.js';
import { scanForLeaks } from './leak-guard.js';

// The suite-wide guard sees a registered key in the encodings an echo gives it, not only raw.
describe('leak guard: encodings', () => {
  const key = 'guard~(enc key)!-5a4b3c2d';
  registerSecret(key);

  it('finds the key form-encoded, lower-case percent-encoded, base64 and cut', () => {
    const form = new URLSearchParams([['k', key]]).toString().slice(2);
    expect(scanForLeaks(`GET /?api=${form}`, 'line')).not.toEqual([]);
    expect(scanForLeaks(encodeURIComponent(key).toLowerCase(), 'line')).not.toEqual([]);
    expect(scanForLeaks({ b: Buffer.from(`x${key}`).toString('base64') }, 'obj')).not.toEqual([]);
    expect(scanForLeaks(`body starts "${key.slice(0, 8)}"`, 'line')).not.toEqual([]);
    expect(scanForLeaks('nothing here', 'line')).toEqual([]);
  });
});
