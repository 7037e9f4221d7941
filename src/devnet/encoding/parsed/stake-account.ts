/** Stake accounts as Agave's parse_stake.rs writes them (program "stake"). */
import { BytesReader } from './bytes-reader.js';

function meta(r: BytesReader): Record<string, unknown> {
  const rentExemptReserve = r.u64();
  const staker = r.pubkey(), withdrawer = r.pubkey();
  const unixTimestamp = r.i64(), epoch = r.u64(), custodian = r.pubkey();
  return {
    rentExemptReserve: rentExemptReserve.toString(),
    authorized: { staker, withdrawer },
    lockup: { unixTimestamp: Number(unixTimestamp), epoch: Number(epoch), custodian },
  };
}

export function parseStakeAccount(data: Uint8Array): Record<string, unknown> | null {
  const r = new BytesReader(data);
  switch (r.u32()) {
    case 0:
      return { type: 'uninitialized' };
    case 1:
      return { type: 'initialized', info: { meta: meta(r) } };
    case 2: {
      const m = meta(r);
      const voter = r.pubkey(), stake = r.u64(), activationEpoch = r.u64(), deactivationEpoch = r.u64(), warmupCooldownRate = r.f64();
      const creditsObserved = r.u64();
      return {
        type: 'delegated',
        info: {
          meta: m,
          stake: {
            delegation: {
              voter,
              stake: stake.toString(),
              activationEpoch: activationEpoch.toString(),
              deactivationEpoch: deactivationEpoch.toString(),
              warmupCooldownRate,
            },
            creditsObserved: Number(creditsObserved),
          },
        },
      };
    }
    case 3:
      return { type: 'rewardsPool' };
    default:
      return null;
  }
}
