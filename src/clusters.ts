/**
 * The service's production hosts, by cluster: what `createClient({ apiKey, cluster })` and
 * `createSender({ apiKey, cluster, region })` resolve to. The names are the provider's public ones
 * (the same helius-sdk 3.2 builds its URLs from; docs/sender.md for `/fast`), kept here once so the
 * client, the sender and the README's table of them cannot disagree.
 */

/** A cluster the service runs: Solana mainnet-beta or devnet. */
export type Cluster = 'mainnet' | 'devnet';

/** The four hosts of one cluster. The API key travels to each only as the `api-key` query parameter. */
export interface ClusterHosts {
  /** JSON-RPC: Solana methods, DAS, ZK compression, priority fees. */
  readonly baseUrl: string;
  /** REST `/v0/…`: webhooks, token metadata. */
  readonly restUrl: string;
  /** `/fast` transaction submission (global HTTPS host, routed to the nearest region). */
  readonly senderUrl: string;
  /** Wallet history REST `/v1/wallet/…`. */
  readonly walletUrl: string;
}

/**
 * Each cluster's hosts. The `/fast` and wallet hosts have no devnet counterpart of their own: the
 * provider serves both clusters' submissions and wallet history from one host each, as helius-sdk
 * assumes (its `SENDER_ENDPOINTS` and wallet `BASE_URL` take no network).
 */
export const CLUSTER_HOSTS: Readonly<Record<Cluster, ClusterHosts>> = Object.freeze({
  mainnet: Object.freeze({
    baseUrl: 'https://mainnet.helius-rpc.com',
    restUrl: 'https://api-mainnet.helius-rpc.com',
    senderUrl: 'https://sender.helius-rpc.com',
    walletUrl: 'https://api.helius.xyz',
  }),
  devnet: Object.freeze({
    baseUrl: 'https://devnet.helius-rpc.com',
    restUrl: 'https://api-devnet.helius.xyz',
    senderUrl: 'https://sender.helius-rpc.com',
    walletUrl: 'https://api.helius.xyz',
  }),
});

/**
 * The regional plain-HTTP `/fast` hosts, for servers (`createSender({ region })`); lower latency
 * than the global HTTPS host from a machine near one. Plain HTTP is why the API key goes to them only
 * with `senderApiKey` and `allowInsecureKey`: standard plans need no key on `/fast`.
 */
export const SENDER_REGIONS: Readonly<Record<string, string>> = Object.freeze({
  slc: 'http://slc-sender.helius-rpc.com',
  ewr: 'http://ewr-sender.helius-rpc.com',
  lon: 'http://lon-sender.helius-rpc.com',
  fra: 'http://fra-sender.helius-rpc.com',
  ams: 'http://ams-sender.helius-rpc.com',
  sg: 'http://sg-sender.helius-rpc.com',
  tyo: 'http://tyo-sender.helius-rpc.com',
});

/** True for a known cluster name. */
export function isCluster(v: unknown): v is Cluster {
  return v === 'mainnet' || v === 'devnet';
}
