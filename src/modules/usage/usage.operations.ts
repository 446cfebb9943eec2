import type { OperationSpecs } from '../../common/operations';
import { usageInput } from './usage.inputs';

/** The zod schema each operation's input is parsed with, by root field. */
export const usageOperations: OperationSpecs = {
  'Query.usage': { input: usageInput },
};
