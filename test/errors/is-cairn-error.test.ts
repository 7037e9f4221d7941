/**
 * isCairnError narrows a caught `unknown` to the code's context type. The type assertions are checked
 * by `npm run typecheck` (tsc reads test/): a narrowing that lost a field, or that let a field of
 * another code through, fails there (`@ts-expect-error` turns "does not compile" into a check).
 * The runtime half runs under `npm test`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BlockhashExpiredError,
  CairnError,
  ErrorCodes,
  InputError,
  isCairnError,
  RpcError,
  type CairnErrorContext,
  type ErrorCode,
} from '../../src/errors/index.js';

function caught(e: unknown): unknown {
  return e;
}

describe('isCairnError', () => {
  it('narrows the code and the context to the code given', () => {
    const e = caught(
      new BlockhashExpiredError(ErrorCodes.SENDER_BLOCKHASH_EXPIRED, 'expired', {
        context: { signature: 'sig', lastValidBlockHeight: 10, blockHeight: 11 },
      }),
    );
    expect(isCairnError(e, 'SENDER_BLOCKHASH_EXPIRED')).toBe(true);
    if (isCairnError(e, 'SENDER_BLOCKHASH_EXPIRED')) {
      expectTypeOf(e.code).toEqualTypeOf<'SENDER_BLOCKHASH_EXPIRED'>();
      expectTypeOf(e.context.blockHeight).toEqualTypeOf<number>();
      expectTypeOf(e.context.lastValidBlockHeight).toEqualTypeOf<number>();
      expectTypeOf(e.context.signature).toEqualTypeOf<string | undefined>();
      expectTypeOf(e.context).toEqualTypeOf<CairnErrorContext['SENDER_BLOCKHASH_EXPIRED']>();
      // @ts-expect-error: a blockhash expiry carries no rpcCode
      void e.context.rpcCode;
      // @ts-expect-error: nor a field of any code
      void e.context.notAField;
      expect(e.context.blockHeight).toBe(11);
      expect(e.context.lastValidBlockHeight).toBe(10);
    }
  });

  it('narrows to each code its own context', () => {
    const e = caught(new RpcError(ErrorCodes.RPC_ERROR, 'boom', { context: { rpcCode: -32602, method: 'getAsset' } }));
    if (isCairnError(e, 'RPC_ERROR')) {
      expectTypeOf(e.context.rpcCode).toEqualTypeOf<number>();
      expectTypeOf(e.context.method).toEqualTypeOf<string | undefined>();
      // @ts-expect-error: an RPC error has no block height
      void e.context.blockHeight;
      expect(e.context.rpcCode).toBe(-32602);
    } else {
      expect.unreachable('an RpcError with RPC_ERROR is that code');
    }
    const input = caught(new InputError('limit', 'expected an integer'));
    if (isCairnError(input, 'INPUT_INVALID')) {
      expectTypeOf(input.context.field).toEqualTypeOf<string>();
      expect(input.context.field).toBe('limit');
    } else {
      expect.unreachable('an InputError is INPUT_INVALID');
    }
  });

  it('is false for another code, another error, or no error', () => {
    const e = new CairnError(ErrorCodes.RPC_TIMEOUT, 'late');
    expect(isCairnError(e, 'RPC_ABORTED')).toBe(false);
    expect(isCairnError(e)).toBe(true);
    expect(isCairnError(new Error('plain'))).toBe(false);
    expect(isCairnError({ code: 'RPC_TIMEOUT', context: {} }, 'RPC_TIMEOUT')).toBe(false);
    expect(isCairnError(undefined)).toBe(false);
  });

  it('without a code narrows to CairnError with the code union', () => {
    const e = caught(new CairnError(ErrorCodes.RPC_TIMEOUT, 'late'));
    if (isCairnError(e)) expectTypeOf(e.code).toEqualTypeOf<ErrorCode>();
    // @ts-expect-error: only the codes of ErrorCodes are codes
    isCairnError(e, 'NOT_A_CODE');
  });

  it('has a context entry for every code', () => {
    expectTypeOf<keyof CairnErrorContext>().toEqualTypeOf<ErrorCode>();
    expect(Object.keys(ErrorCodes).length).toBeGreaterThan(40);
  });
});
