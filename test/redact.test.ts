/**
 * Redaction inside CairnError itself, without a server: the key in every encoding an echo can give
 * it, cut at a truncation, as a property name, deep, in cycles, Maps and Sets, in the whole cause
 * chain (AggregateError too), and in every way an error is serialised. The oracle is
 * test/support/secret-scan.ts, written independently of src/redact.ts.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CairnError, fromSerialized, redact, registerSecret, type ErrorCode } from '../src/errors/index.js';
import { findSecret, secretForms } from './support/secret-scan.js';

// a key with every character the encodings disagree on: ~ ( ) ! * ' " \ and a space
const KEY = `Kq~(w e)!*'"\\-7d1f0b9c8a6e`;
registerSecret(KEY);

// any code (ErrorCode, not one literal): the contexts here are hostile shapes no code declares
const built = (message: string, context: object = {}, cause?: unknown) => new CairnError<ErrorCode>('RPC_ERROR', message, { context, cause });
const clean = (e: unknown) => expect(findSecret(e, KEY)).toEqual([]);

describe('redaction: every encoding', () => {
  for (const form of secretForms(KEY)) {
    it(`${form.name} echo in message, context value and property name`, () => {
      // the oracle finds it before redaction (the test can fail) ...
      expect(findSecret(`seen ${form.text} here`, KEY)).not.toEqual([]);
      // ... and nowhere after
      const e = built(`server said: ${form.text} (end)`, { detail: `x=${form.text}&y=1`, [form.text]: 1, nested: { [`k${form.text}`]: [form.text] } });
      clean(e);
      expect(e.message).toContain('server said: ');
      expect(e.message).toContain('(end)');
    });
  }

  it('percent-encoded in either case, form style with + for the space', () => {
    const form = new URLSearchParams([['api', KEY]]).toString().slice(4);
    expect(form).toContain('+');
    expect(form).toContain('%7E%28');
    for (const t of [form, form.toLowerCase().replace(/kq/, 'Kq'), encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())]) {
      expect(redact(`q=${t};`)).toBe('q=***;');
    }
  });

  it('base64 and base64url of the key inside a longer blob, at every alignment', () => {
    for (const pad of ['', 'a', 'ab', 'abc']) {
      const blob = Buffer.from(`${pad}{"key":"${KEY}"}tail`);
      for (const enc of ['base64', 'base64url'] as const) clean(built(`payload ${blob.toString(enc)}`));
    }
  });
});

describe('redaction: truncated echoes', () => {
  it('a prefix of 6 or more characters at the cut, at the end or inside a longer message', () => {
    for (let n = 6; n < KEY.length; n++) {
      clean(built(`body starts "${'x'.repeat(40)}${KEY.slice(0, n)}"; more`));
      clean(built(`${'y'.repeat(10)}${KEY.slice(0, n)}`));
      clean(built(`${KEY.slice(-n)} was the tail`));
    }
  });

  it('a cut of a percent-encoded echo', () => {
    const enc = encodeURIComponent(KEY);
    clean(built(`url …${enc.slice(0, 20)}`));
    clean(built(`${enc.slice(-20)}&x=1`));
  });

  it('ordinary text is left alone', () => {
    expect(redact('nothing to see: Kq~(wX was not a key here')).toBe('nothing to see: Kq~(wX was not a key here');
  });
});

describe('redaction: context at any depth, in any container', () => {
  it('deeply nested (40 levels) and as a property name', () => {
    let deep: Record<string, unknown> = { [KEY]: KEY };
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const e = built('deep', { data: deep });
    clean(e);
    expect(JSON.stringify(e)).toContain('"d":{"d"');
  });

  it('cycles, arrays, Maps and Sets: JSON.stringify and inspect still work and are clean', () => {
    const cyc: Record<string, unknown> = { name: KEY };
    cyc.self = cyc;
    const data = {
      cyc,
      list: [1, [KEY], { k: KEY }],
      map: new Map<unknown, unknown>([[KEY, { v: KEY }], ['ok', KEY]]),
      set: new Set([KEY, 'fine']),
      err: new Error(`inner ${KEY}`),
      bytes: Buffer.from(`bytes ${KEY} end`),
    };
    const e = built('containers', { data });
    clean(e);
    expect(() => JSON.stringify(e)).not.toThrow();
    expect(inspect(e, { depth: 20 })).toContain('fine');
    // the caller's object is not rewritten
    expect(cyc.name).toBe(KEY);
  });

  it('stays bounded: a huge string, a huge array and deep nesting are cut, quickly', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const big = { s: `${'z'.repeat(5_000_000)}${KEY}`, arr: Array.from({ length: 1_000_000 }, (_, i) => i), deep };
    const t0 = performance.now();
    const e = built(`m ${'w'.repeat(5_000_000)} ${KEY}`, big);
    const ms = performance.now() - t0;
    clean(e);
    expect(e.message.length).toBeLessThan(20_000);
    expect(JSON.stringify(e).length).toBeLessThan(2_000_000);
    expect(ms).toBeLessThan(1_000);
  });
});

describe('redaction: the cause chain', () => {
  it('a plain-object cause, a frozen error, own properties of a cause', () => {
    clean(built('a', {}, { url: `http://h/?k=${KEY}` }));
    clean(built('b', {}, Object.freeze(new Error(`frozen ${KEY}`))));
    const withProps = Object.assign(new Error('props'), { request: { url: `/x?key=${KEY}` }, [KEY]: true });
    clean(built('c', {}, withProps));
    expect(built('d', {}, withProps).cause).toBeInstanceOf(Error);
  });

  it('AggregateError errors, deep inside the chain', () => {
    const agg = new AggregateError([new Error(`first ${KEY}`), { note: KEY }], `all failed ${KEY}`);
    clean(built('agg', {}, new Error('outer', { cause: agg })));
  });

  it('a cyclic and a very long chain terminate', () => {
    const a = new Error(`a ${KEY}`);
    const b = new Error(`b ${KEY}`, { cause: a });
    (a as { cause?: unknown }).cause = b;
    clean(built('cycle', {}, a));
    let long: Error = new Error(`root ${KEY}`);
    for (let i = 0; i < 5_000; i++) long = new Error(`level ${i}`, { cause: long });
    clean(built('long', {}, long));
    const e = built('walk', {}, a);
    expect(e.walk((x) => x === 'never')).toBeUndefined();
  });
});

describe('redaction: every serialisation', () => {
  it('JSON.stringify, toJSON, String, inspect, structuredClone and a worker round trip', () => {
    const e = built(`msg ${KEY}`, { where: KEY }, new Error(`cause ${KEY}`));
    clean(e);
    clean(JSON.stringify(e));
    clean(e.toJSON());
    clean(String(e));
    clean(inspect(e, { depth: Infinity, showHidden: true }));
    clean(structuredClone(e));
    clean(fromSerialized({ code: 'RPC_ERROR', message: `from a worker ${KEY}`, context: { [KEY]: KEY } }));
  });

  it('a field a subclass sets after construction, or a context changed later, is still not serialised', () => {
    class WithField extends CairnError {
      readonly request = { url: `/?api=${encodeURIComponent(KEY)}` };
    }
    const e = new WithField('RPC_ERROR', 'sub');
    (e.context as Record<string, unknown>).late = KEY;
    expect(inspect(e)).not.toContain(encodeURIComponent(KEY));
    expect(inspect(e)).not.toContain('7d1f0b9c8a6e');
    expect(JSON.stringify(e)).not.toContain('7d1f0b9c8a6e');
  });
});
