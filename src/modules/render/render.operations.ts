import type { OperationSpecs } from '../../common/operations';
import { cancelRunInput, renderVideoExample, renderVideoInput, runsInput } from './render.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with this one, once), by root field. */
export const renderOperations: OperationSpecs = {
  'Mutation.renderVideo': { input: renderVideoInput, example: renderVideoExample() },
  'Query.runs': { input: runsInput },
  'Mutation.cancelRun': { input: cancelRunInput },
};
