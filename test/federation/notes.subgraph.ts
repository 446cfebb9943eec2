import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLSchema, parse } from 'graphql';
import { FederationTarget, TARGETS } from './targets';

/**
 * A second, small subgraph ("notes") another team might run: it extends this service's entity
 * types (TARGETS) with a `notes` field, and its own root field `notes` points back at them.
 */
export interface Note {
  id: string;
  text: string;
  typeName: string;
  key: string;
}

const fieldName = (target: FederationTarget) => target.typeName.charAt(0).toLowerCase() + target.typeName.slice(1);

export function notesData(targets: FederationTarget[] = TARGETS): Note[] {
  return targets.flatMap((t, i) => [
    { id: `n${i}-visible`, text: `about ${t.typeName} ${t.visible}`, typeName: t.typeName, key: t.visible },
    { id: `n${i}-hidden`, text: `about ${t.typeName} ${t.hidden}`, typeName: t.typeName, key: t.hidden },
  ]);
}

export function notesTypeDefs(targets: FederationTarget[] = TARGETS): string {
  return `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key"])

type Query {
  notes: [Note!]!
}

type Note {
  id: ID!
  text: String!
${targets.map((t) => `  ${fieldName(t)}: ${t.typeName}`).join('\n')}
}

${targets
  .map(
    (t) => `type ${t.typeName} @key(fields: "${t.key}") {
  ${t.key}: ${t.keyType}
  notes: [Note!]!
}`,
  )
  .join('\n\n')}
`;
}

export function notesSchema(targets: FederationTarget[] = TARGETS): GraphQLSchema {
  const notes = notesData(targets);
  const resolvers: Record<string, Record<string, unknown>> = {
    Query: { notes: () => notes },
    Note: Object.fromEntries(
      targets.map((t) => [fieldName(t), (note: Note) => (note.typeName === t.typeName ? { __typename: t.typeName, [t.key]: note.key } : null)]),
    ),
  };
  for (const t of targets) {
    resolvers[t.typeName] = {
      __resolveReference: (ref: Record<string, string>) => ref,
      notes: (entity: Record<string, string>) => notes.filter((n) => n.typeName === t.typeName && n.key === entity[t.key]),
    };
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return buildSubgraphSchema([{ typeDefs: parse(notesTypeDefs(targets)), resolvers: resolvers as any }]);
}

export { fieldName as noteFieldName };
