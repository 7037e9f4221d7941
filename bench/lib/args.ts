/** Command-line options and the median, as every tool in bench/tools/ reads and reports them. */

/** The value after `name` on the command line (`--rounds 8`), or undefined when `name` is absent. */
export function argString(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The number after `name` on the command line, or `dflt` when `name` is absent. */
export function argNumber(name: string, dflt: number): number {
  const v = argString(name);
  return v === undefined ? dflt : Number(v);
}

/** Whether the flag `name` (`--shared`) is on the command line. */
export function hasFlag(name: string): boolean {
  return process.argv.includes(name);
}

/** The median of `a` (the upper one of an even count); `a` is not changed. */
export function median(a: readonly number[]): number {
  return [...a].sort((x, y) => x - y)[a.length >> 1]!;
}
