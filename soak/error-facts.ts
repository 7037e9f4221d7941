/** The parts of an error the soak judges by: its code, message and the codes along its cause chain. */
export function errorFacts(e: unknown): { code: string; message: string; causes: string[] } {
  const code = (e as { code?: unknown } | null)?.code;
  const causes: string[] = [];
  // Bounded walk: a cause cycle must not hang the child.
  let c = (e as { cause?: unknown } | null)?.cause;
  for (let i = 0; c && i < 10; i++) {
    const cc = (c as { code?: unknown }).code;
    if (typeof cc === 'string') causes.push(cc);
    c = (c as { cause?: unknown }).cause;
  }
  return { code: typeof code === 'string' ? code : 'UNCODED', message: e instanceof Error ? e.message : String(e), causes };
}
