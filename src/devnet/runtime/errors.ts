/**
 * LiteSVM's transaction errors in the JSON shape the RPC reports in `err`: its numeric codes name
 * entries of the runtime's `TransactionError` and `InstructionError` enums (these tables, in enum
 * order), its error objects carry an index or an account index.
 */

const TX_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks',
  'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount', 'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];
const IX_ERRORS = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall',
  'InsufficientFunds', 'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized',
  'UninitializedAccount', 'UnbalancedInstruction', 'ModifiedProgramId', 'ExternalAccountLamportSpend',
  'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified', 'DuplicateAccountIndex',
  'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged',
  'AccountNotExecutable', 'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync',
  'InvalidError', 'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId', 'CallDepth', 'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded',
  'InvalidSeeds', 'InvalidRealloc', 'ComputationalBudgetExceeded', 'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete', 'ProgramFailedToCompile', 'Immutable',
  'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner', 'ArithmeticOverflow', 'UnsupportedSysvar',
  'IllegalOwner', 'MaxAccountsDataAllocationsExceeded', 'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits', 'BorshIoError',
];

/** Convert LiteSVM's error object into the RPC's JSON `err` (`"AlreadyProcessed"`,
 * `{"InstructionError":[0,{"Custom":1}]}`, `{"InsufficientFundsForRent":{"account_index":1}}`). */
export function txErrorToJson(e: unknown): unknown {
  if (typeof e === 'number') return TX_ERRORS[e] ?? `Unknown(${e})`;
  const o = e as { constructor?: { name?: string }; index?: number; accountIndex?: number; err?: () => unknown };
  const name = o?.constructor?.name ?? '';
  if (name.endsWith('InstructionError') && typeof o.err === 'function') {
    const inner = o.err() as unknown;
    let ie: unknown;
    if (typeof inner === 'number') ie = IX_ERRORS[inner] ?? `Unknown(${inner})`;
    else if (inner && typeof (inner as { code?: unknown }).code === 'number') ie = { Custom: (inner as { code: number }).code };
    else if (inner && typeof (inner as { msg?: unknown }).msg === 'string') ie = { BorshIoError: (inner as { msg: string }).msg };
    else ie = String(inner);
    return { InstructionError: [o.index, ie] };
  }
  if (name.endsWith('DuplicateInstruction')) return { DuplicateInstruction: o.index };
  if (name.endsWith('InsufficientFundsForRent')) return { InsufficientFundsForRent: { account_index: o.accountIndex } };
  if (name.endsWith('ProgramExecutionTemporarilyRestricted')) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: o.accountIndex } };
  }
  return String(e);
}
