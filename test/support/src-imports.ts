/**
 * Every import of src/, read from the text (test/architecture/boundaries.test.ts checks them): each
 * `import … from '…'`, `export … from '…'`, side-effect `import '…'`, `import('…')` and `typeof
 * import('…')`, comments left out, with the file a relative specifier resolves to and the part of
 * src/ each side belongs to. A part is a top-level folder of src/ (`merkle/`) or a top-level file of
 * its own (`tips.ts`); a part's surface is its `index.ts` and `internal.ts`, or the single file.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

export interface SrcImport {
  /** The importing file, relative to src/ (`cli/demo.ts`). */
  from: string;
  /** The specifier as written. */
  spec: string;
  /** 1-based line of the specifier. */
  line: number;
  /** The file a relative specifier resolves to, relative to src/; undefined for a package (or unresolved). */
  to?: string;
  /** True when the statement only re-exports (`export … from`). */
  reexport: boolean;
}

/** The part of src/ a file (relative to src/) belongs to: `merkle/` for a folder, `tips.ts` for a top-level file. */
export function partOf(file: string): string {
  const i = file.indexOf('/');
  return i < 0 ? file : file.slice(0, i + 1);
}

/** How another part reaches `file`: `merkle/` (its index.ts), `merkle/internal` (its internal.ts), `tips.ts`, or undefined (an inner file). */
export function surfaceOf(file: string): string | undefined {
  const part = partOf(file);
  if (!part.endsWith('/')) return part;
  const rest = file.slice(part.length);
  if (rest === 'index.ts') return part;
  if (rest === 'internal.ts') return `${part}internal`;
  return undefined;
}

/** Every .ts file under src/, relative to it, sorted. */
export function srcFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...srcFiles(p));
    else if (e.endsWith('.ts')) out.push(relative(SRC, p).split('\\').join('/'));
  }
  return out.sort();
}

/**
 * `text` with its comments blanked out (newlines kept, so line numbers hold) and its string and
 * template literals kept as they are: a specifier is a string, and `//` inside one is not a comment.
 */
function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

// `import x from '…'`, `import type { … } from '…'`, `export { … } from '…'`, `export * from '…'`,
// `import '…'` (a statement start, multi-line bodies included), and `import('…')` anywhere.
const STATIC = /(?:^|[;}\n])[ \t]*(import|export)\b(?:\s+type\b)?([^;'"`]*?)\bfrom\s*(['"])([^'"\n]+)\3|(?:^|[;}\n])[ \t]*import\s*(['"])([^'"\n]+)\5/g;
const DYNAMIC = /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;

/** Resolve a relative specifier of `from` (relative to src/) to a file under src/, or undefined. */
function resolveSpec(from: string, spec: string): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  for (const c of [base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`, base]) {
    const p = join(SRC, c);
    if (existsSync(p) && statSync(p).isFile()) return c;
  }
  return undefined;
}

/** The imports of one file of src/ (relative to src/). */
export function importsOf(from: string): SrcImport[] {
  const text = stripComments(readFileSync(join(SRC, from), 'utf8'));
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const found: SrcImport[] = [];
  const add = (spec: string, index: number, reexport: boolean) => {
    const to = spec.startsWith('.') ? resolveSpec(from, spec) : undefined;
    found.push({ from, spec, line: lineAt(index), reexport, ...(to ? { to } : {}) });
  };
  for (const m of text.matchAll(STATIC)) {
    if (m[4] !== undefined) add(m[4], m.index + m[0].lastIndexOf(m[4]), m[1] === 'export');
    else add(m[6]!, m.index + m[0].lastIndexOf(m[6]!), false);
  }
  for (const m of text.matchAll(DYNAMIC)) add(m[2]!, m.index, false);
  return found;
}

/** True when a file holds nothing but re-exports (`export … from '…'`), comments aside. */
export function onlyReexports(from: string): boolean {
  const text = stripComments(readFileSync(join(SRC, from), 'utf8'));
  const rest = text.replace(/(?:^|[;\n])[ \t]*export\b(?:\s+type\b)?[^;'"`]*?\bfrom\s*(['"])[^'"\n]+\1\s*;?/g, '\n');
  return rest.trim() === '' && text.trim() !== '';
}
