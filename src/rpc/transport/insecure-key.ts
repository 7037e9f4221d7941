/**
 * The rule that keeps an API key off the open wire: over plain `http:` a key may only go to a
 * loopback host (127.0.0.0/8, ::1, localhost), which nothing but this machine can read. Anywhere else
 * it needs https, or the caller's explicit `allowInsecureKey: true`. Checked by `createClient` for
 * every host that would carry the key, and by the transport for every request that carries it.
 */
import { ErrorCodes, InsecureKeyError } from '../../errors/index.js';

/** True for 127.0.0.0/8, ::1 and localhost (the WHATWG URL parser has already normalised the host). */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Throw `RPC_INSECURE_KEY` when `url` is plain http to a host that is not loopback. `url` must not
 * carry the key (it is shown in the error); `field` names the option it came from.
 */
export function refuseInsecureKey(url: URL, field: string): void {
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return;
  throw new InsecureKeyError(
    ErrorCodes.RPC_INSECURE_KEY,
    `"${field}": refusing to send the API key over plain http to ${url.host}, where anyone on the way can read it; use https, or set allowInsecureKey: true if that network is yours`,
    { context: { field, url: url.href, host: url.host } },
  );
}
