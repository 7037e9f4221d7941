/**
 * CPU time by thread for the measuring tools in bench/tools/ (Linux: /proc/self/task/<tid>/schedstat).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ns thread `tid` of this process has run; NaN where schedstat is not there (or it ended). */
export function threadCpuNs(tid: string | number): number {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

/** CPU ns of every thread of this process, by tid. */
export function threadsCpu(): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of readdirSync('/proc/self/task')) {
    const c = threadCpuNs(t);
    // NaN: the thread ended between the listing and the read
    if (!Number.isNaN(c)) m.set(t, c);
  }
  return m;
}

/** What `cpuSplit` measured, in µs per item: wall clock, the calling thread, the workers, the rest. */
export interface CpuSplit {
  wall: number;
  main: number;
  workers: number;
  rest: number;
}

/**
 * Run `work` (`items` items) and split the CPU it took by thread: the calling thread, the threads
 * `role` calls workers, and those it calls rest (V8's helper threads, mostly); threads it gives null
 * are not counted.
 */
export async function cpuSplit(work: () => Promise<unknown>, items: number, role: (tid: string) => 'workers' | 'rest' | null): Promise<CpuSplit> {
  const c0 = threadsCpu();
  const t0 = performance.now();
  await work();
  const out: CpuSplit = { wall: ((performance.now() - t0) * 1e3) / items, main: 0, workers: 0, rest: 0 };
  for (const [t, c1] of threadsCpu()) {
    const c = (c1 - (c0.get(t) ?? 0)) / 1e3 / items;
    if (t === String(process.pid)) out.main += c;
    else {
      const r = role(t);
      if (r) out[r] += c;
    }
  }
  return out;
}
