import { afterEach, describe, expect, it, vi } from 'vitest';
import { CairnError, ErrorCodes, RateLimitedError, ServerError } from '../../src/errors/index.js';
import { sleep } from '../../src/abort.js';
import { backoffDelay, defaultRetryPolicy, resolveRetryPolicy, withRetry } from '../../src/rpc/retry/policy.js';

const err = (code: keyof typeof ErrorCodes, ctx: object = {}) => new CairnError(ErrorCodes[code], code, { context: ctx });

afterEach(() => vi.useRealTimers());

describe('retry policy as data', () => {
  it('backoff grows exponentially with jitter in [step/2, step] and is capped', () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const step = Math.min(8_000, 250 * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i++) {
        const d = backoffDelay(attempt);
        expect(d).toBeGreaterThanOrEqual(Math.floor(step / 2));
        expect(d).toBeLessThanOrEqual(step);
      }
    }
  });

  it('the default policy retries 429/5xx/network/timeout and nothing else', () => {
    const yes = ['RPC_RATE_LIMITED', 'RPC_SERVER', 'RPC_NETWORK', 'RPC_TIMEOUT'] as const;
    const no = ['RPC_UNAUTHORIZED', 'RPC_FORBIDDEN', 'RPC_HTTP', 'RPC_ABORTED', 'RPC_BAD_RESPONSE', 'RPC_ERROR', 'INPUT_INVALID'] as const;
    for (const c of yes) expect(defaultRetryPolicy.shouldRetry({ attempt: 1, error: err(c) }), c).toBe(true);
    for (const c of no) expect(defaultRetryPolicy.shouldRetry({ attempt: 1, error: err(c) }), c).toBe(false);
    expect(defaultRetryPolicy.shouldRetry({ attempt: 1, error: new Error('plain') })).toBe(false);
  });

  it('Retry-After wins over backoff', () => {
    const e = new RateLimitedError(ErrorCodes.RPC_RATE_LIMITED, 'x', { context: { retryAfterMs: 2_000 } });
    expect(defaultRetryPolicy.delay({ attempt: 1, error: e })).toBe(2_000);
    expect(defaultRetryPolicy.delay({ attempt: 1, error: err('RPC_SERVER') })).toBeLessThanOrEqual(250);
  });

  it('a custom policy is applied as given (here: retry a 404 twice, no wait)', async () => {
    const policy = resolveRetryPolicy({ retries: 2, delay: () => 0, shouldRetry: ({ error }) => (error as CairnError).code === 'RPC_HTTP' });
    let n = 0;
    const e = await withRetry(async () => {
      n++;
      throw err('RPC_HTTP');
    }, policy).catch((x) => x);
    expect(n).toBe(3);
    expect(e.context.attempts).toBe(3);
  });

  it('stops retrying once the signal aborts during the wait (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ac = new AbortController();
    let n = 0;
    const p = withRetry(
      async () => {
        n++;
        throw new ServerError(ErrorCodes.RPC_SERVER, 'down', { context: {} });
      },
      resolveRetryPolicy({ retries: 5, delay: () => 10_000 }),
      ac.signal,
      () => queueMicrotask(() => ac.abort()),
    );
    await expect(p).rejects.toMatchObject({ code: 'RPC_ABORTED' });
    expect(n).toBe(1);
    expect(vi.getTimerCount()).toBe(0); // the wait's timer was cleared
  });

  it('sleep rejects immediately on an aborted signal and cleans up', async () => {
    await expect(sleep(1_000, AbortSignal.abort())).rejects.toMatchObject({ code: 'RPC_ABORTED' });
  });

  it('a wait that would end past the deadline fails at once with RPC_DEADLINE, the last error as cause', async () => {
    let n = 0;
    const last = new ServerError(ErrorCodes.RPC_SERVER, 'down', { context: {} });
    const t0 = performance.now();
    const e = await withRetry(
      async () => {
        n++;
        throw last;
      },
      resolveRetryPolicy({ retries: 5, delay: () => 10_000 }),
      undefined,
      undefined,
      { at: performance.now() + 5_000, ms: 5_000, what: 'test call' },
    ).catch((x) => x);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(n).toBe(1);
    expect(e).toMatchObject({ code: 'RPC_DEADLINE', context: { deadlineMs: 5_000, attempts: 1 } });
    expect(e.cause).toBe(last);
    expect(e.message).toContain('test call');
  });

  it('a timeout with the deadline gone is the deadline\'s failure even when the policy would not retry it', async () => {
    const timeout = new CairnError(ErrorCodes.RPC_TIMEOUT, 'timed out', { context: {} });
    const e = await withRetry(
      async () => {
        throw timeout;
      },
      resolveRetryPolicy({ retries: 0 }),
      undefined,
      undefined,
      { at: performance.now() - 1, ms: 10, what: 'cut call' },
    ).catch((x) => x);
    expect(e.code).toBe('RPC_DEADLINE');
    expect(e.cause).toBe(timeout);
  });
});
