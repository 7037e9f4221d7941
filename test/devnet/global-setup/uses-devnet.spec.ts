// A test file of the recipe: it reads the devnet's URL with inject() and talks JSON-RPC to it.
import { expect, inject, it } from 'vitest';

it('reaches the devnet the global setup started', async () => {
  const url = inject('devnetUrl');
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }) });
  expect(((await res.json()) as { result?: unknown }).result).toBe('ok');
});
