/**
 * Keeps a test on loopback while cairn itself talks to the service's production host names
 * (`createClient({ apiKey, cluster })`): the sockets, not `fetch`, are redirected. cairn's transport
 * opens plain-http connections with `net.connect` (its lean pool) and https ones with `tls.connect`
 * (undici), both through the module objects, so wrapping those two functions catches every
 * connection whatever the client library:
 * - `http:` to a redirected host goes to the target's port on 127.0.0.1;
 * - `https:` to a redirected host goes to a TLS terminator on 127.0.0.1 (test/support/tls's
 *   certificate, trusted for that connection only) that pipes to the target, so the client really
 *   speaks TLS to a server it verified;
 * - loopback passes; anything else is refused with an error on the socket and recorded in `refused`.
 * A `dns.lookup` guard refuses what reaches the network some other way.
 *
 * Plain JavaScript so a packed consumer can load it too (`node --import …/redirect-hosts-preload.mjs`).
 */
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';

const certDir = new URL('./tls/', import.meta.url);
const cert = readFileSync(new URL('cert.pem', certDir));
const key = readFileSync(new URL('key.pem', certDir));
const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

let active = null;

/** `{ host, port, rest }` of a `net.connect` / `tls.connect` call in any of its argument forms. */
function parse(args) {
  if (args[0] !== null && typeof args[0] === 'object') return { opts: args[0], rest: args.slice(1) };
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    const opts = { port: Number(args[0]) };
    let i = 1;
    if (typeof args[1] === 'string') opts.host = args[i++];
    if (args[i] !== null && typeof args[i] === 'object') Object.assign(opts, args[i++]);
    return { opts, rest: args.slice(i) };
  }
  return null; // a path (unix socket): not ours to route
}

/** A socket that fails at once: where a refused connection goes. */
function refusedSocket(state, host, port) {
  const shown = `${host}:${port}`;
  state.refused.push(shown);
  const s = new net.Socket();
  process.nextTick(() => s.destroy(new Error(`redirect-hosts: connection to ${shown} refused: not loopback and not a redirected host`)));
  return s;
}

/**
 * Redirect connections to `hosts` (host names, no port) to `target` (an http URL on loopback) until
 * `restore()`. One redirect at a time.
 *
 * @example
 * const r = await redirectHosts({ target: devnet.url, hosts: ['mainnet.helius-rpc.com'] });
 * const client = createClient({ apiKey: 'k', cluster: 'mainnet' }); // reaches the devnet over TLS
 * await r.restore();
 */
export async function redirectHosts({ target, hosts }) {
  if (active) throw new Error('redirect-hosts: a redirect is active already; restore() it first');
  const t = new URL(target);
  if (!LOOPBACK.has(t.hostname)) throw new Error(`redirect-hosts: target must be on loopback, got ${t.hostname}`);
  const targetPort = Number(t.port || 80);
  const realNet = net.connect;
  const realCreate = net.createConnection;
  const realTls = tls.connect;
  const realLookup = dns.lookup;
  const state = { hosts: new Set(hosts), refused: [], redirected: [] };

  // The TLS terminator: the client's TLS ends here, the bytes go on in plain http to the target.
  const open = new Set();
  const terminator = tls.createServer({ cert, key }, (inbound) => {
    const outbound = realNet.call(net, { host: '127.0.0.1', port: targetPort });
    open.add(inbound).add(outbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise((resolve, reject) => terminator.once('error', reject).listen(0, '127.0.0.1', resolve));
  terminator.unref();
  const tlsPort = terminator.address().port;

  const routeNet = (real) =>
    function (...args) {
      const p = parse(args);
      if (!p) return real.apply(net, args);
      const host = p.opts.host ?? 'localhost';
      if (LOOPBACK.has(host)) return real.apply(net, args);
      if (!state.hosts.has(host)) return refusedSocket(state, host, p.opts.port);
      state.redirected.push(`http://${host}:${p.opts.port ?? 80}`);
      return real.call(net, { ...p.opts, host: '127.0.0.1', port: targetPort }, ...p.rest);
    };
  net.connect = routeNet(realNet);
  net.createConnection = routeNet(realCreate);
  tls.connect = function (...args) {
    const p = parse(args);
    if (!p || p.opts.socket) return realTls.apply(tls, args);
    const host = p.opts.host ?? 'localhost';
    if (LOOPBACK.has(host)) return realTls.apply(tls, args);
    if (!state.hosts.has(host)) return refusedSocket(state, host, p.opts.port);
    state.redirected.push(`https://${host}:${p.opts.port ?? 443}`);
    // verified against the test certificate (made for localhost), trusted for this connection only
    return realTls.call(tls, { ...p.opts, host: '127.0.0.1', port: tlsPort, servername: 'localhost', ca: cert }, ...p.rest);
  };
  dns.lookup = function (hostname, ...rest) {
    if (LOOPBACK.has(hostname)) return realLookup.call(dns, hostname, ...rest);
    const cb = rest[rest.length - 1];
    state.refused.push(`dns:${hostname}`);
    process.nextTick(() => cb(new Error(`redirect-hosts: name lookup of ${hostname} refused: tests stay on loopback`)));
  };
  active = state;

  return {
    refused: state.refused,
    redirected: state.redirected,
    async restore() {
      if (active !== state) return;
      net.connect = realNet;
      net.createConnection = realCreate;
      tls.connect = realTls;
      dns.lookup = realLookup;
      active = null;
      for (const s of open) s.destroy();
      await new Promise((resolve) => terminator.close(() => resolve()));
    },
  };
}
