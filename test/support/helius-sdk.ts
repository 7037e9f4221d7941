/**
 * helius-sdk 3.2 pointed at a devnet as a user points it at the provider: `createHelius({ apiKey })`
 * with the SDK's own hosts, every one of them redirected to the devnet on 127.0.0.1 by
 * redirect-fetch.ts (imported first here: it must be in place before helius-sdk loads @solana/kit).
 * The devnet requires the API key, as the provider does, except on `/fast`.
 */
import { HELIUS_SDK_HOSTS, redirectToLoopback, type Redirect } from './redirect-fetch.js';
import { createHelius } from 'helius-sdk';
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/devnet/index.js';

/** The key the devnet accepts and the SDK sends (a test key: never a secret). */
const HELIUS_API_KEY = 'helius-sdk-conformance';

export type Helius = ReturnType<typeof createHelius>;

export interface HeliusOnDevnet {
  devnet: Devnet;
  helius: Helius;
  redirect: Redirect;
  /** Close the SDK's websockets, restore fetch, stop the devnet. */
  stop(): Promise<void>;
}

/**
 * Start a devnet and a helius-sdk client whose hosts all lead to it.
 *
 * @example
 * const h = await heliusOnDevnet({ slotMs: 100 });
 * await h.helius.getAsset({ id });
 * expect(h.redirect.refused).toEqual([]);
 * await h.stop();
 */
export async function heliusOnDevnet(options: DevnetOptions = {}): Promise<HeliusOnDevnet> {
  const devnet = await startDevnet({ wsPortPlusOne: false, ...options, keys: [{ key: HELIUS_API_KEY, name: 'helius-sdk' }] });
  const redirect = redirectToLoopback({ target: devnet.url, hosts: HELIUS_SDK_HOSTS });
  const helius = createHelius({ apiKey: HELIUS_API_KEY, network: 'mainnet' });
  return {
    devnet,
    helius,
    redirect,
    async stop() {
      // close() exists once the `ws` namespace has been used. Never read it through the client
      // otherwise: an unknown name falls through to kit's RPC proxy, and `helius.close()` would POST
      // a JSON-RPC call named "close".
      if (Object.hasOwn(helius, 'close')) (helius as unknown as { close(): void }).close();
      redirect.restore();
      await devnet.stop();
    },
  };
}
