/**
 * Sysvar accounts as Agave's parse_sysvar.rs writes them (program "sysvar"), chosen by address.
 * The instructions sysvar (only visible inside a transaction) is not parsed, as by Agave.
 */
import { BytesReader, u64Json } from './bytes-reader.js';

const fee = (l: bigint) => ({ lamportsPerSignature: l.toString() });

const SYSVARS: Record<string, (r: BytesReader) => Record<string, unknown>> = {
  SysvarC1ock11111111111111111111111111111111: (r) => {
    const slot = r.u64(), epochStartTimestamp = r.i64(), epoch = r.u64(), leaderScheduleEpoch = r.u64(), unixTimestamp = r.i64();
    return { type: 'clock', info: { slot: u64Json(slot), epoch: u64Json(epoch), epochStartTimestamp: Number(epochStartTimestamp), leaderScheduleEpoch: u64Json(leaderScheduleEpoch), unixTimestamp: Number(unixTimestamp) } };
  },
  SysvarEpochSchedu1e111111111111111111111111: (r) => {
    const slotsPerEpoch = r.u64(), leaderScheduleSlotOffset = r.u64(), warmup = r.bool(), firstNormalEpoch = r.u64(), firstNormalSlot = r.u64();
    return { type: 'epochSchedule', info: { slotsPerEpoch: u64Json(slotsPerEpoch), leaderScheduleSlotOffset: u64Json(leaderScheduleSlotOffset), warmup, firstNormalEpoch: u64Json(firstNormalEpoch), firstNormalSlot: u64Json(firstNormalSlot) } };
  },
  SysvarFees111111111111111111111111111111111: (r) => ({ type: 'fees', info: { feeCalculator: fee(r.u64()) } }),
  SysvarRecentB1ockHashes11111111111111111111: (r) => {
    const info: unknown[] = [];
    for (let i = 0, n = Number(r.u64()); i < n; i++) info.push({ blockhash: r.pubkey(), feeCalculator: fee(r.u64()) });
    return { type: 'recentBlockhashes', info };
  },
  SysvarRent111111111111111111111111111111111: (r) => {
    const lamportsPerByteYear = r.u64(), exemptionThreshold = r.f64(), burnPercent = r.u8();
    return { type: 'rent', info: { lamportsPerByteYear: lamportsPerByteYear.toString(), exemptionThreshold, burnPercent } };
  },
  SysvarRewards111111111111111111111111111111: (r) => ({ type: 'rewards', info: { validatorPointValue: r.f64() } }),
  SysvarS1otHashes111111111111111111111111111: (r) => {
    const info: unknown[] = [];
    for (let i = 0, n = Number(r.u64()); i < n; i++) info.push({ slot: u64Json(r.u64()), hash: r.pubkey() });
    return { type: 'slotHashes', info };
  },
  SysvarS1otHistory11111111111111111111111111: (r) => {
    const words: bigint[] = [];
    if (r.u8() === 1) for (let i = 0, n = Number(r.u64()); i < n; i++) words.push(r.u64());
    const len = Number(r.u64());
    const nextSlot = r.u64();
    let bits = '';
    for (let i = 0; i < len; i++) bits += (words[i >> 6]! >> BigInt(i & 63)) & 1n ? '1' : '0';
    return { type: 'slotHistory', info: { nextSlot: u64Json(nextSlot), bits } };
  },
  SysvarStakeHistory1111111111111111111111111: (r) => {
    const info: unknown[] = [];
    for (let i = 0, n = Number(r.u64()); i < n; i++) {
      const epoch = r.u64(), effective = r.u64(), activating = r.u64(), deactivating = r.u64();
      info.push({
        epoch: u64Json(epoch),
        stakeHistory: { effective: u64Json(effective), activating: u64Json(activating), deactivating: u64Json(deactivating) },
      });
    }
    return { type: 'stakeHistory', info };
  },
  SysvarLastRestartS1ot1111111111111111111111: (r) => ({ type: 'lastRestartSlot', info: { lastRestartSlot: u64Json(r.u64()) } }),
  SysvarEpochRewards1111111111111111111111111: (r) => {
    const distributionStartingBlockHeight = r.u64(), numPartitions = r.u64(), parentBlockhash = r.pubkey();
    const lo = r.u64(), hi = r.u64();
    const totalRewards = r.u64(), distributedRewards = r.u64(), active = r.bool();
    return {
      type: 'epochRewards',
      info: {
        distributionStartingBlockHeight: u64Json(distributionStartingBlockHeight),
        numPartitions: u64Json(numPartitions),
        parentBlockhash,
        totalPoints: ((hi << 64n) | lo).toString(),
        totalRewards: totalRewards.toString(),
        distributedRewards: distributedRewards.toString(),
        active,
      },
    };
  },
};

export function parseSysvarAccount(address: string, data: Uint8Array): Record<string, unknown> | null {
  const parse = SYSVARS[address];
  return parse ? parse(new BytesReader(data)) : null;
}
