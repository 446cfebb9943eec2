import type { ApolloServer } from '@apollo/server';
import { getOperationAST, GraphQLSchema, isNamedType, parse, printSchema, printType } from 'graphql';
import type { AppDeps } from '../deps';
import type { Context } from '../request/context';
import { AppError, badInput } from '../common/errors';
import { chargeRefusedOperation } from '../graphql/rate-limit.plugin';
import { rateLimitedError } from '../auth/rate-limit';
import type { CustomTool } from './server';
import { toolError } from './server';

/** Apollo's codes for a request it could not run as sent, and the argument each blames. */
const MALFORMED: Record<string, string> = {
  GRAPHQL_PARSE_FAILED: 'query',
  GRAPHQL_VALIDATION_FAILED: 'query',
  OPERATION_RESOLUTION_FAILURE: 'operation_name',
  BAD_USER_INPUT: 'variables',
  BAD_REQUEST: 'query',
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

/** The graph an agent may query: the Query type and every type reachable from it (no mutations, no subscriptions, no federation fields). */
export function queryGraph(plain: GraphQLSchema): GraphQLSchema {
  return new GraphQLSchema({ query: plain.getQueryType(), types: [], directives: plain.getDirectives() });
}

/**
 * `graphql_query`: one GraphQL query document run through Apollo as POST /graphql runs it (the
 * same parsing, validation, depth and token limits, cost weighing, charge and settlement,
 * `extensions.cost`, answer size bound, error masking), with the caller's context. Only queries:
 * a mutation or subscription is refused (1 point, as GraphQL charges a refused operation), so
 * this tool never writes. `describe_graph`: the SDL of what such a query may select.
 */
export function graphTools(deps: AppDeps, apollo: ApolloServer<Context>, plain: GraphQLSchema): CustomTool[] {
  const graph = queryGraph(plain);
  const sdl = printSchema(graph);
  return [
    {
      definition: {
        name: 'graphql_query',
        title: 'Run a GraphQL query',
        description: [
          'Runs one GraphQL query document (queries only: mutations and subscriptions are refused) against the same graph as POST /graphql,',
          'with the same cost weighing, budgets and limits: compose research in one call (the roster, each artist\'s research profile, each catalog\'s songs with stats).',
          'Call describe_graph for the types and fields. The answer is GraphQL\'s: data, errors (a failing field is its null and an error), extensions.cost.',
        ].join(' '),
        inputSchema: {
          type: 'object',
          properties: {
            query: { type: 'string', minLength: 1, description: 'The GraphQL document: one query operation (or several, with operation_name)' },
            variables: { type: 'object', description: "The operation's variables", additionalProperties: true },
            operation_name: { type: 'string', description: 'Which operation of the document to run, when it has several' },
          },
          required: ['query'],
          additionalProperties: false,
        },
        outputSchema: {
          type: 'object',
          properties: {
            data: { type: ['object', 'null'], additionalProperties: true },
            errors: { type: 'array', items: { type: 'object', additionalProperties: true } },
            extensions: { type: 'object', additionalProperties: true },
          },
        },
        // A research field may call a paid provider.
        annotations: { title: 'Run a GraphQL query', ...READ_ONLY, openWorldHint: true },
      },
      async run(ctx, args) {
        const known = new Set(['query', 'variables', 'operation_name']);
        const unknown = Object.keys(args).filter((key) => !known.has(key));
        if (unknown.length) throw new AppError('BAD_USER_INPUT', `Invalid input: ${unknown.map((k) => `${k}: is not a known field`).join('; ')}`, { details: unknown.map((field) => ({ field, message: 'is not a known field' })) });
        const { query, variables, operation_name: operationName } = args;
        if (typeof query !== 'string' || !query.trim()) throw badInput('query', 'is required: a GraphQL query document');
        if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables))) throw badInput('variables', 'must be an object');
        if (operationName !== undefined && typeof operationName !== 'string') throw badInput('operation_name', 'must be a string');
        // Read-only: the operation's kind is checked before Apollo runs anything (a document that does not parse is left to Apollo's own answer).
        let kind: string | undefined;
        try {
          kind = getOperationAST(parse(query, { maxTokens: deps.config.graphql.maxTokens }), operationName)?.operation;
        } catch {
          kind = undefined;
        }
        if (kind && kind !== 'query') {
          const decision = await chargeRefusedOperation(deps, ctx);
          if (decision && !decision.allowed) return toolError(deps, rateLimitedError(decision));
          throw badInput('query', `must be a query: this tool is read-only (a ${kind} is refused; use the other tools to write)`);
        }
        const response = await apollo.executeOperation(
          { query, variables: variables as Record<string, unknown> | undefined, operationName: operationName as string | undefined },
          { contextValue: { ...ctx, providerCalls: { made: 0 } } },
        );
        if (response.body.kind !== 'single') throw new AppError('BAD_USER_INPUT', 'Incremental delivery (@defer, @stream) is not served here', { details: [{ field: 'query', message: 'must not use @defer or @stream' }] });
        const result = response.body.singleResult as { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[]; extensions?: Record<string, unknown> };
        const answer = { data: result.data ?? null, ...(result.errors ? { errors: result.errors } : {}), ...(result.extensions ? { extensions: result.extensions } : {}) };
        if (!result.data && result.errors?.length) {
          const first = result.errors[0]!;
          // A document that does not parse, validate or name its operation, variables that do not coerce: malformed arguments.
          const malformed = MALFORMED[String(first.extensions?.code)];
          if (malformed) throw badInput(malformed, first.message);
          // Refused whole (rate limit, cost): a tool error with the first error's code, message and retry time.
          const retry = first.extensions?.retryAfter;
          const payload = { error: first.message, code: first.extensions?.code ?? 'BAD_USER_INPUT', ...(typeof retry === 'number' ? { retry_after: retry } : {}), errors: result.errors, ...(result.extensions ? { extensions: result.extensions } : {}) };
          return { isError: true, content: [{ type: 'text', text: JSON.stringify(payload) }], _meta: { code: String(payload.code) } };
        }
        return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
      },
    },
    {
      definition: {
        name: 'describe_graph',
        title: 'Describe the graph',
        description: 'The GraphQL SDL of everything graphql_query may select: the Query type and every type reachable from it, with descriptions. Give type_name for one type alone.',
        inputSchema: {
          type: 'object',
          properties: { type_name: { type: 'string', description: 'One type to describe (e.g. Artist); without it, the whole graph' } },
          additionalProperties: false,
        },
        outputSchema: { type: 'object', required: ['sdl'], properties: { sdl: { type: 'string', description: 'GraphQL SDL' } } },
        annotations: { title: 'Describe the graph', ...READ_ONLY, openWorldHint: false },
      },
      async run(ctx, args) {
        const unknown = Object.keys(args).filter((key) => key !== 'type_name');
        if (unknown.length) throw badInput(unknown[0]!, 'is not a known field');
        // One point of the general budget, as any request.
        const decision = await chargeRefusedOperation(deps, ctx);
        if (decision && !decision.allowed) return toolError(deps, rateLimitedError(decision));
        let text = sdl;
        if (args.type_name !== undefined) {
          if (typeof args.type_name !== 'string') throw badInput('type_name', 'must be a string');
          const type = graph.getType(args.type_name);
          if (!type || !isNamedType(type) || type.name.startsWith('__')) throw new AppError('NOT_FOUND', `The graph has no type ${JSON.stringify(args.type_name.slice(0, 100))}`);
          text = printType(type);
        }
        return { content: [{ type: 'text', text }], structuredContent: { sdl: text } };
      },
    },
  ];
}
