/**
 * What a landing run can spend, and the cap that stops it. The run fixes every price before it starts
 * (the tip, the compute-unit price and limit), so the most one transfer can cost is known exactly:
 * the signature fee, the priority fee, the tip, and the amount when it goes to someone else. The run
 * refuses to start unless the cap covers every transfer at that price, and while it runs it stops
 * starting transfers the moment one more could pass the cap — measured both by what it started and
 * by the payer's balance (another process spending from the same key counts too).
 */
import { InputError } from '../errors/index.js';

export const LAMPORTS_PER_SOL = 1_000_000_000n;
/** Lamports per signature: the base fee of a transaction (one signer: the payer). */
export const SIGNATURE_FEE = 5_000n;

export interface TransferPrice {
  tip: bigint;
  cuPrice: bigint;
  cuLimit: number;
  /** The amount, when it leaves the payer (0 for a transfer to itself). */
  amountOut: bigint;
}

/** The most one transfer can cost, in lamports. */
export function transferCost(p: TransferPrice): bigint {
  const priority = (p.cuPrice * BigInt(p.cuLimit) + 999_999n) / 1_000_000n;
  return SIGNATURE_FEE + priority + p.tip + p.amountOut;
}

/** "0.012345 SOL" for lamports. */
export function formatSol(lamports: bigint): string {
  const whole = lamports / LAMPORTS_PER_SOL;
  const frac = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''} SOL`;
}

/** `--max-spend` in SOL ("0.05", "1") as lamports; named in the error when it is not a positive amount. */
export function parseSol(text: string, field: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!m) throw new InputError(field, `expected an amount of SOL such as 0.05, got ${JSON.stringify(text)}`);
  const lamports = BigInt(m[1]!) * LAMPORTS_PER_SOL + BigInt((m[2] ?? '').padEnd(9, '0'));
  if (lamports === 0n) throw new InputError(field, 'expected more than 0 SOL');
  return lamports;
}

/**
 * Refuse a run the cap does not cover (before any request). `required`: a URL that is not the
 * embedded devnet needs a cap at all.
 */
export function checkCap(transfers: number, price: TransferPrice, cap: bigint | undefined, required: boolean): { perTransfer: bigint; atMost: bigint } {
  const perTransfer = transferCost(price);
  const atMost = perTransfer * BigInt(transfers);
  if (cap === undefined) {
    if (required) {
      throw new InputError('--max-spend', `this run can spend up to ${formatSol(atMost)} (${transfers} × ${formatSol(perTransfer)}: fee, priority fee and tip${price.amountOut ? ' and the amount' : ''}); pass --max-spend SOL covering it to run against a real endpoint`);
    }
    return { perTransfer, atMost };
  }
  if (cap < atMost) {
    throw new InputError('--max-spend', `${formatSol(cap)} does not cover this run: up to ${formatSol(atMost)} (${transfers} × ${formatSol(perTransfer)}); raise it or lower --transfers`);
  }
  return { perTransfer, atMost };
}

/** The running account: what was started, what the balance says, and whether one more may start. */
export class SpendGuard {
  #started = 0n;
  #observed = 0n;
  constructor(
    readonly cap: bigint | undefined,
    readonly perTransfer: bigint,
  ) {}

  /** Lamports the payer's balance fell by since the start (what the chain says was spent). */
  observe(spent: bigint): void {
    if (spent > this.#observed) this.#observed = spent;
  }

  /** Count a transfer as started, or answer false when it could pass the cap. */
  tryStart(inFlight: number): boolean {
    if (this.cap === undefined) {
      this.#started += this.perTransfer;
      return true;
    }
    const byBalance = this.#observed + BigInt(inFlight) * this.perTransfer;
    const committed = this.#started > byBalance ? this.#started : byBalance;
    if (committed + this.perTransfer > this.cap) return false;
    this.#started += this.perTransfer;
    return true;
  }

  get observed(): bigint {
    return this.#observed;
  }
}
