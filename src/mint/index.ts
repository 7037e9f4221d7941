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
