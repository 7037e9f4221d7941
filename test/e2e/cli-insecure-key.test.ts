/**
 * `cairn send` and `cairn mint` refuse to send an API key over plain http to a host that is not
 * loopback (exit 2, RPC_INSECURE_KEY, no request made) unless `--allow-insecure-key`. The "remote"
 * host is http://0.0.0.0:PORT, which Linux routes to this machine's test server: nothing leaves it,
 * and the server sees whether a request came.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as mint } from '../../src/cli/mint.js';
import { run as send } from '../../src/cli/send.js';
import { generateSigner } from '../../src/sender/index.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

const KEY = 'cli-insecure-KEY-42x';
const dir = mkdtempSync(join(tmpdir(), 'cairn-insecure-'));
let srv: TestServer;
let remote: string;
const keypair = join(dir, 'id.json');

beforeAll(async () => {
  srv = await startServer(() => ({ status: 503, body: { error: 'down' } }));
  remote = `http://0.0.0.0:${new URL(srv.url).port}`;
  writeFileSync(keypair, JSON.stringify([...generateSigner().secretKey()]));
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: {} }, out, err };
}

describe('an API key to a remote plain-http host from the CLI', () => {
  it('cairn send refuses with exit 2 and sends nothing; --allow-insecure-key lets it through', async () => {
    const t = io();
    const to = generateSigner().address;
    expect(await send(['--to', to, '--lamports', '1', '--keypair', keypair, '--url', remote, '--api-key', KEY], t.io)).toBe(2);
    expect(t.err.join('')).toMatch(/\[RPC_INSECURE_KEY\]/);
    expect(t.err.join('')).not.toContain(KEY);
    expect(srv.requests).toHaveLength(0);
    const u = io();
    expect(await send(['--to', to, '--lamports', '1', '--keypair', keypair, '--url', remote, '--api-key', KEY, '--allow-insecure-key'], u.io)).toBe(1);
    expect(srv.requests.length).toBeGreaterThan(0); // it got as far as the (failing) server
    expect(u.err.join('')).not.toContain(KEY);
    srv.requests.length = 0;
  });

  it('cairn mint refuses with exit 2 and sends nothing', async () => {
    const t = io();
    expect(await mint(['--name', 'A', '--symbol', 'B', '--owner', generateSigner().address, '--url', remote, '--api-key', KEY], t.io)).toBe(2);
    expect(t.err.join('')).toMatch(/\[RPC_INSECURE_KEY\]/);
    expect(srv.requests).toHaveLength(0);
  });
});
