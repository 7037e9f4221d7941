/**
 * How the lean HTTP pool reports a failed request: a kind the transport maps onto its typed errors
 * (transport/response.ts `failureError`), never seen by a caller as it is.
 */

/** What went wrong, for the transport to map onto its typed errors. */
export type HttpFailureKind = 'network' | 'truncated' | 'too-large' | 'timeout' | 'abort';

export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    /** For `too-large`: the bytes seen (or declared) when the cap was hit. */
    readonly got = 0,
    options?: { cause?: unknown; notSent?: boolean },
  ) {
    super(message, options);
    this.name = 'HttpFailure';
    this.notSent = options?.notSent === true;
  }
  /** A connection that failed before it was established: no byte of the request went out. */
  readonly notSent: boolean;
}
