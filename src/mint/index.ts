/** The mint part's public surface: the validated, verifying `mintCompressedNft` helper. */
export {
  mintCompressedNft,
  validateMintInput,
  MINT_LIMITS,
  DEPRECATION_CODE,
  DEPRECATION_MESSAGE,
  type MintOptions,
  type MintResult,
  type MintVerification,
  type MintInput,
} from './mint-compressed-nft.js';
export { openMintJournal, type MintJournal, type MintIntentView, type MintRecord } from './mint-journal.js';
export { DEFAULT_LANDING_SLOTS, DEFAULT_MAX_ATTEMPTS, type MintOnceOptions, type MintOnceResult } from './mint-once.js';
