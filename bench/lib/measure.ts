/**
 * Shared timing for the micro-benchmarks (keccak, poseidon, pda). CPU time of this process, not wall
 * time, because this 2-core machine is shared: the time other processes hold the CPU does not count
 * against the code under test.
 */

/** CPU time of this process in ms (user + system). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Median µs per op over `rounds` rounds, in CPU time (wall time alongside); `fn(n)` performs n ops.
 * Calibrated so a round lasts about `roundMs` of CPU.
 */
export function measure(fn: (n: number) => void, rounds: number, roundMs: number): { cpu: number; wall: number } {
  fn(4); // warm up / JIT
  let n = 1;
  for (;;) {
    const t = cpuMs();
    fn(n);
    const dt = cpuMs() - t;
    if (dt > 10) {
      n = Math.max(1, Math.round((n * roundMs) / dt));
      break;
    }
    n *= 4;
  }
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const w = performance.now();
    const t = cpuMs();
    fn(n);
    cpu.push(((cpuMs() - t) * 1000) / n);
    wall.push(((performance.now() - w) * 1000) / n);
  }
  const med = (a: number[]): number => a.sort((x, y) => x - y)[a.length >> 1]!;
  return { cpu: med(cpu), wall: med(wall) };
}
