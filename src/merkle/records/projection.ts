/**
 * Projections: the parts of a JSON value a verifier reads, packed as typed ops (`BatchWriter.projected`)
 * and rebuilt by the worker (`RecordReader.projected`) in the same key order.
 */

/**
 * The parts of a JSON value a verifier reads, for packing just those: `true` keeps a value whole, an
 * object keeps only the keys it lists (each with its own projection), `[p]` applies `p` to every
 * element of an array. A value whose shape differs from the projection (a string where an object
 * was expected, an array for an object) is kept whole, so the verifier sees exactly what it would
 * have seen in the original at every path the projection lists — and `undefined` everywhere else.
 *
 * @example
 * const P: Projection = { id: true, ownership: { owner: true }, creators: [{ address: true }] };
 */
export type Projection = true | { readonly [key: string]: Projection } | readonly [Projection];

const projectionKeys = new WeakMap<object, string[]>();
export function keysOf(p: { readonly [key: string]: Projection }): string[] {
  let k = projectionKeys.get(p);
  if (!k) projectionKeys.set(p, (k = Object.keys(p)));
  return k;
}

/** The strings of a value being projected, written as one pool after its ops. */
export interface ProjectionPool {
  strings: string[];
  /** Where each string's length is in the record (patched when the pool is not all ASCII). */
  lenAt: number[];
  chars: number;
  /** The strings joined as they come (`+` is cheaper than one `join` at the end). */
  text: string;
}

/** The writer's ops a compiled projection calls (`BatchWriter`'s). */
export interface ProjectionSink {
  projLeaf(value: unknown, pool: ProjectionPool): void;
  projArr(len: number): void;
  projObj(): void;
}

type ProjectionWriter = (w: ProjectionSink, value: unknown, pool: ProjectionPool) => void;
const compiledProjections = new WeakMap<object, ProjectionWriter>();

/**
 * `p` as straight-line code that walks a value and writes its ops (`BatchWriter.projected`). A walk
 * driven by the projection reads every member through one `value[key]` site, which V8 cannot cache
 * across ~40 different keys: a getAsset item cost the main thread ~1.1 µs there, ~40% of packing it.
 * Generated code reads each member at its own site with a constant key. The keys are the
 * projection's own (constants in cairn, never input), in `keysOf` order, which the reader follows.
 */
export function compiledProjection(p: Projection): ProjectionWriter {
  if (p === true) return (w, value, pool) => w.projLeaf(value, pool);
  let f = compiledProjections.get(p);
  if (f) return f;
  let n = 0;
  const emit = (q: Projection, v: string): string => {
    if (q === true) return `w.projLeaf(${v}, pool);`;
    const isObject = `${v} !== null && typeof ${v} === 'object'`;
    if (Array.isArray(q)) {
      const i = `i${n}`;
      const e = `e${n++}`;
      return `if (${isObject} && Array.isArray(${v})) { w.projArr(${v}.length); for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${e} = ${v}[${i}]; ${emit(q[0] as Projection, e)} } } else w.projLeaf(${v}, pool);`;
    }
    const obj = q as { readonly [key: string]: Projection };
    const members = keysOf(obj).map((k) => {
      const c = `c${n++}`;
      return `const ${c} = ${v}[${JSON.stringify(k)}]; ${emit(obj[k]!, c)}`;
    });
    return `if (${isObject} && !Array.isArray(${v})) { w.projObj(); ${members.join(' ')} } else w.projLeaf(${v}, pool);`;
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is built from the projection's own keys (above)
  f = new Function('w', 'value', 'pool', emit(p, 'value')) as ProjectionWriter;
  compiledProjections.set(p, f);
  return f;
}
