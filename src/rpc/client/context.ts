/**
 * What every method module needs from the client: the JSON-RPC caller, the transport (for REST),
 * the resolved endpoints and a few knobs. Method modules are plain functions of this context, so
 * they can be tested or reused without the client object.
 */
import type { Endpoints } from '../../config.js';
import type { JsonRpc } from '../jsonrpc.js';
import type { Transport } from '../transport/create-transport.js';

export interface ClientContext {
  rpc: JsonRpc;
  transport: Transport;
  endpoints: Endpoints;
  /** Requests in flight at once when a batch is split (getAssetBatch, token metadata, statuses). */
  batchConcurrency: number;
  /** Send the API key to the /fast host too (only users with custom TPS limits need it). */
  senderApiKey: boolean;
  logger?: (line: string) => void;
  /** Say a deprecated method's notice (once per process; default true). */
  deprecationWarnings?: boolean;
}
