import { describe, expect, it } from 'vitest';
import { findSecret, secretForms } from './secret-scan.js';

// The oracle must be able to fail: it finds the key in every form and every hiding place it checks.
describe('secret scan', () => {
  const key = 'scan~(me now)!-4e5d6c7b';

  it('finds every form, whole and cut to 6 key characters at either end', () => {
    for (const f of secretForms(key)) {
      expect(findSecret(`a ${f.text} b`, key), f.name).not.toEqual([]);
      expect(findSecret(`cut here: ${f.text.slice(0, f.cut)}`, key), `${f.name} prefix`).not.toEqual([]);
      expect(findSecret(`${f.text.slice(-f.cut)} was the end`, key), `${f.name} suffix`).not.toEqual([]);
    }
    expect(findSecret(`only ${key.slice(0, 5)} of it`, key)).toEqual([]);
  });

  it('looks in property names, Maps, Sets, AggregateError errors and a structured clone', () => {
    expect(findSecret({ [key]: 1 }, key)).not.toEqual([]);
    expect(findSecret({ m: new Map([[1, { deep: key }]]) }, key)).not.toEqual([]);
    expect(findSecret({ s: new Set([key]) }, key)).not.toEqual([]);
    expect(findSecret(new Error('outer', { cause: new AggregateError([new Error(key)]) }), key)).not.toEqual([]);
    const hidden = new Error('plain');
    Object.defineProperty(hidden, 'stack', { value: `Error: ${key}`, enumerable: false });
    expect(findSecret(hidden, key).some((w) => w.includes('structuredClone'))).toBe(true);
  });
});
