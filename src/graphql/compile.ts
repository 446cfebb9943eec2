import { BREAK, DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema, visit } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { passThroughRoot, placePassedThrough } from './pass-through';

/** An operation graphql-jit turned into a function: run it with a request's context and variables. */
export interface CompiledOperation {
  /**
   * `root`: the root value its root fields receive (REST passes INPUT_GUARDED: its input was guarded whole).
   * `passThrough`: lists may answer as JSON the database wrote (src/graphql/pass-through.ts); only for
   * an answer then serialized by `stringifyJson`.
   */
  run(context: object, variables: Record<string, unknown>, root?: unknown, options?: { passThrough?: boolean }): Promise<ExecutionResult> | ExecutionResult;
}

/** Why an operation was not compiled (it then runs on graphql-js, or a route's start fails). */
export interface NotCompiled {
  refused: string;
}

/**
 * The one place the service compiles an operation with graphql-jit, for both faces: GraphQL's
 * executor (src/graphql/executor.ts, once Apollo hands a document out again) and the REST routes'
 * operation documents (src/http/rest/rest.router.ts, at a route's first request). Its answers are
 * those of graphql-js (same data, same GraphQLErrors); what graphql-jit would answer otherwise is
 * refused or corrected here:
 * - a document naming a response key that is also a property of every object (`__proto__`,
 *   `constructor`, `toString`…) is not compiled: graphql-jit builds answers on plain objects, where
 *   `__proto__: me` is lost, while graphql-js (null-prototype answers) answers it as written;
 * - a resolver's error that carries no extensions (a TypeError, a driver's error) has none in
 *   graphql-jit's answer, where graphql-js gives `{}` (Apollo's formatter reads `extensions.code`
 *   and would answer a bare "Internal server error", logging nothing): made as graphql-js makes it.
 */
export function compileOperation(schema: GraphQLSchema, document: DocumentNode, operationName?: string): CompiledOperation | NotCompiled {
  if (hasPrototypeKey(document)) return { refused: 'a response key is a property of every object' };
  const result = compileQuery(schema, document, operationName);
  if (!isCompiledQuery(result)) return { refused: result.errors?.[0]?.message ?? 'does not compile' };
  return {
    run(context, variables, root, options) {
      // A run that may pass lists through has a root value of its own, which its fields find their run by.
      const runRoot = options?.passThrough ? passThroughRoot(root) : undefined;
      const answered = (answer: ExecutionResult) => {
        if (runRoot) placePassedThrough(runRoot, answer.data);
        return asGraphQLJsAnswer(answer);
      };
      const answer = result.query(runRoot ?? root, context, variables);
      return 'then' in answer ? answer.then(answered) : answered(answer);
    },
  };
}

export function isCompiled(operation: CompiledOperation | NotCompiled): operation is CompiledOperation {
  return 'run' in operation;
}

/** Whether a document names a response key that is also a property of every object (see compileOperation). */
function hasPrototypeKey(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      const key = node.alias?.value ?? node.name.value;
      if (Object.prototype.hasOwnProperty.call(Object.prototype, key)) {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function asGraphQLJsAnswer(result: ExecutionResult): ExecutionResult {
  return result.errors?.some((error) => !error.extensions) ? { ...result, errors: result.errors.map(asGraphQLJsError) } : result;
}

/** The same error as graphql-js makes it (message, path, locations, original error, `extensions: {}`). */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  if (error.extensions) return error;
  const same = new GraphQLError(error.message, { path: error.path, originalError: error.originalError, extensions: {} });
  if (error.locations) (same as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return same;
}
