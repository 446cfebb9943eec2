import type { OperationSpecs } from '../../common/operations';
import { accountLimitsInput, setAccountLimitsInput, usageInput } from './usage.inputs';

/** The zod schema each operation's input is parsed with, by root field. */
export const usageOperations: OperationSpecs = {
  'Query.usage': { input: usageInput },
  'Query.accountLimits': { input: accountLimitsInput },
  'Mutation.setAccountLimits': { input: setAccountLimitsInput },
};
