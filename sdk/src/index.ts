export { MasClient } from './mas.client';
export type { MasClientOptions, RenderRun, RenderRequest } from './mas.client';
export { MasError, statusOfCode } from './mas.error';
export type { MasErrorCode, MasFieldProblem } from './mas.error';
export * from './generated';
