/**
 * `cairn` itself: the list of commands with a line on what each does, `cairn --help`,
 * `cairn help <cmd>`, `--version`, and "unknown command, did you mean" (exit 2). Each command lives
 * in its own module, loaded only when run, exporting `run(argv, io?) => Promise<exitCode>`.
 */
import { cairnVersion, type CliStreams } from './args.js';
import { didYouMean } from './usage.js';
import { InputError } from '../errors/index.js';

type Run = (argv: string[]) => Promise<number>;

/** Every command, its one-line summary, and how to load it. */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run: Run }> }> = {
  verify: { summary: 'verify, offline, every Merkle/ZK proof in a file the service returned', load: () => import('./verify.js') },
  send: { summary: 'send a transfer (or a batch from --file) through /fast until confirmed', load: () => import('./send.js') },
  mint: { summary: 'mint a compressed NFT (or many from --file) and verify it offline', load: () => import('./mint.js') },
  devnet: { summary: 'run the embedded LiteSVM devnet (JSON-RPC, /fast, DAS, compression) in the foreground', load: () => import('./devnet.js') },
  journal: { summary: "show or compact a sender's journal", load: () => import('./journal.js') },
  demo: { summary: 'the whole toolkit once, end to end, against a devnet it starts (npm start)', load: () => import('./demo.js') },
  bench: { summary: 'measure this machine and an endpoint: verify, sign, rpc, landing (tables, --json, --report)', load: () => import('./bench.js') },
  proxy: { summary: 'a JSON-RPC proxy that verifies and anchors every proof-bearing answer before passing it on', load: () => import('./proxy.js') },
};

function mainHelp(): string {
  const names = Object.keys(COMMANDS);
  const w = Math.max(...names.map((n) => n.length)) + 2;
  return [
    'usage: cairn <command> [options]',
    '',
    'commands:',
    ...names.map((n) => `  ${n.padEnd(w)}${COMMANDS[n]!.summary}`),
    '',
    'cairn help <command> or cairn <command> --help for its options; cairn --version for the version.',
    'exit codes: 0 ok, 1 failed or invalid, 2 usage or unusable input (each command says more).',
    '',
  ].join('\n');
}

function unknownCommand(name: string, io: CliStreams): number {
  const guess = didYouMean(name, Object.keys(COMMANDS));
  const err = new InputError('command', `unknown command '${name}'${guess ? `, did you mean '${guess}'?` : `; commands: ${Object.keys(COMMANDS).join(', ')}`}`);
  io.stderr.write(`cairn: [${err.code}] ${err.message.replace(/^"command": /, '')}\n(see: cairn --help)\n`);
  return 2;
}

/**
 * Run `cairn <argv…>`; resolves to the exit code.
 *
 * @example
 * process.exitCode = await dispatch(process.argv.slice(2));
 */
export async function dispatch(argv: string[], io: CliStreams = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout.write(mainHelp());
    return 0;
  }
  // -v too: most CLIs take it for the version, and cairn has no verbose flag it could mean
  if (name === '--version' || name === '-V' || name === '-v' || name === 'version') {
    io.stdout.write(`cairn ${cairnVersion()}\n`);
    return 0;
  }
  if (name === 'help') {
    const topic = rest[0];
    if (topic === undefined) {
      io.stdout.write(mainHelp());
      return 0;
    }
    if (!(topic in COMMANDS)) return unknownCommand(topic, io);
    return (await COMMANDS[topic]!.load()).run(['--help']);
  }
  if (name.startsWith('-')) {
    io.stderr.write(`cairn: [INPUT_INVALID] unknown option ${JSON.stringify(name)} before a command\n(see: cairn --help)\n`);
    return 2;
  }
  if (!(name in COMMANDS)) return unknownCommand(name, io);
  return (await COMMANDS[name]!.load()).run(rest);
}
