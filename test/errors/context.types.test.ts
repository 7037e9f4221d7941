/**
 * The compiler checks an error's context where the error is made: `new CairnError(code, message,
 * { context })` and each subclass take the context `CairnErrorContext` declares for the code, so a
 * field of the wrong type, a field the code does not carry, or a missing required field does not
 * compile. Each `@ts-expect-error` below is such a mistake; tsc fails on a directive that meets no
 * error, so `npm run typecheck` (tsc over test/) fails if any of them starts compiling. `npm test`
 * runs that check on this file too (the last tests), and shows a wrong context failing to compile.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortError,
  BadResponseError,
  BlockhashExpiredError,
  CairnError,
  ErrorCodes,
  HttpError,
  isCairnError,
  PointError,
  RateLimitedError,
  RpcError,
  WorkerCrashedError,
  type CairnErrorContext,
  type ErrorCode,
} from '../../src/errors/index.js';

describe('a context is checked against its code where the error is made', () => {
  it('the right context compiles, and the error is typed by its code', () => {
    const e = new CairnError('RPC_ERROR', 'boom', { context: { rpcCode: -32602, method: 'getAsset' } });
    expectTypeOf(e).toEqualTypeOf<CairnError<'RPC_ERROR'>>();
    expectTypeOf(e.code).toEqualTypeOf<'RPC_ERROR'>();
    expectTypeOf(e.context).toEqualTypeOf<CairnErrorContext['RPC_ERROR']>();
    expect(e.context).toEqual({ rpcCode: -32602, method: 'getAsset' });
    // through ErrorCodes as through the literal
    const l = new CairnError(ErrorCodes.SENDER_LEASE_LOST, 'lost', { context: { id: 'a', fence: 3 } });
    expectTypeOf(l.context.fence).toEqualTypeOf<number>();
    // a typed error is still a CairnError
    expectTypeOf(e).toMatchTypeOf<CairnError>();
  });

  it('a wrong field type, a field of another code, or a missing field does not compile', () => {
    // @ts-expect-error: rpcCode is a number
    const typo = new CairnError('RPC_ERROR', 'boom', { context: { rpcCode: '-32602' } });
    // @ts-expect-error: blockHeight belongs to SENDER_BLOCKHASH_EXPIRED, not RPC_ERROR
    const foreign = new CairnError('RPC_ERROR', 'boom', { context: { rpcCode: 1, blockHeight: 5 } });
    // @ts-expect-error: RPC_ERROR's context requires rpcCode
    const missing = new CairnError('RPC_ERROR', 'boom', { context: { method: 'getAsset' } });
    // @ts-expect-error: a code whose context has a required field cannot leave the context out
    const bare = new CairnError('SENDER_BLOCKHASH_EXPIRED', 'expired');
    // @ts-expect-error: nor the options' context
    const noContext = new CairnError('DEVNET_STOPPED', 'stopped', { cause: new Error('x') });
    // @ts-expect-error: DEVNET_STOPPED's slot is a number
    const stopped = new CairnError(ErrorCodes.DEVNET_STOPPED, 'stopped', { context: { slot: undefined } });
    // @ts-expect-error: not a code
    const notACode = new CairnError('NOT_A_CODE', 'x');
    // the runtime is unchanged: whatever was passed is what the error holds
    expect(typo.context).toEqual({ rpcCode: '-32602' });
    expect([foreign, missing, bare, noContext, stopped, notACode].every((x) => x instanceof CairnError)).toBe(true);
  });

  it('a code whose context has no required field may leave it (or the options) out', () => {
    const late = new CairnError('RPC_TIMEOUT', 'late');
    expectTypeOf(late.context).toEqualTypeOf<CairnErrorContext['RPC_TIMEOUT']>();
    expect(late.context).toEqual({});
    const closed = new CairnError(ErrorCodes.SENDER_CLOSED, 'closed', { cause: new Error('x') });
    expect(closed.cause).toBeInstanceOf(Error);
    // @ts-expect-error: still, a field the code does not carry is refused
    void new CairnError('RPC_TIMEOUT', 'late', { context: { rpcCode: 1 } });
  });

  it('a subclass fixes its code (or its family of codes), and checks the context for it', () => {
    const r = new RpcError('RPC_ERROR', 'boom', { context: { rpcCode: 1 } });
    expectTypeOf(r.rpcCode).toEqualTypeOf<number>();
    // @ts-expect-error: an RpcError is RPC_ERROR only
    void new RpcError('RPC_TIMEOUT', 'late');
    // @ts-expect-error: an RpcError's context requires rpcCode
    void new RpcError('RPC_ERROR', 'boom', { context: {} });
    const limited = new RateLimitedError('RPC_RATE_LIMITED', 'slow down', { context: { retryAfterMs: 2_000 } });
    expectTypeOf(limited.context.retryAfterMs).toEqualTypeOf<number | undefined>();
    // @ts-expect-error: retryAfterMs is milliseconds as a number
    void new RateLimitedError('RPC_RATE_LIMITED', 'slow down', { context: { retryAfterMs: '2' } });
    // @ts-expect-error: a RateLimitedError is RPC_RATE_LIMITED only
    void new RateLimitedError('RPC_SERVER', 'down');
    // the family bases take any code of their family and no other
    expectTypeOf(limited).toMatchTypeOf<HttpError>();
    void new HttpError('RPC_SERVER', 'down', { context: { status: 503 } });
    // @ts-expect-error: RPC_ERROR is not an HTTP failure
    void new HttpError('RPC_ERROR', 'boom', { context: { rpcCode: 1 } });
    void new BadResponseError('RPC_SCHEMA', 'bad', { context: { path: 'result' } });
    // @ts-expect-error: BadResponseContext has no rpcCode
    void new BadResponseError('RPC_SCHEMA', 'bad', { context: { rpcCode: 1 } });
    void new AbortError('SENDER_ABORTED', 'aborted', { context: { reason: 'stop', mayLand: true } });
    // @ts-expect-error: only RPC_ABORTED, SENDER_ABORTED and MERKLE_ABORTED are aborts
    void new AbortError('RPC_TIMEOUT', 'late');
    // @ts-expect-error: both heights are required
    void new BlockhashExpiredError('SENDER_BLOCKHASH_EXPIRED', 'expired', { context: { signature: 's', blockHeight: 2 } });
    // a subclass that builds its own context says more than its code does
    expectTypeOf(new PointError('a', 'length').context.field).toEqualTypeOf<string>();
    expectTypeOf(new WorkerCrashedError('died', { kind: 'cnft', items: 1 }).context.items).toEqualTypeOf<number>();
  });

  it('an error whose code is not known takes the context of one of the codes', () => {
    const read = (c: string): ErrorCode => c as ErrorCode; // as fromSerialized reads one off the wire
    const e = new CairnError(read('RPC_TIMEOUT'), 'x');
    expectTypeOf(e).toEqualTypeOf<CairnError>();
    if (isCairnError(e, 'RPC_TIMEOUT')) expectTypeOf(e).toEqualTypeOf<CairnError<'RPC_TIMEOUT'>>();
  });
});

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

/** tsc over `files` with the project's options; its output (empty when they compile). */
async function typecheck(files: string[]): Promise<{ code: number; out: string }> {
  const cache = join(repo, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'cairn-context-types-'));
  try {
    const config = { extends: join(repo, 'tsconfig.json'), compilerOptions: { noEmit: true, rootDir: repo }, files, include: [] };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(config));
    return await promisify(execFile)(process.execPath, [tsc, '-p', dir], { timeout: 120_000 }).then(
      () => ({ code: 0, out: '' }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the compiler runs these checks', () => {
  it('this file type-checks: every @ts-expect-error above meets its error', async () => {
    const r = await typecheck([fileURLToPath(import.meta.url)]);
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  }, 240_000);

  it('a wrong context, written without the directive, fails to compile', async () => {
    const cache = join(repo, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    const dir = await mkdtemp(join(cache, 'cairn-context-wrong-'));
    try {
      const file = join(dir, 'wrong.ts');
      const errors = join(repo, 'src', 'errors', 'index.js');
      await writeFile(file, `import { CairnError } from ${JSON.stringify(errors)};\nexport const e = new CairnError('RPC_ERROR', 'boom', { context: { rpcCode: 'not a number' } });\n`);
      const r = await typecheck([file]);
      expect(r.code).not.toBe(0);
      expect(r.out).toMatch(/wrong\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
