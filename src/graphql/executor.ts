import type { GatewayExecutionResult, GatewayGraphQLRequestContext, GatewayInterface } from '@apollo/server-gateway-interface';
import { DocumentNode, execute, GraphQLSchema, printSchema } from 'graphql';
import { CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';

/** A document's operations as Apollo has run them: how many runs on graphql-js so far, or compiled, or left to graphql-js. */
type Compilations = Map<string, CompiledQuery | number | 'not compiled'>;

export interface CompiledExecutionOptions {
  /** Runs of an operation on graphql-js before it is compiled (GRAPHQL_COMPILE_AFTER; 0: at its first run). */
  compileAfter: number;
  /** Told how each operation ran (the graphql_operations_total metric). */
  onRun?: (execution: 'compiled' | 'interpreted') => void;
}

/**
 * The executor Apollo runs operations with: graphql-js walks a document's selections for every
 * request, graphql-jit turns an operation into a function once and then runs it. Apollo hands out
 * the same DocumentNode for the same query text (its document store caches parsed, validated
 * documents), so an operation is compiled once Apollo has handed out its document `compileAfter`
 * times (1 by default: at its second run), kept while the document store keeps the document (a
 * WeakMap: no cache of our own to bound), and run compiled from then on. Until then, and for a
 * server without a document store, it runs on graphql-js: compiling a one-off query would cost
 * more than running it once.
 *
 * Answers are those of graphql-js: same data, and for errors raised while resolving the same
 * GraphQLErrors (message, path, original error), which Apollo then formats as always. A request
 * that fails before any resolver runs (variables that do not coerce) is answered by graphql-js,
 * whose messages clients and tests know; nothing has run, so nothing runs twice.
 */
export function compiledExecution(schema: GraphQLSchema, options: CompiledExecutionOptions): GatewayInterface {
  const compilations = new WeakMap<DocumentNode, Compilations>();

  const compiledFor = (document: DocumentNode, operationName: string | null): CompiledQuery | undefined => {
    let byName = compilations.get(document);
    if (!byName) {
      byName = new Map();
      compilations.set(document, byName);
    }
    const key = operationName ?? '';
    const known = byName.get(key) ?? 0;
    if (typeof known !== 'number') return known === 'not compiled' ? undefined : known;
    if (known < options.compileAfter) {
      byName.set(key, known + 1);
      return undefined;
    }
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    byName.set(key, isCompiledQuery(compiled) ? compiled : 'not compiled');
    return isCompiledQuery(compiled) ? compiled : undefined;
  };

  const interpreted = (request: GatewayGraphQLRequestContext): Promise<GatewayExecutionResult> => {
    options.onRun?.('interpreted');
    return Promise.resolve(
      execute({
        schema,
        document: request.document,
        contextValue: request.context,
        variableValues: request.request.variables,
        operationName: request.operationName,
      }),
    );
  };

  const executor = async (request: GatewayGraphQLRequestContext): Promise<GatewayExecutionResult> => {
    const compiled = compiledFor(request.document, request.operationName);
    if (!compiled) return interpreted(request);
    const result = await compiled.query(undefined, request.context, request.request.variables ?? {});
    // No `data`: the variables did not coerce, and no resolver ran.
    if (!('data' in result)) return interpreted(request);
    options.onRun?.('compiled');
    return result;
  };

  let listeners: ((schemaContext: { apiSchema: GraphQLSchema; coreSupergraphSdl: string }) => void)[] = [];
  return {
    onSchemaLoadOrUpdate(callback) {
      listeners.push(callback);
      return () => {
        listeners = listeners.filter((listener) => listener !== callback);
      };
    },
    async load() {
      const sdl = printSchema(schema);
      for (const listener of listeners) listener({ apiSchema: schema, coreSupergraphSdl: sdl });
      return { executor };
    },
    async stop() {
      listeners = [];
    },
  };
}
