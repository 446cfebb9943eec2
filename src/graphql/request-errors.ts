import { ApolloServerErrorCode } from '@apollo/server/errors';
import { DocumentNode, getOperationAST, getVariableValues, GraphQLError, GraphQLSchema, Kind } from 'graphql';

/**
 * What Apollo answers over HTTP, before anything runs, for an operation name that names no
 * operation of the document (`foo`, `constructor`, `__proto__`) and for variables that do not
 * coerce: graphql-js's messages, with Apollo's codes (OPERATION_RESOLUTION_FAILURE, BAD_USER_INPUT).
 * graphql-ws uses it so that a websocket client gets the same answers instead of an internal error.
 */
export function operationRequestErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): GraphQLError[] {
  const operation = getOperationAST(document, operationName);
  if (!operation) return [new GraphQLError(operationMissing(document, operationName), { extensions: { code: ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE } })];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
  if (!coerced.errors) return [];
  return coerced.errors.map((error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: ApolloServerErrorCode.BAD_USER_INPUT } }));
}

/** graphql-js's own words (execute's buildExecutionContext) for an operation it cannot pick. */
function operationMissing(document: DocumentNode, operationName: string | null | undefined): string {
  if (operationName != null) return `Unknown operation named "${operationName}".`;
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length;
  return operations > 1 ? 'Must provide operation name if query contains multiple operations.' : 'Must provide an operation.';
}
