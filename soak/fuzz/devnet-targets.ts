/**
 * Fuzz targets of the devnet's JSON-RPC methods: one devnet on 127.0.0.1, and every method of its
 * dispatch table (the standard Solana module's and those of the DAS and compression state modules, read
 * from the modules themselves, so a new method is fuzzed without being listed here), plus `/fast` and
 * batches. Each case sends one request with fuzzed params (and sometimes a fuzzed id) over HTTP.
 *
 * The answer must be HTTP < 500 with a JSON-RPC 2.0 body echoing the id, holding a result or an error
 * with a standard code: -32602 naming the field for bad params, -32600 for a bad request, or a
 * server-defined -32000..-32099. Never -32603 (a handler threw something it did not mean to), never
 * "method not found" for a method of the table, never a hang past the time bound, and the devnet must
 * still answer afterwards.
 */
import fc from 'fast-check';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { nest } from './mutate.js';
import { Broken, type GroupOptions, type Target, type TargetGroup } from './target.js';

/** Agave's -32602 wordings the devnet answers with as Agave does (src/devnet's `badAgave` calls). */
const AGAVE_INVALID_PARAMS = /^(Invalid param: |Invalid limit; max \d+$|Invalid slot range: |base58 encoding not supported$|lastSlot, \d+, cannot be less than firstSlot, \d+$)/;

const ADDR = 'F9Lw3ki3hJ7PF9HQXsBzoY8GyE6sPoEZZdXJBsTTD2rk';
const SIG = '5Ea6iQQZ1JYfiDq8H6qMKYdFcut1cUfd9pstCGc3BsQztTbgKA4LhsEx6XKQ1bMhKp5KMyyw5BuuooxEcpGLyHFB';

/** Values a param might take: plausible ones (so checks past the first are reached) and hostile ones. */
const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>(
      ADDR,
      SIG,
      '11111111111111111111111111111111',
      'AQ==',
      { commitment: 'finalized' },
      { commitment: 'processed', encoding: 'base64' },
      { encoding: 'base58' },
      { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
      { searchTransactionHistory: true },
      { skipPreflight: true, encoding: 'base64' },
      [ADDR],
      [SIG, SIG],
      { id: ADDR },
      { ids: [ADDR] },
      { hashes: [ADDR] },
      { ownerAddress: ADDR, page: 1, limit: 10 },
      { owner: ADDR, cursor: 'x' },
      { address: ADDR },
      { hash: ADDR },
      { signature: SIG },
      { newAddressesWithTrees: [{ address: ADDR, tree: ADDR }] },
      { name: 'n', symbol: 's', owner: ADDR, description: 'd' },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      2 ** 53 + 2,
      1e308,
      -1,
      1.5,
      -0,
      0,
      4294967296,
      '1'.repeat(10_000),
      ADDR.repeat(2_000),
      nest(500, 1),
      nest(200, ADDR, true),
      Array.from({ length: 2_000 }, () => ADDR),
      { page: 1e300, limit: -5 },
      { limit: 2 ** 40 },
      { cursor: '', before: ADDR, after: ADDR },
    ),
  },
);

const keyArb = fc.constantFrom(
  'id', 'ids', 'ownerAddress', 'creatorAddress', 'authorityAddress', 'groupKey', 'groupValue', 'page', 'limit', 'before', 'after', 'cursor',
  'sortBy', 'options', 'hash', 'hashes', 'address', 'addresses', 'owner', 'delegate', 'mint', 'signature', 'newAddressesWithTrees',
  'mintAccounts', 'name', 'symbol', 'uri', 'commitment', 'encoding', 'accountKeys', 'transaction', 'tree',
);

const paramsArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.jsonValue() },
  { weight: 3, arbitrary: fc.array(valueArb, { maxLength: 4 }) },
  { weight: 3, arbitrary: fc.dictionary(keyArb, valueArb, { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, [], {}, 'x', 7) },
);

/** Usually a plain id; sometimes one the server has to cope with. */
const idArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 1e6 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 2 ** 60, 1e300, -1.5, { a: 1 }, [1], nest(300, 1), 'x'.repeat(5_000)) },
);

/** Codes a fuzzed call may get: the JSON-RPC ones for a bad request or params, and server-defined ones. */
const allowed = (code: unknown): boolean => code === -32700 || code === -32600 || code === -32602 || (typeof code === 'number' && code <= -32000 && code >= -32099);
const isValidId = (id: unknown): boolean => typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) || id === null;

export async function devnetTargets({ timeoutMs }: GroupOptions): Promise<TargetGroup> {
  const internal: string[] = [];
  const devnet: Devnet = await startDevnet({
    wsPortPlusOne: false,
    waitForModules: true,
    // an internal error's stack is the counterexample's best clue
    log: (l) => {
      if (l.includes('internal error') && internal.length < 20) internal.push(l.slice(0, 600));
    },
  });
  // The dispatch table as the devnet serves it, so a method added to any module is fuzzed too.
  if (!devnet.das || !devnet.compression) throw new Error('the devnet started without its DAS / compression modules');
  const names = new Set<string>(devnet.control.methods());

  async function post(path: string, body: string): Promise<{ status: number; text: string }> {
    const res = await fetch(devnet.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(timeoutMs) }).catch((e: unknown) => {
      throw new Broken(`no answer from the devnet: ${(e as Error).message}`);
    });
    return { status: res.status, text: await res.text() };
  }

  /** Check one JSON-RPC answer; returns 'ok' for a result, 'invalid' for an allowed error. */
  function judge(method: string, id: unknown, answer: unknown, status: number): 'ok' | 'invalid' {
    if (status >= 500) throw new Broken(`HTTP ${status}: ${JSON.stringify(answer).slice(0, 300)}`);
    const a = answer as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (a === null || typeof a !== 'object' || a.jsonrpc !== '2.0') throw new Broken(`not a JSON-RPC 2.0 answer: ${JSON.stringify(answer).slice(0, 300)}`);
    // a request that could not be read (too deep, not JSON-RPC) has no id to echo: null, as the spec says
    const unread = a.id === null && (a.error?.code === -32600 || a.error?.code === -32700);
    if (isValidId(id) && a.id !== id && !unread) throw new Broken(`id ${JSON.stringify(id)} answered as ${JSON.stringify(a.id)}`);
    if ('result' in a === 'error' in a) throw new Broken(`an answer needs exactly one of result and error: ${JSON.stringify(answer).slice(0, 300)}`);
    if ('result' in a) return 'ok';
    const e = a.error ?? {};
    if (e.code === -32603) throw new Broken(`internal error: ${String(e.message)}${internal.length ? ` | devnet log: ${internal.splice(0).join(' | ')}` : ''}`);
    if (e.code === -32601 && names.has(method)) throw new Broken(`"method not found" for ${method}, a method of the dispatch table`);
    if (e.code !== -32601 && !allowed(e.code)) throw new Broken(`error code ${String(e.code)} is not a standard one: ${String(e.message)}`);
    // Agave's own -32602 words ("Invalid param: could not find mint", "Invalid limit; max 720", …) are
    // answered as Agave gives them (issue 34: clients' suites compare them; the devnet's `badAgave`
    // sites); every other -32602 names its field.
    const agaveWords = AGAVE_INVALID_PARAMS.test(String(e.message));
    if (e.code === -32602 && !agaveWords && !/params|"[^"]+"|\b[a-z]\w*(\.\w+|\[\d+\])+/i.test(String(e.message))) throw new Broken(`-32602 without naming the field: ${String(e.message)}`);
    return 'invalid';
  }

  async function alive(): Promise<void> {
    const r = await post('/', '{"jsonrpc":"2.0","id":1,"method":"getHealth"}');
    if (r.status !== 200 || JSON.parse(r.text).result !== 'ok') throw new Broken(`the devnet stopped answering getHealth: HTTP ${r.status} ${r.text.slice(0, 200)}`);
  }

  async function call(path: string, method: string, params: unknown, id: unknown): Promise<'ok' | 'invalid'> {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    const r = await post(path, body);
    let answer: unknown;
    try {
      answer = JSON.parse(r.text);
    } catch {
      throw new Broken(`HTTP ${r.status}, not JSON: ${r.text.slice(0, 300)}`);
    }
    try {
      return judge(method, id, answer, r.status);
    } catch (e) {
      await alive();
      throw e;
    }
  }

  const targets: Target[] = [...names].sort().map((method) => ({
    name: `devnet:${method}`,
    arb: fc.record({ params: paramsArb, id: idArb }),
    run: (input: unknown) => {
      const { params, id } = input as { params: unknown; id: unknown };
      return call('/', method, params, id);
    },
  }));
  targets.push({
    name: 'devnet:/fast sendTransaction',
    arb: fc.record({ params: paramsArb, id: idArb }),
    run: (input) => call('/fast', 'sendTransaction', (input as { params: unknown }).params, (input as { id: unknown }).id),
  });
  targets.push({
    name: 'devnet:batch',
    arb: fc.array(fc.record({ method: fc.constantFrom(...names), params: paramsArb, id: fc.integer({ min: 0, max: 1e6 }) }), { maxLength: 8 }),
    async run(input) {
      const calls = input as Array<{ method: string; params: unknown; id: number }>;
      const r = await post('/', JSON.stringify(calls.map((c) => ({ jsonrpc: '2.0', ...c }))));
      const answer = JSON.parse(r.text) as unknown;
      // an empty batch, or one refused as a whole (too deep, too long): one error, id null
      if (calls.length === 0 || !Array.isArray(answer)) return judge('batch', null, answer, r.status);
      if (!Array.isArray(answer) || answer.length !== calls.length) throw new Broken(`${calls.length} calls, answered ${JSON.stringify(answer).slice(0, 300)}`);
      let out: 'ok' | 'invalid' = 'ok';
      calls.forEach((c, i) => {
        if (judge(c.method, c.id, answer[i], 200) === 'invalid') out = 'invalid';
      });
      return out;
    },
  });
  return { targets, close: () => devnet.stop() };
}
