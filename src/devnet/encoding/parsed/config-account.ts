/**
 * Config program accounts as Agave's parse_config.rs writes them (program "config"): the stake
 * config (`stakeConfig`) and validator info (`validatorInfo`, its JSON string parsed). Anything
 * else the Config program holds is not parsed, as by Agave.
 */
import { BytesReader } from './bytes-reader.js';

const STAKE_CONFIG = 'StakeConfig11111111111111111111111111111111';
const VALIDATOR_INFO = 'Va1idator1nfo111111111111111111111111111111';

/** solana's short_vec length (compact-u16). */
function shortVecLen(r: BytesReader): number {
  let len = 0;
  for (let shift = 0; shift < 21; shift += 7) {
    const b = r.u8();
    len |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) return len;
  }
  throw new RangeError('bad short_vec length');
}

function configKeys(r: BytesReader): { pubkey: string; signer: boolean }[] {
  const n = shortVecLen(r);
  const keys: { pubkey: string; signer: boolean }[] = [];
  for (let i = 0; i < n; i++) keys.push({ pubkey: r.pubkey(), signer: r.bool() });
  return keys;
}

export function parseConfigAccount(address: string, data: Uint8Array): Record<string, unknown> | null {
  const r = new BytesReader(data);
  const keys = configKeys(r);
  if (address === STAKE_CONFIG) {
    const warmupCooldownRate = r.f64(), slashPenalty = r.u8();
    return { type: 'stakeConfig', info: { warmupCooldownRate, slashPenalty } };
  }
  if (keys[0]?.pubkey === VALIDATOR_INFO) {
    const text = r.string();
    return { type: 'validatorInfo', info: { keys, configData: JSON.parse(text) as unknown } };
  }
  return null;
}
