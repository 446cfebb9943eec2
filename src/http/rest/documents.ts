import { buildOperationNodeForField } from '@graphql-tools/utils';
import { DocumentNode, GraphQLSchema, Kind, OperationTypeNode } from 'graphql';
import { createSofa } from 'sofa-api';
import type { RestRoute } from './route';

/** sofa-api's choices for a schema: which types are models (nested as `{id}`) and how deep cycles go. */
export type SofaModels = Pick<ReturnType<typeof createSofa>, 'models' | 'ignore' | 'depthLimit'>;

export function sofaModels(schema: GraphQLSchema): SofaModels {
  return createSofa({ basePath: '/api', schema });
}

/**
 * The document a REST route runs and documents: sofa-api's operation for the root field (every
 * field of the answer, nested models as sofa selects them).
 */
export function routeDocument(schema: GraphQLSchema, sofa: SofaModels, operation: RestRoute['operation']): DocumentNode {
  const [kind, fieldName] = operation.split('.') as ['Query' | 'Mutation', string];
  const node = buildOperationNodeForField({
    kind: kind === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
    schema,
    field: fieldName,
    models: sofa.models,
    ignore: sofa.ignore,
    circularReferenceDepth: sofa.depthLimit,
  });
  return { kind: Kind.DOCUMENT, definitions: [node] };
}
