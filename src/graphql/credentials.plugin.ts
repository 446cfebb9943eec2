import type { ApolloServerPlugin } from '@apollo/server';
import type { DocumentNode, OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { AppError } from '../common/errors';
import type { Context } from '../request/context';

/** `_service` (the router's schema read) and `_entities` (references, null where the caller reaches nothing). */
const FEDERATION_FIELDS = new Set(['_service', '_entities']);

const ROOTS = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

/**
 * The root fields that need no credentials (`Mutation.signupAgent`, …): those whose resolver has no
 * `@Authorized()`, read from type-graphql's metadata (read only) once the schema is built.
 */
export function publicRootFields(): ReadonlySet<string> {
  const storage = getMetadataStorage();
  const authorized = new Set(storage.authorizedFields.map((a) => `${a.target.name}.${a.fieldName}`));
  const classes = new Set(storage.authorizedResolver.map((a) => a.target));
  const roots = [
    ...storage.queries.map((r) => ({ r, root: 'Query' })),
    ...storage.mutations.map((r) => ({ r, root: 'Mutation' })),
    ...storage.subscriptions.map((r) => ({ r, root: 'Subscription' })),
  ];
  return new Set(roots.filter(({ r }) => !classes.has(r.target) && !authorized.has(`${r.target.name}.${r.methodName}`)).map(({ r, root }) => `${root}.${r.schemaName}`));
}

/** The root fields an operation selects, through its fragments (each fragment read once). */
export function rootFieldNames(document: DocumentNode, operation: OperationDefinitionNode): Set<string> {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])));
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === 'Field') names.add(selection.name.value);
      else if (selection.kind === 'InlineFragment') walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return names;
}

/**
 * An operation without credentials that selects a field needing them is refused as a whole
 * (UNAUTHENTICATED, no data), as REST refuses such a route before it reads anything: a client
 * (or its gateway) gets one answer for a missing credential, 401 as application/graphql-response+json,
 * instead of a 200 whose every field is null. Introspection and the public fields answer without.
 */
export function credentialsRequired(publicFields: ReadonlySet<string> = publicRootFields()): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, document, operation }) {
          if (contextValue.viewer || !operation) return;
          const root = ROOTS[operation.operation];
          for (const name of rootFieldNames(document, operation)) {
            // Federation's own fields have their own gate (the router's secret) and answer for themselves.
            if (name.startsWith('__') || FEDERATION_FIELDS.has(name) || publicFields.has(`${root}.${name}`)) continue;
            throw new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer');
          }
        },
      };
    },
  };
}
