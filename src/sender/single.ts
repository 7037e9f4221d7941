/**
 * The single-process sender: the core (core.ts) on the file journal, or on none. Its `send` reads
 * the journal whole to find an id it already knows — intent ids are idempotency keys: sending an id
 * the journal already knows joins or returns that intent instead of starting another, with the same
 * content; other content under a known id (instructions, payer, amounts, signed bytes) is refused,
 * `SENDER_ID_CONFLICT` (intent/key.ts). `sendBundle` offers a bundle the same way, as one intent.
 * `resume` and `retry` (intent/resume.ts) work on the same journal, which one process holds at a
 * time (its lock).
 */
import { InputError } from '../errors/index.js';
import type { ResolvedSenderOptions } from './config.js';
import { bundleOutcomeOf } from './bundle.js';
import { createCore, signersOf, type Sender, type SenderConfig, type SendRequest, type SenderStore } from './core.js';
import { bundleRecord, type PreparedBundle } from './input/bundle.js';
import { prepareInput, type Prepared } from './input/prepare.js';
import { createFileIntentJournal, type FileIntentJournal } from './intent/journal.js';
import { assertSameContent, intentKey, type IntentKey } from './intent/key.js';
import { resumeAll, resumeIntent, retryIntent } from './intent/resume.js';
import { createSignatureOwners } from './intent/signature-owners.js';
import { isTerminal } from './journal/file/journal.js';
import { planToJournal } from './journal/plan.js';
import type { JournalPlan } from './journal/records.js';
import { outcomeFromJournal, type SendOutcome } from './outcome.js';

/** The file journal (or none) as a single-process sender's store: signatures are owned in memory. */
function fileStore(cfg: ResolvedSenderOptions): SenderStore<FileIntentJournal> {
  const owners = createSignatureOwners();
  const journal = createFileIntentJournal(cfg, owners);
  return { journal, owners, close: () => journal.close() };
}

export function createSingleSender(config: SenderConfig, cfg: ResolvedSenderOptions): Sender {
  const core = createCore(config, cfg, fileStore);
  const { inflight, drive, resumeDeps, store } = core;
  const { journal, owners } = store;

  /** The content of each intent this sender started and has not ended, by id (for a second caller of the id). */
  const running = new Map<string, IntentKey>();

  /**
   * Intent `id` with content `key`: joined while this sender drives it, answered from the journal
   * once it ended there, resumed when the journal holds it unfinished, else started. `claim` runs
   * just before a start (a wire send's signature ownership).
   */
  const offer = async (
    id: string,
    key: IntentKey,
    created: { plan?: JournalPlan; plans?: JournalPlan[] },
    prepared: Prepared | PreparedBundle,
    r: SendRequest,
    claim?: () => void,
  ): Promise<SendOutcome> => {
    const { signal: callerSignal, commitment, onExpired } = r;
    assertSameContent(id, running.get(id), key, 'being sent by this sender');
    const joined = inflight.get(id);
    if (joined) return joined;
    const jp = journal.open();
    if (jp) {
      const view = (await jp).intents().get(id);
      if (view) {
        assertSameContent(id, view.key, key, 'in the journal');
        if (isTerminal(view.state)) {
          const out = outcomeFromJournal(view);
          if (out instanceof Error) throw out;
          return out;
        }
        return resumeIntent(resumeDeps, view, new Map(), { ...(callerSignal ? { signal: callerSignal } : {}), commitment, onExpired });
      }
    }
    // Checked again: another call may have started the id while the journal opened.
    assertSameContent(id, running.get(id), key, 'being sent by this sender');
    const again = inflight.get(id);
    if (again) return again;
    claim?.();
    running.set(id, key);
    return inflight
      .start(
        id,
        async (signal) => {
          await journal.journaled({ op: 'created', id, at: Date.now(), ...(cfg.journal ? { ...created, key } : {}) }, { state: 'none', what: 'not started' });
          return drive(id, prepared, { signal, commitment, onExpired });
        },
        callerSignal,
      )
      .finally(() => {
        if (running.get(id) === key) running.delete(id);
      });
  };

  const send: Sender['send'] = async (input, options = {}) => {
    core.assertOpen();
    const r = core.request(options);
    const id = r.id;
    // Read first: the content an id is offered with is checked against the content it stands for.
    const prepared = prepareInput(input, cfg);
    const plan = prepared.kind === 'plan' ? planToJournal(prepared) : undefined;
    const key = intentKey(plan ?? { signature: (prepared as Extract<Prepared, { kind: 'wire' }>).signature });
    return offer(id, key, plan ? { plan } : {}, prepared, r, () => {
      if (prepared.kind !== 'wire') return;
      // Signed bytes cannot be made distinct: the same bytes under another id would be reported as a
      // second payment while only one can land.
      const owner = owners.ownerOf(prepared.signature);
      if (owner !== undefined && owner !== id) {
        throw new InputError('input.wire', `these signed bytes (signature ${prepared.signature}) are already intent ${JSON.stringify(owner)}; the same bytes are one payment: send them under that id`, {
          got: prepared.signature,
        });
      }
      owners.claim(id, prepared.signature, prepared.lastValidBlockHeight ?? Number.MAX_SAFE_INTEGER);
    });
  };

  /** A bundle is one intent: offered, joined, answered from the journal and resumed as `send`'s are. */
  const sendBundle: Sender['sendBundle'] = async (inputs, options = {}) => {
    core.assertOpen();
    const r = core.request(options);
    const bundle = core.prepareBundle(inputs);
    const { plans, key } = bundleRecord(bundle);
    return bundleOutcomeOf(await offer(r.id, key, { plans }, bundle, r));
  };

  return {
    send,
    sendMany: core.sendManyOf(send),
    sendBundle,
    resume: async (o) => {
      core.assertOpen();
      const { signers, ...rest } = o ?? {};
      return resumeAll(resumeDeps, signers ? { ...rest, signers: signersOf(signers, 'signers')! } : rest);
    },
    retry: async (id, o) => {
      core.assertOpen();
      const { signers, ...rest } = o ?? {};
      return retryIntent(resumeDeps, id, signers ? { ...rest, signers: signersOf(signers, 'options.signers')! } : rest);
    },
    on: core.on,
    get stats() {
      return core.stats();
    },
    config: cfg,
    close: () => core.close(),
  };
}
