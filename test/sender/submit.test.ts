/** submitOnce: what a failed submission becomes, whatever the client threw. */
import { describe, expect, it } from 'vitest';
import { submitOnce } from '../../src/sender/client/submit.js';
import type { SenderRpc } from '../../src/sender/client/rpc.js';
import { CairnError, RpcError, isCairnError } from '../../src/errors/index.js';

const throwing = (thrown: unknown): SenderRpc =>
  ({
    sendTransaction: async () => {
      throw thrown;
    },
  }) as unknown as SenderRpc;
const wire = new Uint8Array([1, 2, 3]);

describe('submitOnce', () => {
  it('a plain Error from a caller-supplied client reaches the caller as RPC_NETWORK, the original as cause', async () => {
    const original = new Error('socket hang up');
    const r = await submitOnce(throwing(original), wire, false, new AbortController().signal);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.fatal).toBe(false);
    expect(isCairnError(r.error, 'RPC_NETWORK')).toBe(true);
    expect(r.error.message).toContain('socket hang up');
    expect(r.error.cause).toBe(original);
  });
  it('a thrown string is typed too', async () => {
    const r = await submitOnce(throwing('boom'), wire, false, new AbortController().signal);
    expect(!r.ok && r.error instanceof CairnError && r.error.code).toBe('RPC_NETWORK');
  });
  it("a CairnError passes through as it is, and /fast's refusal is fatal SENDER_REJECTED", async () => {
    const refusal = new RpcError('RPC_ERROR', 'bad tip', { context: { rpcCode: -32602 } });
    const r = await submitOnce(throwing(refusal), wire, false, new AbortController().signal);
    expect(!r.ok && r.fatal && r.error.code).toBe('SENDER_REJECTED');
    const net = new CairnError('RPC_TIMEOUT', 'slow');
    const r2 = await submitOnce(throwing(net), wire, false, new AbortController().signal);
    expect(!r2.ok && r2.error).toBe(net);
  });
});
