import type { GatewayExecutionResult, GatewayGraphQLRequestContext, GatewayInterface } from '@apollo/server-gateway-interface';
import { DocumentNode, execute, FormattedExecutionResult, getOperationAST, GraphQLError, GraphQLSchema, printSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import { AppError } from '../common/errors';
import { CompiledOperation, compileOperation, isCompiled } from './compile';
import { stringifyJson } from './pass-through';

/** Runs of a document's operations on graphql-js so far, by operation name, or 'not compiled' (graphql-jit refused it). */
type Runs = Map<string, number | 'not compiled'>;

export interface CompiledExecutionOptions {
  /** Runs of an operation on graphql-js before it is compiled (GRAPHQL_COMPILE_AFTER; 0: at its first run). */
  compileAfter: number;
  /** Documents whose compiled operations are kept, the least recently run dropped first (GRAPHQL_COMPILED_MAX). */
  compiledMax: number;
  /** Told how each operation ran (the graphql_operations_total metric). */
  onRun?: (execution: 'compiled' | 'interpreted') => void;
  /** Told of each compilation (graphql_compilations_total): one that keeps rising in a steady state means compiledMax is too small. */
  onCompile?: () => void;
  /** Largest answer, in bytes of JSON, an operation may give (GRAPHQL_MAX_RESPONSE_BYTES); 0: no bound. */
  maxResponseBytes?: number;
}

/**
 * The executor Apollo runs operations with: graphql-js walks a document's selections for every
 * request, graphql-jit turns an operation into a function once and then runs it. Apollo hands out
 * the same DocumentNode for the same query text (its document store caches parsed, validated
 * documents), so an operation is compiled once Apollo has handed out its document `compileAfter`
 * times (1 by default: at its second run) and runs compiled from then on. Until then, and for a
 * server without a document store, it runs on graphql-js: compiling a one-off query (about 0.75 ms)
 * would cost more than running it once.
 *
 * Run counts live as long as Apollo keeps the document (a WeakMap). Compiled operations (about
 * 25 KB for a songs page, more for a larger document) are kept for the `compiledMax` documents run
 * most recently: a client that sends many documents, each twice, makes the service compile them
 * (each is charged by the rate limits like any operation) but cannot make it keep more than that.
 *
 * Operations are compiled by `compileOperation` (src/graphql/compile.ts, the one helper REST's
 * routes compile with too), whose answers are those of graphql-js: same data, and for errors
 * raised while resolving the same GraphQLErrors (message, path, original error), which Apollo then
 * formats as always. A request
 * that fails before any resolver runs (variables that do not coerce) is answered by graphql-js,
 * whose messages clients and tests know; nothing has run, so nothing runs twice.
 */
export function compiledExecution(schema: GraphQLSchema, options: CompiledExecutionOptions): GatewayInterface {
  const runs = new WeakMap<DocumentNode, Runs>();
  const compiled = options.compiledMax > 0 ? new LRUCache<DocumentNode, Map<string, CompiledOperation>>({ max: options.compiledMax }) : undefined;

  const compiledFor = (document: DocumentNode, operationName: string | null): CompiledOperation | undefined => {
    if (!compiled) return undefined;
    const key = operationName ?? '';
    const kept = compiled.get(document);
    const hit = kept?.get(key);
    if (hit) return hit;
    let counts = runs.get(document);
    if (!counts) {
      counts = new Map();
      runs.set(document, counts);
    }
    const count = counts.get(key) ?? 0;
    if (count === 'not compiled') return undefined;
    if (count < options.compileAfter) {
      counts.set(key, count + 1);
      return undefined;
    }
    const result = compileOperation(schema, document, operationName ?? undefined);
    options.onCompile?.();
    if (!isCompiled(result)) {
      counts.set(key, 'not compiled');
      return undefined;
    }
    compiled.set(document, (kept ?? new Map<string, CompiledOperation>()).set(key, result));
    return result;
  };

  const interpreted = (request: GatewayGraphQLRequestContext, operationName = request.operationName): Promise<GatewayExecutionResult> => {
    options.onRun?.('interpreted');
    return Promise.resolve(
      execute({
        schema,
        document: request.document,
        contextValue: request.context,
        variableValues: request.request.variables,
        operationName,
      }),
    );
  };

  const run = async (request: GatewayGraphQLRequestContext): Promise<GatewayExecutionResult> => {
    // An operation name that names no operation (`foo`, `constructor`): Apollo found no operation and
    // hands over a null name (which would run a document's only operation); graphql-js, given the
    // client's name, answers its own error, which Apollo turns into a 400 OPERATION_RESOLUTION_FAILURE.
    const asked = request.request.operationName ?? null;
    if (!getOperationAST(request.document, asked)) return interpreted(request, asked);
    const operation = compiledFor(request.document, request.operationName);
    if (!operation) return interpreted(request);
    // Lists may be passed through as the database wrote them (src/graphql/pass-through.ts): Apollo
    // writes the answer with stringifyAnswer.
    const result = await operation.run(request.context, request.request.variables ?? {}, undefined, { passThrough: true });
    // No `data`: the variables did not coerce, and no resolver ran.
    if (!('data' in result)) return interpreted(request);
    options.onRun?.('compiled');
    return result;
  };
  const maxResponseBytes = options.maxResponseBytes ?? 0;
  const executor = async (request: GatewayGraphQLRequestContext): Promise<GatewayExecutionResult> => boundedAnswer(await run(request), maxResponseBytes);

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

/**
 * An answer within `maxBytes` of JSON, or in its place a 400 BAD_USER_INPUT saying how large it was
 * (the bound, GRAPHQL_MAX_RESPONSE_BYTES, keeps one operation from sending tens of megabytes; the
 * cost model refuses most such operations before they run). Measured by serializing the answer
 * once; 0: no bound. Used for HTTP (both executors) and graphql-ws.
 */
export function boundedAnswer<T extends { data?: unknown; errors?: readonly unknown[] }>(result: T, maxBytes: number): T | { errors: GraphQLError[] } {
  if (maxBytes <= 0) return result;
  const data = result.data;
  let bytes: number;
  if (data !== null && typeof data === 'object') {
    const dataJson = stringifyJson(data);
    bytes = Buffer.byteLength(jsonWith(result, data, dataJson));
    if (bytes <= maxBytes) measuredData.set(data, dataJson);
  } else bytes = Buffer.byteLength(stringifyJson(result));
  if (bytes <= maxBytes) return result;
  const error = new AppError('BAD_USER_INPUT', `The answer is ${bytes} bytes, more than the maximum of ${maxBytes}: ask for fewer fields or items, or split the operation`, {
    details: [{ field: 'query', message: `answers ${bytes} bytes, more than ${maxBytes}` }],
  });
  return { errors: [new GraphQLError(error.message, { originalError: error, extensions: { ...error.extensions, http: { status: 400 } } })] };
}

/**
 * The JSON of the `data` of answers boundedAnswer let through, kept while Apollo holds the answer:
 * stringifyAnswer writes it as it is instead of serializing the same data a second time (a page of
 * songs is serialized once per request, not twice: issue 31). Nothing changes an answer's data
 * after the executor (plugins add extensions and format errors, which are serialized as usual).
 */
const measuredData = new WeakMap<object, string>();

/**
 * `JSON.stringify(value)` of a plain object whose `data` member is `data`, with `dataJson` (that
 * data's JSON) in its place: members in the same order, those JSON leaves out (undefined) left out.
 */
function jsonWith(value: object, data: object, dataJson: string): string {
  let out = '';
  for (const [key, member] of Object.entries(value)) {
    const json: string | undefined = key === 'data' && member === data ? dataJson : JSON.stringify(member);
    if (json === undefined) continue;
    out += `${out ? ',' : ''}${JSON.stringify(key)}:${json}`;
  }
  return `{${out}}`;
}

/**
 * Apollo's `stringifyResult`: the answer as Apollo writes it (its JSON and a newline), reusing the
 * JSON of the data boundedAnswer measured; any other answer is serialized as usual (`stringifyJson`:
 * lists passed through written as the database wrote them).
 */
export function stringifyAnswer(value: FormattedExecutionResult): string {
  const data = value.data;
  const dataJson = data !== null && typeof data === 'object' ? measuredData.get(data) : undefined;
  return `${dataJson === undefined ? stringifyJson(value) : jsonWith(value, data as object, dataJson)}\n`;
}
