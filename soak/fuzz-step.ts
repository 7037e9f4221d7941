/**
 * The fuzzer's step of the campaign. soak/fuzz.ts is another engineer's and may not exist yet: then
 * the step reports "not built yet", which the campaign counts as a failure.
 */
import type { FuzzFigures } from './report.js';

/** True when `result` says the fuzzer found something (a failure count, or ok/passed set to false). */
function fuzzFailed(result: unknown): boolean {
  if (!result || typeof result !== 'object') return false;
  const r = result as Record<string, unknown>;
  if (r.ok === false || r.passed === false) return true;
  return ['failures', 'failed', 'counterexamples'].some((k) => (typeof r[k] === 'number' && (r[k] as number) > 0) || (Array.isArray(r[k]) && (r[k] as unknown[]).length > 0));
}

export async function runFuzzIfBuilt(cases: number): Promise<FuzzFigures> {
  const spec = new URL('./fuzz.js', import.meta.url).href;
  let mod: { runFuzz?: (o: { cases: number }) => unknown };
  try {
    mod = (await import(spec)) as typeof mod;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((e as Error).message).includes('fuzz')) return { status: 'not built yet' };
    return { status: 'failed', error: `import: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof mod.runFuzz !== 'function') return { status: 'failed', error: 'soak/fuzz.ts has no runFuzz()' };
  try {
    const result = await mod.runFuzz({ cases });
    return fuzzFailed(result) ? { status: 'failed', result } : { status: 'passed', ...(result === undefined ? {} : { result }) };
  } catch (e) {
    return { status: 'failed', error: e instanceof Error ? e.message : String(e) };
  }
}
