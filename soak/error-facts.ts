/**
 * The parts of an error the soak judges by: its code, message, the codes along its cause chain, and
 * what its context says of the intent (`state`, `signature`: a journal failure after the payment
 * landed says so there).
 */
export function errorFacts(e: unknown): { code: string; message: string; causes: string[]; state?: string; signature?: string } {
  const code = (e as { code?: unknown } | null)?.code;
  const causes: string[] = [];
  // Bounded walk: a cause cycle must not hang the child.
  let c = (e as { cause?: unknown } | null)?.cause;
  for (let i = 0; c && i < 10; i++) {
    const cc = (c as { code?: unknown }).code;
    if (typeof cc === 'string') causes.push(cc);
    c = (c as { cause?: unknown }).cause;
  }
  const ctx = (e as { context?: { state?: unknown; signature?: unknown } } | null)?.context;
  return {
    code: typeof code === 'string' ? code : 'UNCODED',
    message: e instanceof Error ? e.message : String(e),
    causes,
    ...(typeof ctx?.state === 'string' ? { state: ctx.state } : {}),
    ...(typeof ctx?.signature === 'string' ? { signature: ctx.signature } : {}),
  };
}
