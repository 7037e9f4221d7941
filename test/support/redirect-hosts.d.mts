/** Types of redirect-hosts.mjs (plain JavaScript so a packed consumer can preload it). */
export interface HostRedirect {
  /** Every connection refused (`host:port`, or `dns:host`), in order. */
  readonly refused: readonly string[];
  /** Every connection sent to the target instead (`https://host:port`), in order. */
  readonly redirected: readonly string[];
  /** Put `net.connect`, `tls.connect` and `dns.lookup` back and close the TLS terminator. */
  restore(): Promise<void>;
}

export function redirectHosts(options: { target: string; hosts: readonly string[] }): Promise<HostRedirect>;
