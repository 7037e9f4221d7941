/**
 * The state subscriptions on the devnet's websocket over a raw socket: account, logs (all and
 * mentions), program (with filters) and root notifications in the real RPC's shapes, at the
 * subscription's commitment; unsubscribes; -32602 naming the field; -32601 for an unknown method,
 * answered once; and stop() closing every socket with 1000 so clients do not reconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { generateSigner } from '../../src/solana/signer.js';
import { transferInstruction } from '../../src/solana/instructions.js';
import { waitFor } from '../support/devnet.js';
import { memoIx, mintToIx, sendAndWait, setUpToken, TOKEN_PROGRAM, type TokenSetup } from '../support/spl.js';

const payer = generateSigner();
let devnet: Devnet;
let tok: TokenSetup;

interface Socket {
  ws: WebSocket;
  messages: any[];
  request(method: string, params?: unknown): Promise<any>;
  close(): void;
}

async function open(): Promise<Socket> {
  const ws = new WebSocket(devnet.wsUrl);
  const messages: any[] = [];
  ws.on('message', (m) => messages.push(JSON.parse(String(m))));
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  let next = 1;
  return {
    ws,
    messages,
    async request(method, params) {
      const id = next++;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return waitFor(() => messages.find((m) => m.id === id));
    },
    close: () => ws.close(),
  };
}
const notes = (s: Socket, method: string, sub: number) => s.messages.filter((m) => m.method === method && m.params.subscription === sub);

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 20,
    wsPortPlusOne: false,
    stateModules: false,
    fundedAccounts: [{ address: payer.address, lamports: 100n * 10n ** 9n }],
  });
  tok = await setUpToken(devnet.url, payer);
});
afterAll(async () => {
  await devnet?.stop();
});

describe('accountSubscribe', () => {
  it('notifies each write of the account with the account object, at the requested commitment', async () => {
    const s = await open();
    const to = generateSigner().address;
    const { result: processed } = await s.request('accountSubscribe', [to, { encoding: 'base64', commitment: 'processed' }]);
    const { result: finalized } = await s.request('accountSubscribe', [to, { encoding: 'jsonParsed', commitment: 'finalized' }]);
    expect(typeof processed).toBe('number');
    await sendAndWait(devnet.url, payer, [transferInstruction(payer.address, to, 1_000_000n)]);
    const [n] = await waitFor(() => notes(s, 'accountNotification', processed).length > 0 && notes(s, 'accountNotification', processed));
    expect(n.jsonrpc).toBe('2.0');
    expect(n.params.result.context.slot).toBeGreaterThan(0);
    expect(n.params.result.value).toMatchObject({ lamports: 1_000_000, owner: '11111111111111111111111111111111', data: ['', 'base64'], executable: false, space: 0 });
    const [f] = await waitFor(() => notes(s, 'accountNotification', finalized).length > 0 && notes(s, 'accountNotification', finalized));
    // finalized arrives after processed, for the same write
    expect(f.params.result.context.slot).toBe(n.params.result.context.slot);
    expect(s.messages.indexOf(f)).toBeGreaterThan(s.messages.indexOf(n));
    expect((await s.request('accountUnsubscribe', [processed])).result).toBe(true);
    expect((await s.request('accountUnsubscribe', [processed])).result).toBe(false);
    s.close();
  });

  it('parses a token account in jsonParsed', async () => {
    const s = await open();
    const { result: sub } = await s.request('accountSubscribe', [tok.a.address, { encoding: 'jsonParsed', commitment: 'confirmed' }]);
    await sendAndWait(devnet.url, payer, [mintToIx(tok.mint.address, tok.a.address, payer.address, 1)]);
    const [n] = await waitFor(() => notes(s, 'accountNotification', sub).length > 0 && notes(s, 'accountNotification', sub));
    expect(n.params.result.value.data.parsed.info.tokenAmount.amount).toBe('1000001');
    s.close();
  });

  it('refuses bad params with -32602 naming the field', async () => {
    const s = await open();
    const bad = await s.request('accountSubscribe', ['nope']);
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.message).toMatch(/params\[0\]/);
    const enc = await s.request('accountSubscribe', [payer.address, { encoding: 'hex' }]);
    expect(enc.error.message).toMatch(/params\[1\]\.encoding/);
    const c = await s.request('accountSubscribe', [payer.address, { commitment: 'soon' }]);
    expect(c.error.message).toMatch(/commitment/);
    const sig = await s.request('signatureSubscribe', ['1'.repeat(64), { commitment: 'soon' }]);
    expect(sig.error).toMatchObject({ code: -32602 });
    s.close();
  });
});

describe('logsSubscribe', () => {
  it('all and mentions: one notification per transaction with signature, err and logs', async () => {
    const s = await open();
    const { result: all } = await s.request('logsSubscribe', ['all', { commitment: 'confirmed' }]);
    const { result: mention } = await s.request('logsSubscribe', [{ mentions: ['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'] }, { commitment: 'processed' }]);
    const { result: other } = await s.request('logsSubscribe', [{ mentions: [generateSigner().address] }]);
    const sig = await sendAndWait(devnet.url, payer, [memoIx('hello logs', payer.address)]);
    const n = await waitFor(() => notes(s, 'logsNotification', mention).find((m) => m.params.result.value.signature === sig));
    expect(n.params.result.value.err).toBeNull();
    expect(n.params.result.value.logs.join('\n')).toContain('hello logs');
    await waitFor(() => notes(s, 'logsNotification', all).find((m) => m.params.result.value.signature === sig));
    expect(notes(s, 'logsNotification', other)).toEqual([]);
    const two = await s.request('logsSubscribe', [{ mentions: [payer.address, payer.address] }]);
    expect(two.error).toMatchObject({ code: -32602 });
    expect(two.error.message).toMatch(/params\[0\]\.mentions: only 1 address/);
    expect((await s.request('logsUnsubscribe', [all])).result).toBe(true);
    s.close();
  });
});

describe('programSubscribe', () => {
  it('notifies written accounts the program owns that pass the filters', async () => {
    const s = await open();
    const { result: sub } = await s.request('programSubscribe', [TOKEN_PROGRAM, { encoding: 'base64', commitment: 'processed', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: tok.ownerB.address } }] }]);
    const { result: all } = await s.request('programSubscribe', [TOKEN_PROGRAM, { encoding: 'jsonParsed', commitment: 'processed' }]);
    await sendAndWait(devnet.url, payer, [mintToIx(tok.mint.address, tok.b.address, payer.address, 7)]);
    const [n] = await waitFor(() => notes(s, 'programNotification', sub).length > 0 && notes(s, 'programNotification', sub));
    expect(n.params.result.value.pubkey).toBe(tok.b.address);
    expect(n.params.result.value.account.owner).toBe(TOKEN_PROGRAM);
    const seen = await waitFor(() => notes(s, 'programNotification', all).length >= 2 && notes(s, 'programNotification', all));
    // the mint and the token account were written; the filtered one saw only the account
    expect(seen.map((m: any) => m.params.result.value.pubkey).sort()).toEqual([tok.b.address, tok.mint.address].sort());
    expect(notes(s, 'programNotification', sub)).toHaveLength(1);
    const bad = await s.request('programSubscribe', [TOKEN_PROGRAM, { filters: [{ memcmp: { offset: 0 } }] }]);
    expect(bad.error.message).toMatch(/params\[1\]\.filters\[0\]\.memcmp\.bytes/);
    expect((await s.request('programUnsubscribe', [sub])).result).toBe(true);
    s.close();
  });
});

describe('the socket', () => {
  it('rootSubscribe notifies the root each slot', async () => {
    const s = await open();
    const { result: sub } = await s.request('rootSubscribe', []);
    const ns = await waitFor(() => notes(s, 'rootNotification', sub).length >= 2 && notes(s, 'rootNotification', sub));
    expect(typeof ns[0].params.result).toBe('number');
    expect(ns[1].params.result).toBeGreaterThan(ns[0].params.result);
    expect((await s.request('rootUnsubscribe', [sub])).result).toBe(true);
    s.close();
  });

  it('answers an unknown subscription method -32601 once, and an object or array id -32600 with id null', async () => {
    const s = await open();
    const r = await s.request('blockSubscribe', ['all']);
    expect(r.error.code).toBe(-32601);
    s.ws.send(JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'slotSubscribe' }));
    s.ws.send(JSON.stringify({ jsonrpc: '2.0', id: [1], method: 'slotSubscribe' }));
    const bad = await waitFor(() => s.messages.filter((m) => m.id === null).length === 2 && s.messages.filter((m) => m.id === null));
    for (const b of bad) expect(b.error.code).toBe(-32600);
    await new Promise((res) => setTimeout(res, 100));
    expect(s.messages.filter((m) => m.error?.code === -32601)).toHaveLength(1);
    s.close();
  });

  it('stop() closes every socket with 1000, which tells clients not to reconnect', async () => {
    const own = await startDevnet({ slotMs: 20, wsPortPlusOne: false, stateModules: false });
    const ws = new WebSocket(own.wsUrl);
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'accountSubscribe', params: [payer.address, { encoding: 'base64' }] }));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    await own.stop();
    expect(await closed).toBe(1000);
  });
});
