/**
 * Open handles: what a process still has open shortly after it closed everything, beyond what it
 * had at start. The short grace lets handles that close() already released finish closing (a
 * server's listening handle goes one turn after its close callback); what is left would keep the
 * process alive.
 */
export const HANDLE_GRACE_MS = 100;

/** Take the baseline at start; call the returned function after closing to list what is left. */
export function watchHandles(): () => Promise<string[]> {
  const baseline = process.getActiveResourcesInfo();
  return async () => {
    await new Promise((r) => setTimeout(r, HANDLE_GRACE_MS));
    const left = [...process.getActiveResourcesInfo()];
    for (const h of baseline) {
      const at = left.indexOf(h);
      if (at >= 0) left.splice(at, 1);
    }
    return left;
  };
}
