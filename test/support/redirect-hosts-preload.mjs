/**
 * `node --import …/redirect-hosts-preload.mjs app.mjs`: runs app.mjs with the host names in
 * CAIRN_TEST_REDIRECT_HOSTS (a JSON array) redirected to CAIRN_TEST_REDIRECT_TARGET (a loopback URL),
 * as redirect-hosts.mjs does in-process. For a packed consumer's process (test/package/pack.test.ts).
 */
import { redirectHosts } from './redirect-hosts.mjs';

const target = process.env.CAIRN_TEST_REDIRECT_TARGET;
const hosts = JSON.parse(process.env.CAIRN_TEST_REDIRECT_HOSTS ?? '[]');
if (!target) throw new Error('redirect-hosts-preload: CAIRN_TEST_REDIRECT_TARGET is not set');
const redirect = await redirectHosts({ target, hosts });
process.on('exit', () => {
  // what was refused is the test's business: print it where the test reads it
  if (redirect.refused.length) process.stderr.write(`redirect-hosts refused: ${redirect.refused.join(', ')}\n`);
  process.stderr.write(`redirect-hosts redirected: ${[...new Set(redirect.redirected)].join(', ')}\n`);
});
