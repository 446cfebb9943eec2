import { HeaderMap, type ApolloServerPlugin, type GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { AppDeps } from '../deps';
import { AppError, findAppError } from '../common/errors';
import { Budget, Charge, decisive, RateDecision, RateLimitExceeded, rateLimitedError, rateLimitHeaders, rateSubject, Refund } from '../auth/rate-limit';
import type { Viewer } from '../auth/viewer';
import { toHttpError } from '../common/error-status';
import type { Context } from '../request/context';
import { answerCost, operationCost, OperationCost, ProviderFields, settledCost } from './cost';

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

/** What an operation was charged up front, to settle once it has run (`settleOperation`). */
export interface OperationCharge {
  /** Points of the general budget charged up front: the estimate's upper bound. */
  requested: number;
  /** Points of the research budget charged up front: the provider calls its PROVIDER_CALL fields may make. */
  providerCalls: number;
  /** The general budget's decision (with the window the points came from). */
  api?: RateDecision;
  /** The research budget's decision, when provider calls were charged. */
  research?: RateDecision;
  /** The decision a client should see (the tightest), for the RateLimit-* headers. */
  decision?: RateDecision;
}

/**
 * Weighs an operation (src/graphql/cost.ts) and charges its upper bound: its cost to the caller's
 * general budget, its provider calls to the research budget. Past GRAPHQL_MAX_COST it charges 1
 * point and throws a 400 (RATE_LIMITED if that point was past the budget); past a budget it throws
 * RATE_LIMITED. Answers the charge, which `settleOperation` settles once the operation has run.
 */
export async function chargeOperation(
  deps: AppDeps,
  caller: Caller,
  op: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variables?: Record<string, unknown> },
  providerFields: ProviderFields,
  onLimited?: OnRateLimited,
  weighed: OperationCost = operationCost(op.schema, op.document, op.operationName, op.variables, providerFields),
): Promise<OperationCharge> {
  const { cost, providerCalls } = weighed;
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
  const decisions = await deps.rateLimiter.consume(charges);
  const decision = decisive(decisions);
  if (decision && !decision.allowed) {
    onLimited?.(decision.budget);
    throw rateLimitedError(decision);
  }
  return {
    requested: cost,
    providerCalls,
    api: decisions.find((d) => d.budget === 'api'),
    research: decisions.find((d) => d.budget === 'research'),
    decision,
  };
}

/** An operation's charge once it has run: what it took in the end, and the budgets after the refund. */
export interface Settlement {
  /** Points of the general budget the operation took in the end (at most `requested`). */
  actual: number;
  /** The general budget after the refund. */
  api?: RateDecision;
  /** The decision a client should see after the refund, for the RateLimit-* headers. */
  decision?: RateDecision;
}

/**
 * Settles an operation's charge on what it actually read: gives back to each budget what the
 * upper bound charged and the answer did not use (`answerCost` for the general budget, capped at
 * the charge; for the research budget, the up-front provider calls it did not make), in the window
 * the points came from. A refund is never more than the charge, and is made once per operation.
 */
export async function settleOperation(deps: AppDeps, caller: Caller, charge: OperationCharge, actualCost: number, providerCallsMade: number): Promise<Settlement> {
  const subject = rateSubject(caller.viewer, caller.clientIp);
  const actual = settledCost(charge.requested, actualCost);
  const refunds: Refund[] = [];
  if (actual < charge.requested && charge.api?.window) refunds.push({ budget: 'api', subject, points: charge.requested - actual, window: charge.api.window });
  const callsUsed = settledCost(charge.providerCalls, providerCallsMade);
  if (callsUsed < charge.providerCalls && charge.research?.window) {
    refunds.push({ budget: 'research', subject, points: charge.providerCalls - callsUsed, window: charge.research.window });
  }
  let after: RateDecision[] = [];
  try {
    if (refunds.length) after = await deps.rateLimiter.refund(refunds);
  } catch (err) {
    // The answer is ready: a refund that cannot be made (the database unreachable) leaves the whole charge taken.
    deps.logger.warn({ err }, 'could not give back the unused part of an operation charge');
    return { actual: charge.requested, api: charge.api, decision: charge.decision };
  }
  const api = after.find((d) => d.budget === 'api') ?? charge.api;
  const research = after.find((d) => d.budget === 'research') ?? charge.research;
  return { actual, api, decision: decisive([api, research].filter((d): d is RateDecision => d !== undefined)) };
}

/** What an operation answered, to weigh it by: absent when it did not run (its whole charge is kept). */
export interface Answered {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  data: unknown;
}

/**
 * Settles an operation's charge on its answer, the one way for every transport (HTTP here, graphql-ws
 * and SSE in src/graphql/live.ts): weighed by the same model as its estimate (`answerCost`) with the
 * provider calls it made, or, when it did not run (no data, an answer replaced for its size), at its
 * whole charge. Answers the settlement and the answer's `extensions.cost`.
 */
export async function settleAnswer(
  deps: AppDeps,
  caller: Caller,
  charge: OperationCharge,
  answered: Answered | undefined,
  providerFields: ProviderFields,
  providerCallsMade: number,
): Promise<{ settled: Settlement; extension: CostExtension }> {
  const actual = answered ? answerCost(answered.schema, answered.document, answered.operationName, answered.data, providerFields, providerCallsMade) : charge.requested;
  const settled = await settleOperation(deps, caller, charge, actual, answered ? providerCallsMade : charge.providerCalls);
  return { settled, extension: costExtension(charge.requested, settled.actual, settled.api) };
}

/**
 * `extensions.cost` of a GraphQL answer: the weight asked for up front (null for a document that
 * could not be weighed: it did not parse or validate), the points the request took from the general
 * budget in the end, and that budget as it stands (Shopify's names; the budget is a window that
 * starts afresh `resetAfter` seconds on, not a bucket refilling at a rate).
 */
export interface CostExtension {
  requestedQueryCost: number | null;
  actualQueryCost: number;
  dryRun?: true;
  /** GRAPHQL_MAX_COST, in a dry run's answer: a costlier operation would be refused. */
  maximumQueryCost?: number;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; resetAfter: number };
}

export function costExtension(requested: number | null, actual: number, budget: RateDecision | undefined, extra: Pick<CostExtension, 'dryRun' | 'maximumQueryCost'> = {}): CostExtension {
  return {
    requestedQueryCost: requested,
    actualQueryCost: actual,
    ...extra,
    ...(budget ? { throttleStatus: { maximumAvailable: budget.limit, currentlyAvailable: budget.remaining, resetAfter: budget.resetS } } : {}),
  };
}

/** Whether a request asks only for its operation's weight (`extensions: {cost: {dryRun: true}}`). */
export function isDryRun(extensions: Record<string, unknown> | undefined): boolean {
  const cost = extensions?.cost;
  return typeof cost === 'object' && cost !== null && (cost as Record<string, unknown>).dryRun === true;
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

/**
 * Apollo: weighs every operation once it is parsed and validated and charges its upper bound
 * before it runs; once it has run, settles the charge on its answer (`answerCost`) and gives the
 * difference back. Every answer carries `extensions.cost` (`CostExtension`). A request with
 * `extensions: {cost: {dryRun: true}}` is weighed and answered without running (1 point).
 */
export function rateLimitPlugin(deps: AppDeps, providerFields: ProviderFields, onLimited?: OnRateLimited): ApolloServerPlugin<Context> {
  const setHeaders = (headers: { set(name: string, value: string): unknown }, decision: RateDecision | undefined) => {
    if (decision) for (const [name, value] of Object.entries(rateLimitHeaders(decision))) headers.set(name, value);
  };
  return {
    async requestDidStart({ contextValue, response }) {
      // Charged once per request: by didResolveOperation, or else (a document that fails to parse or
      // validate, an APQ refusal) 1 point when the errors are answered.
      let charged = false;
      let executed = false;
      let charge: OperationCharge | undefined;
      // What extensions.cost says when the operation did not run (a refusal, a dry run).
      let cost: CostExtension | undefined;
      // The charge, once the operation is resolved. Apollo runs every plugin's didResolveOperation at once
      // and answers on the first refusal (credentialsRequired's, say) without waiting for the others, so
      // willSendResponse waits for this before it settles or reports the charge.
      const resolveCharge = async ({ contextValue, document, request, response, schema }: GraphQLRequestContextDidResolveOperation<Context>): Promise<void> => {
        const headers = response.http.headers;
        const op = { schema, document, operationName: request.operationName, variables: request.variables };
        const weighed = operationCost(schema, document, request.operationName, request.variables, providerFields);
        if (isDryRun(request.extensions)) {
          // Weighed, never run: 1 point, whatever it weighs (so asking is never an amplification).
          const decision = await chargeRefusedOperation(deps, contextValue, onLimited);
          setHeaders(headers, decision);
          cost = costExtension(weighed.cost, 1, decision, { dryRun: true, maximumQueryCost: deps.config.requestLimits.graphqlMaxCost });
          if (decision && !decision.allowed) throw requestError(rateLimitedError(decision), headers);
          return;
        }
        try {
          charge = await chargeOperation(deps, contextValue, op, providerFields, onLimited, weighed);
          setHeaders(headers, charge.decision);
        } catch (error) {
          const appError = findAppError(error);
          if (!appError) throw error;
          // Refused past GRAPHQL_MAX_COST: 1 point. Refused past a budget: the points asked for count
          // against the window, as every refused charge does.
          const taken = weighed.cost > deps.config.requestLimits.graphqlMaxCost ? 1 : weighed.cost;
          const budget = appError instanceof RateLimitExceeded && appError.decision.budget === 'api' ? appError.decision : undefined;
          cost = costExtension(weighed.cost, taken, budget);
          throw requestError(appError, headers);
        }
      };
      let resolving: Promise<void> | undefined;
      return {
        async didEncounterErrors() {
          // Apollo awaits this hook, unlike parsingDidEnd.
          if (charged) return;
          charged = true;
          const decision = await chargeRefusedOperation(deps, contextValue, onLimited);
          setHeaders(response.http.headers, decision);
          cost = costExtension(null, 1, decision?.budget === 'api' ? decision : undefined);
        },
        didResolveOperation(requestContext) {
          charged = true;
          resolving = resolveCharge(requestContext);
          return resolving;
        },
        async responseForOperation() {
          // A dry run's answer: its weight (willSendResponse adds it), no data, nothing run.
          if (!cost?.dryRun) return null;
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: {} } };
        },
        async executionDidStart() {
          executed = true;
        },
        async willSendResponse({ response, document, request, schema }) {
          // A refusal from another plugin may have answered while the charge was still being made.
          await resolving?.catch(() => undefined);
          let extension = cost;
          if (charge) {
            const body = response.body.kind === 'single' ? response.body.singleResult : undefined;
            // An answer without data (variables that did not coerce, an answer past GRAPHQL_MAX_RESPONSE_BYTES) keeps its whole charge.
            const ran = executed && body?.data != null && document;
            const answered = ran ? { schema, document, operationName: request.operationName, data: body.data } : undefined;
            const { settled, extension: answeredCost } = await settleAnswer(deps, contextValue, charge, answered, providerFields, contextValue.providerCalls.made);
            setHeaders(response.http.headers, settled.decision);
            extension = answeredCost;
            charge = undefined;
          }
          if (!extension) return;
          if (response.body.kind === 'single') {
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, cost: extension };
          } else {
            response.body.initialResult.extensions = { ...response.body.initialResult.extensions, cost: extension };
          }
        },
      };
    },
  };
}

/** A refusal before the operation runs, as Apollo answers it: extensions.http (status, and headers as a Map); formatError keeps the code. */
function requestError(appError: AppError, headers: { set(name: string, value: string): unknown }): GraphQLError {
  const http = toHttpError(appError);
  if (appError instanceof RateLimitExceeded) {
    for (const [name, value] of Object.entries(rateLimitHeaders(appError.decision))) headers.set(name, value);
  }
  const extensions: Record<string, unknown> = { code: appError.code, http: { status: http.status, headers: new Map(Object.entries(http.headers)) } };
  return new GraphQLError(appError.message, { originalError: appError, extensions });
}
