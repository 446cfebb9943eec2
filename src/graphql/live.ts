import type { DocumentNode, ExecutionArgs, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { getOperationAST, GraphQLError, parse, validate } from 'graphql';
import type { IncomingHttpHeaders } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { AppDeps } from '../deps';
import { AppError } from '../common/errors';
import { toHttpError } from '../common/error-status';
import type { Credentials } from '../auth/authenticate';
import type { StandingViewer } from '../auth/standing';
import { createContext, headerValue } from '../request/context';
import { formatGraphQLError } from './apollo';
import { clientValidationError, websocketRules } from './introspection';
import { depthLimit } from './limits';
import { variablesError } from './input-guard';
import { Caller, chargeOperation, chargeRefusedCredentials, chargeRefusedOperation, CostExtension, OnRateLimited, OperationCharge, settleAnswer } from './rate-limit.plugin';
import { rateLimitedError } from '../auth/rate-limit';
import { boundedAnswer } from './executor';
import { operationRequestErrors } from './request-errors';
import { noProviderFields, ProviderFields } from './cost';
import type { Context } from '../request/context';

/**
 * Standing requests (subscriptions, and any operation) over graphql-ws and GraphQL over SSE, both
 * on /graphql. Neither goes through Apollo, so this one gate applies what Apollo and its plugins
 * apply over HTTP, the same for both transports: who is calling (the same credentials and
 * refusals as HTTP), connections per account, parsing and validation (Apollo's codes and
 * messages), the variables' depth, the operation's weight and charges, the answer's size bound,
 * and error masking.
 */

export interface LiveLimits {
  /** `Type.field` names of provider-backed fields (src/graphql/cost.ts), charged to the research budget. */
  providerFields: ProviderFields;
  /** Called with the budget or cap a request ran past, and the transport it came by (metrics). */
  onLimited?: (budget: string, transport: LiveTransport) => void;
}

/** How a standing request came: graphql-ws, or GraphQL over SSE. */
export type LiveTransport = 'websocket' | 'sse';

/** An operation as a client sends it (graphql-ws `subscribe` payload, a GraphQL over SSE request). */
export interface OperationRequest {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** Who opened a connection: its account, or the error HTTP would answer its credentials with. */
export type Admission = { accountId: string; credentials: Credentials } | { refusal: GraphQLError; unavailable: boolean };

/**
 * The credentials of a standing request: from graphql-ws `connectionParams` (`x-api-key` or
 * `apiKey`, `authorization` or `Authorization`) when they carry any, else from the HTTP request's
 * headers (the websocket upgrade request, or the SSE request): `x-api-key`, `Authorization: Bearer`.
 */
export function liveCredentials(params: Record<string, unknown> | undefined, headers: IncomingHttpHeaders): Credentials {
  const p = params ?? {};
  const apiKey = stringParam(p['x-api-key'] ?? p.apiKey);
  const authorization = stringParam(p.authorization ?? p.Authorization);
  if (apiKey || authorization) return { apiKey, authorization };
  return { apiKey: stringParam(headerValue(headers['x-api-key'])), authorization: stringParam(headerValue(headers.authorization)) };
}

/** A client's error as a GraphQL error with its code (and retryAfter), as HTTP words it. */
export function asClientError(error: unknown, deps: AppDeps, what: string): GraphQLError {
  const http = toHttpError(error);
  if (http.unexpected) deps.logger.error({ err: error }, what);
  const retryAfter = http.headers['Retry-After'];
  return new GraphQLError(http.body.error, { extensions: { code: http.body.code, ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}) } });
}

export class LiveGate {
  private readonly rules;
  /** Open connections (websockets and SSE streams) per account on this instance. */
  private readonly connections = new Map<string, number>();
  private readonly documents: DocumentCache;
  /** A query's or mutation's charge, settled on its one answer (`answer`). A subscription is charged once, when it starts. */
  private readonly charges = new WeakMap<object, { charge: OperationCharge; caller: Caller; document: DocumentNode; operationName?: string | null }>();

  constructor(
    private readonly deps: AppDeps,
    private readonly schema: GraphQLSchema,
    private readonly limits: LiveLimits = { providerFields: noProviderFields() },
  ) {
    const { introspection } = deps.config.graphql;
    this.rules = websocketRules(introspection, [depthLimit(deps.config.graphql.maxDepth)]);
    this.documents = new DocumentCache((query) => {
      let document: DocumentNode;
      try {
        document = parse(query, { maxTokens: deps.config.graphql.maxTokens });
      } catch (error) {
        return { errors: [new GraphQLError((error as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
      }
      const errors = validate(schema, document, this.rules);
      return errors.length ? { errors: errors.map((error) => clientValidationError(error, introspection)) } : { document };
    });
  }

  /** Reports a cap or budget run past (metrics). */
  limited(budget: string, transport: LiveTransport): void {
    this.limits.onLimited?.(budget, transport);
  }

  /**
   * Authenticates a new connection. Refused credentials (missing, invalid, revoked, malformed) get
   * the error HTTP answers them with (UNAUTHENTICATED and its message), charged 1 point to the
   * client's address as over HTTP (RATE_LIMITED past that budget); `unavailable` when the database
   * or key set could not be asked (not the client's fault).
   */
  async admit(transport: LiveTransport, credentials: Credentials, clientIp: string | undefined): Promise<Admission> {
    try {
      const context = await createContext(this.deps, { credentials, clientIp });
      if (!context.viewer) throw new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer');
      return { accountId: context.viewer.accountId, credentials };
    } catch (error) {
      const unavailable = toHttpError(error).status === 503;
      const charged = unavailable ? error : await chargeRefusedCredentials(this.deps, clientIp, error, this.onLimited(transport)).catch(() => error);
      return { refusal: asClientError(charged, this.deps, 'live connection refused'), unavailable };
    }
  }

  /**
   * Counts a connection of the account against GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT (websockets
   * and SSE streams together): answers its release, or null past the cap. No await between the
   * check and the count: concurrent handshakes cannot both slip in.
   */
  open(transport: LiveTransport, accountId: string): (() => void) | null {
    const cap = this.deps.config.requestLimits.wsMaxConnectionsPerAccount;
    const open = this.connections.get(accountId) ?? 0;
    if (open >= cap) {
      this.limited('ws_connections', transport);
      return null;
    }
    this.connections.set(accountId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.connections.get(accountId) ?? 1) - 1;
      if (left > 0) this.connections.set(accountId, left);
      else this.connections.delete(accountId);
    };
  }

  /** The refusal of a connection past the per-account cap, worded for its transport. */
  tooManyConnectionsMessage(): string {
    return `Too many connections: at most ${this.deps.config.requestLimits.wsMaxConnectionsPerAccount} per account`;
  }

  /**
   * Checks, weighs and charges one operation of an admitted connection, and builds its context:
   * the arguments to run it with, or the errors to answer (a client's mistake gets the code and
   * message HTTP gives it; a refused document is charged 1 point, as over HTTP). Credentials are
   * checked again: a key revoked mid-connection stops working.
   */
  async prepare(transport: LiveTransport, accountId: string, credentials: Credentials, request: OperationRequest): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const { deps, schema } = this;
    const onLimited = this.onLimited(transport);
    const caller: Caller = { viewer: { accountId } };
    try {
      if (typeof request.query !== 'string') throw new AppError('BAD_USER_INPUT', 'GraphQL operations must contain a non-empty `query`');
      const checked = this.documents.check(request.query);
      if ('errors' in checked) return await this.refused(caller, checked.errors, onLimited);
      const { document } = checked;
      const variables = request.variables ?? undefined;
      // Before anything walks the variables (the cost of a list may read its limit from them).
      const tooDeep = variablesError(variables, deps.config.http.maxDepth);
      if (tooDeep) return await this.refused(caller, [tooDeep], onLimited);
      const charge = await chargeOperation(deps, caller, { schema, document, operationName: request.operationName, variables }, this.limits.providerFields, onLimited);
      // An operation name naming no operation, variables that do not coerce: 400s over HTTP.
      const requestErrors = operationRequestErrors(schema, document, request.operationName, variables);
      if (requestErrors.length) return requestErrors;
      const contextValue = await createContext(deps, { credentials });
      if (!contextValue.viewer) throw new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer');
      // The operation outlives this check: a subscription re-reads its viewer when the account changes.
      contextValue.standing = standingViewer(deps, credentials, contextValue.viewer.accountId);
      if (getOperationAST(document, request.operationName)?.operation !== 'subscription') this.charges.set(contextValue, { charge, caller, document, operationName: request.operationName });
      return { schema, document, operationName: request.operationName, variableValues: variables, contextValue };
    } catch (error) {
      return [asClientError(error, deps, 'live operation failed')];
    }
  }

  /**
   * An answer as it goes to the client: bounded by GRAPHQL_MAX_RESPONSE_BYTES (past it, the error
   * HTTP gives), execution errors masked and coded as over HTTP. A query's or mutation's answer
   * settles its charge on what it read (as over HTTP) and says so in `extensions.cost`.
   * Undefined: send it as it is.
   */
  async answer<T extends { data?: unknown; errors?: readonly GraphQLError[] }>(result: T, contextValue?: unknown): Promise<T | undefined> {
    const answer = boundedAnswer(result, this.deps.config.graphql.maxResponseBytes);
    const charged = contextValue && typeof contextValue === 'object' ? this.charges.get(contextValue) : undefined;
    let cost: CostExtension | undefined;
    if (charged) {
      this.charges.delete(contextValue as object);
      // An answer without data (or replaced for its size) keeps its whole charge.
      const ran = answer === result && result.data != null;
      const answered = ran ? { schema: this.schema, document: charged.document, operationName: charged.operationName, data: result.data } : undefined;
      cost = (await settleAnswer(this.deps, charged.caller, charged.charge, answered, this.limits.providerFields, (contextValue as Context).providerCalls.made)).extension;
    }
    const extensions = cost ? { extensions: { ...('extensions' in answer ? (answer.extensions as object) : {}), cost } } : {};
    if (!answer.errors?.length) return answer === result && !cost ? undefined : ({ ...answer, ...extensions } as T);
    // Formatted errors (plain objects) where graphql-js errors were: both transports serialize them as they are.
    return { ...answer, errors: this.errors(answer.errors), ...extensions } as unknown as T;
  }

  /** Errors as they go to the client: masked, with their code (formatGraphQLError logs the unexpected). */
  errors(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
    return errors.map((error) => formatGraphQLError(this.deps, error.toJSON(), error));
  }

  private onLimited(transport: LiveTransport): OnRateLimited {
    return (budget) => this.limits.onLimited?.(budget, transport);
  }

  /** A refused operation's errors, once its 1 point is charged (RATE_LIMITED past the budget). */
  private async refused(caller: Caller, errors: readonly GraphQLError[], onLimited: OnRateLimited): Promise<readonly GraphQLError[]> {
    const decision = await chargeRefusedOperation(this.deps, caller, onLimited);
    if (decision && !decision.allowed) throw rateLimitedError(decision);
    return errors;
  }
}

type Checked = { document: DocumentNode } | { errors: readonly GraphQLError[] };
const DOCUMENT_CACHE_SIZE = 200;

/** Parsed and validated documents by query text (the least recently used dropped first): a client repeating a query is checked once. */
class DocumentCache {
  private readonly entries = new LRUCache<string, Checked>({ max: DOCUMENT_CACHE_SIZE });

  constructor(private readonly compute: (query: string) => Checked) {}

  check(query: string): Checked {
    const hit = this.entries.get(query);
    if (hit) return hit;
    const checked = this.compute(query);
    this.entries.set(query, checked);
    return checked;
  }
}

/**
 * The connection's credential as a standing viewer: re-authenticated on demand (the viewer cache is
 * emptied of the account on every announced change, so this reads it afresh), null once refused.
 */
function standingViewer(deps: AppDeps, credentials: Credentials, accountId: string): StandingViewer {
  return {
    async current() {
      try {
        return (await createContext(deps, { credentials })).viewer;
      } catch (error) {
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') return null;
        throw error;
      }
    },
    onChange: (listener, related = []) => {
      const offs = [...new Set([accountId, ...related])].map((id) => deps.authenticator.watch(id, listener));
      return () => offs.forEach((off) => off());
    },
    watchAccount: (id, listener) => deps.authenticator.watch(id, listener),
  };
}

function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
