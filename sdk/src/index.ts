export { MasClient } from './mas.client.js';
export type { MasClientOptions, RenderRun, RenderRequest } from './mas.client.js';
export { MasError, statusOfCode } from './mas.error.js';
export type { MasErrorCode, MasFieldProblem } from './mas.error.js';
export * from './generated.js';
