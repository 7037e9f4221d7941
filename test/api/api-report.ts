/**
 * The API report: every name each entry point exports, with the text of its declaration, read from
 * the declarations `tsc` emits (the same compiler and options as `npm run build`). The checked-in
 * listings in api/ are the public surface as reviewed; test/api/api-report.test.ts fails when the
 * emitted surface differs from them, and `npm run api:update` (this file with `--update`) rewrites them.
 *
 * The listing is normalised so that only the surface counts: comments dropped, whitespace collapsed,
 * names sorted, and each name shown with the declaration it resolves to through any chain of
 * re-exports (so moving a declaration between files changes nothing, changing its signature does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The package's entry points (package.json `exports`), by the name of their listing in api/. */
export const ENTRIES: Record<string, string> = {
  cairn: 'index.d.ts',
  merkle: 'merkle/index.d.ts',
  sender: 'sender/index.d.ts',
  devnet: 'devnet/index.d.ts',
  mint: 'mint/index.d.ts',
};

export const API_DIR = join(ROOT, 'api');
export const UPDATE_COMMAND = 'npm run api:update';

/** Emit the declarations of src/ into a fresh directory; returns it (the caller removes it). */
export function emitDeclarations(): string {
  const out = mkdtempSync(join(tmpdir(), 'cairn-api-'));
  // the project's TypeScript by path, never node_modules/.bin/tsc: the devDependency typescript-5 (for
  // TypeDoc, scripts/api-docs.mjs) has a `tsc` bin too, and which of the two npm links there is not fixed
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(tsc, ['-p', join(ROOT, 'tsconfig.build.json'), '--declaration', '--emitDeclarationOnly', '--sourceMap', 'false', '--outDir', out], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (e) {
    // A type error elsewhere still emits every declaration; `npm run typecheck` is the check for those.
    if (!existsSync(join(out, ENTRIES.cairn))) throw e;
  }
  return out;
}

interface ModuleInfo {
  /** Local declarations: name → statement text. */
  decls: Map<string, string[]>;
  /** Exported name → where it comes from. */
  exports: Map<string, { local: string } | { from: string; name: string }>;
  /** `export * from` / `export type * from` modules. */
  stars: string[];
  /** Imported local name → its module and name there. */
  imports: Map<string, { from: string; name: string }>;
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** Top-level statements of a .d.ts: each begins on a line that starts in column 0 with a word. */
function statements(text: string): string[] {
  const out: string[] = [];
  for (const line of stripComments(text).split('\n')) {
    if (!line.trim()) continue;
    if (/^[A-Za-z@]/.test(line) || out.length === 0) out.push(line);
    else out[out.length - 1] += `\n${line}`;
  }
  return out.map((s) => s.replace(/\s+/g, ' ').trim());
}

const DECL = /^(?:export )?(?:declare )?(?:default )?(?:abstract )?(?:async )?(?:function|const|let|var|class|interface|type|enum|namespace) ([A-Za-z_$][\w$]*)/;

function specifiers(list: string): { name: string; as: string }[] {
  return list
    .split(',')
    .map((s) => s.trim().replace(/^type /, ''))
    .filter(Boolean)
    .map((s) => {
      const [name, as] = s.split(/\s+as\s+/);
      return { name: name!.trim(), as: (as ?? name!).trim() };
    });
}

function parseModule(file: string): ModuleInfo {
  const info: ModuleInfo = { decls: new Map(), exports: new Map(), stars: [], imports: new Map() };
  const dir = dirname(file);
  const target = (spec: string): string => {
    const base = resolve(dir, spec.replace(/\.js$/, ''));
    return existsSync(`${base}.d.ts`) ? `${base}.d.ts` : join(base, 'index.d.ts');
  };
  for (const st of statements(readFileSync(file, 'utf8'))) {
    let m: RegExpMatchArray | null;
    if ((m = st.match(/^export (?:type )?\* as ([\w$]+) from ['"](.+)['"];?$/))) {
      info.exports.set(m[1]!, { from: target(m[2]!), name: '*' });
    } else if ((m = st.match(/^export (?:type )?\* from ['"](.+)['"];?$/))) {
      info.stars.push(target(m[1]!));
    } else if ((m = st.match(/^export (?:type )?\{([^}]*)\} from ['"](.+)['"];?$/))) {
      for (const s of specifiers(m[1]!)) info.exports.set(s.as, { from: target(m[2]!), name: s.name });
    } else if ((m = st.match(/^export (?:type )?\{([^}]*)\};?$/))) {
      for (const s of specifiers(m[1]!)) info.exports.set(s.as, { local: s.name });
    } else if ((m = st.match(/^import (?:type )?\{([^}]*)\} from ['"](.+)['"];?$/))) {
      for (const s of specifiers(m[1]!)) info.imports.set(s.as, { from: target(m[2]!), name: s.name });
    } else if ((m = st.match(/^import (?:type )?\* as ([\w$]+) from ['"](.+)['"];?$/))) {
      info.imports.set(m[1]!, { from: target(m[2]!), name: '*' });
    } else if ((m = st.match(DECL))) {
      const name = m[1]!;
      info.decls.set(name, [...(info.decls.get(name) ?? []), st.replace(/^export /, '').replace(/^declare /, '')]);
      if (st.startsWith('export ')) info.exports.set(name, { local: name });
    }
  }
  return info;
}

const cache = new Map<string, ModuleInfo>();
function mod(file: string): ModuleInfo {
  let m = cache.get(file);
  if (!m) cache.set(file, (m = parseModule(file)));
  return m;
}

/** Every name `file` exports → the declaration text it resolves to. */
function exportsOf(file: string, seen = new Set<string>()): Map<string, string> {
  const out = new Map<string, string>();
  if (seen.has(file)) return out;
  seen.add(file);
  const m = mod(file);
  for (const star of m.stars) for (const [k, v] of exportsOf(star, seen)) if (!out.has(k)) out.set(k, v);
  for (const [name, how] of m.exports) out.set(name, resolveName(file, how));
  return out;
}

function resolveName(file: string, how: { local: string } | { from: string; name: string }): string {
  if ('local' in how) {
    const m = mod(file);
    const decl = m.decls.get(how.local);
    if (decl) return decl.join(' ');
    const imp = m.imports.get(how.local);
    if (imp) return resolveName(file, imp);
    return `(unresolved ${how.local})`;
  }
  if (how.name === '*') {
    const names = [...exportsOf(how.from, new Set()).keys()].sort();
    return `namespace { ${names.join(', ')} }`;
  }
  const target = exportsOf(how.from, new Set()).get(how.name);
  return target ?? `(unresolved ${how.name} in ${how.from})`;
}

/** The listing of one entry: a header, then one `name` line and its declaration per exported name. */
export function listing(dtsDir: string, entry: string): string {
  cache.clear();
  const names = exportsOf(join(dtsDir, ENTRIES[entry]!));
  const lines = [`# API of ${entry === 'cairn' ? "'cairn-solana'" : `'cairn-solana/${entry}'`} (generated by ${UPDATE_COMMAND}; do not edit)`, ''];
  for (const name of [...names.keys()].sort()) {
    lines.push(`## ${name}`, '', '```ts', names.get(name)!, '```', '');
  }
  return lines.join('\n');
}

export function apiFile(entry: string): string {
  return join(API_DIR, `${entry}.api.md`);
}

if (process.argv.includes('--update')) {
  const dir = emitDeclarations();
  try {
    for (const entry of Object.keys(ENTRIES)) {
      writeFileSync(apiFile(entry), listing(dir, entry));
      process.stdout.write(`wrote ${apiFile(entry)}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
