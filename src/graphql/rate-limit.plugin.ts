import type { ApolloServerPlugin } from '@apollo/server';
import { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { AppDeps } from '../deps';
import { AppError, findAppError } from '../common/errors';
import { Budget, Charge, decisive, RateDecision, RateLimitExceeded, rateLimitedError, rateLimitHeaders, rateSubject } from '../auth/rate-limit';
import type { Viewer } from '../auth/viewer';
import { toHttpError } from '../http/rest/error-status';
import type { Context } from './context';
import { operationCost, ProviderFields } from './cost';

/** Called once per refused operation, for the rate-limit rejection metric. */
export type OnRateLimited = (budget: Budget) => void;

export interface Caller {
  viewer: Pick<Viewer, 'accountId'> | null;
  clientIp?: string;
}

/**
 * Charges 1 point of the caller's general budget for an operation refused before it ran (it did
 * not parse or validate, cost more than GRAPHQL_MAX_COST, named no operation…): refusals are work
 * too, and a client sending them cannot go on for free. Answers the decision.
 */
export async function chargeRefusedOperation(deps: AppDeps, caller: Caller, onLimited?: OnRateLimited): Promise<RateDecision | undefined> {
  const decision = decisive(await deps.rateLimiter.consume([{ budget: 'api', subject: rateSubject(caller.viewer, caller.clientIp), points: 1 }]));
  if (decision && !decision.allowed) onLimited?.(decision.budget);
  return decision;
}

/**
 * Weighs an operation (src/graphql/cost.ts) and charges it: its cost to the caller's general budget,
 * its provider calls to the research budget. Past GRAPHQL_MAX_COST it charges 1 point and throws a
 * 400 (RATE_LIMITED if that point was past the budget); past a budget it throws RATE_LIMITED;
 * answers the decision to show in RateLimit-* headers.
 */
export async function chargeOperation(
  deps: AppDeps,
  caller: Caller,
  op: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variables?: Record<string, unknown> },
  providerFields: ProviderFields,
  onLimited?: OnRateLimited,
): Promise<RateDecision | undefined> {
  const { cost, providerCalls } = operationCost(op.schema, op.document, op.operationName, op.variables, providerFields);
  const max = deps.config.requestLimits.graphqlMaxCost;
  if (cost > max) {
    const decision = await chargeRefusedOperation(deps, caller, onLimited);
    if (decision && !decision.allowed) throw rateLimitedError(decision);
    throw new AppError('BAD_USER_INPUT', `Operation cost ${cost} exceeds the maximum of ${max}: ask for fewer items (limit) or split the operation`, {
      details: [{ field: 'query', message: `costs ${cost}, more than ${max}` }],
    });
  }
  const subject = rateSubject(caller.viewer, caller.clientIp);
  const charges: Charge[] = [{ budget: 'api', subject, points: cost }];
  if (providerCalls > 0) charges.push({ budget: 'research', subject, points: providerCalls });
  const decision = decisive(await deps.rateLimiter.consume(charges));
  if (decision && !decision.allowed) {
    onLimited?.(decision.budget);
    throw rateLimitedError(decision);
  }
  return decision;
}

/**
 * A request whose credentials failed still spends its client address's budget: past it, the
 * answer is a 429 instead of the 401. Returns the error to answer with.
 */
export async function chargeRefusedCredentials(deps: AppDeps, clientIp: string | undefined, error: unknown, onLimited?: OnRateLimited): Promise<unknown> {
  if (findAppError(error)?.code !== 'UNAUTHENTICATED') return error;
  const decision = decisive(await deps.rateLimiter.consume([{ budget: 'api', subject: rateSubject(null, clientIp), points: 1 }]));
  if (decision && !decision.allowed) {
    onLimited?.(decision.budget);
    return rateLimitedError(decision);
  }
  return error;
}

/** Apollo: weighs and charges every operation once it is parsed and validated, before it runs. */
export function rateLimitPlugin(deps: AppDeps, providerFields: ProviderFields, onLimited?: OnRateLimited): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ contextValue, response }) {
      // Charged once per request: by didResolveOperation, or else (a document that fails to parse or
      // validate, an APQ refusal) 1 point when the errors are answered.
      let charged = false;
      return {
        async didEncounterErrors() {
          // Apollo awaits this hook, unlike parsingDidEnd.
          if (charged) return;
          charged = true;
          const decision = await chargeRefusedOperation(deps, contextValue, onLimited);
          if (decision) for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.http.headers.set(name, value);
        },
        async didResolveOperation({ contextValue, document, request, response, schema }) {
          const headers = response.http.headers;
          charged = true;
          try {
            const decision = await chargeOperation(
              deps,
              contextValue,
              { schema, document, operationName: request.operationName, variables: request.variables },
              providerFields,
              onLimited,
            );
            if (decision) for (const [name, value] of Object.entries(rateLimitHeaders(decision))) headers.set(name, value);
          } catch (error) {
            const appError = findAppError(error);
            if (!appError) throw error;
            const http = toHttpError(appError);
            if (appError instanceof RateLimitExceeded) {
              for (const [name, value] of Object.entries(rateLimitHeaders(appError.decision))) headers.set(name, value);
            }
            // Apollo answers with extensions.http (status, and headers as a Map); formatError keeps the code.
            const extensions: Record<string, unknown> = { code: appError.code, http: { status: http.status, headers: new Map(Object.entries(http.headers)) } };
            throw new GraphQLError(appError.message, { originalError: appError, extensions });
          }
        },
      };
    },
  };
}
