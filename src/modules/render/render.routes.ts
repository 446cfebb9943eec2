import type { RestRoute } from '../../http/rest/route';
import { cancelRunInput, renderVideoExample, renderVideoInput, runsInput } from './render.inputs';

export const renderRoutes: RestRoute[] = [
  { operation: 'Mutation.renderVideo', method: 'POST', path: '/video/render', tags: ['video'], input: renderVideoInput, example: renderVideoExample(), errors: ['RATE_LIMITED'] },
  { operation: 'Query.compositions', method: 'GET', path: '/video/compositions', tags: ['video'] },
  { operation: 'Query.runs', method: 'GET', path: '/tasks/runs', tags: ['tasks'], input: runsInput },
  { operation: 'Mutation.cancelRun', method: 'POST', path: '/tasks/runs/:runId/cancel', tags: ['tasks'], input: cancelRunInput, errors: ['CONFLICT'] },
];
