// A consumer's file that touches every entry point's types, values and the devnet's LiteSVM handle.
// pack.test.ts type-checks it against the packed package with strict tsc, skipLibCheck off and no
// litesvm installed, under node10 (typesVersions), node16 and bundler resolution; the repository's
// own typecheck reads it through tsconfig's paths (no build needed).
import { CairnError, CLUSTER_HOSTS, createClient, isCairnError, type CairnClient, type Cluster, type ClientOptions } from 'cairn-solana';
import { createVerifier, type Verdict, type Verifier } from 'cairn-solana/merkle';
import { createSender, generateSigner, transferInstruction, type SendInput, type Sender } from 'cairn-solana/sender';
import { startDevnet, type Devnet, type DevnetOptions } from 'cairn-solana/devnet';
import { mintCompressedNft, type MintInput } from 'cairn-solana/mint';

export const cluster: Cluster = 'mainnet';
export const options: ClientOptions = { apiKey: 'key-from-the-environment', cluster };
export const rpcHost: string = CLUSTER_HOSTS.devnet.baseUrl;

export function client(): CairnClient {
  return createClient(options);
}

export function sender(c: CairnClient): Sender {
  return createSender({ client: c, tip: 'min' });
}

export function input(): SendInput {
  const payer = generateSigner();
  return { instructions: [transferInstruction(payer.address, generateSigner().address, 1_000_000n)], payer };
}

export async function verify(v: Verifier, proofs: unknown[]): Promise<Verdict[]> {
  return v.verify('asset-proof', proofs);
}

export const verifier: () => Verifier = () => createVerifier({ threads: 1 });

export async function devnet(o: DevnetOptions): Promise<{ url: string; svm: Devnet['svm'] }> {
  const d = await startDevnet(o);
  return { url: d.url, svm: d.svm };
}

export const mint: (c: CairnClient, p: MintInput) => Promise<{ assetId: string }> = (c, p) => mintCompressedNft(c, p);

export function code(e: unknown): string | undefined {
  if (isCairnError(e, 'INPUT_INVALID')) return e.context.field;
  return e instanceof CairnError ? e.code : undefined;
}
