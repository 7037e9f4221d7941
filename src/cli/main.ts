#!/usr/bin/env node
/**
 * `cairn <command>`: dispatches to one module per command. Each command module exports
 * `run(argv: string[], io?: CliIo): Promise<number>` returning the process exit code.
 */
const commands: Record<string, () => Promise<{ run: (argv: string[]) => Promise<number> }>> = {
  bench: () => import('./bench.js'),
  demo: () => import('./demo.js'),
  devnet: () => import('./devnet.js'),
  journal: () => import('./journal.js'),
  send: () => import('./send.js'),
  mint: () => import('./mint.js'),
  verify: () => import('./verify.js'),
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || !(name in commands)) {
    process.stdout.write(`usage: cairn <${Object.keys(commands).join('|')}> [options]\n`);
    return name && name !== '--help' && name !== '-h' ? 2 : 0;
  }
  const mod = await commands[name]!();
  return mod.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`cairn: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
