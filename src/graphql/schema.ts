import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { GraphQLSchema, lexicographicSortSchema, parse, printSchema } from 'graphql';
import { AuthChecker, buildSchema, createResolversMap, NonEmptyArray } from 'type-graphql';
import { requireViewer } from '../auth/access';
import { modules } from '../modules';
import type { Context } from './context';
import { createLocalPubSub } from './pubsub';

/** @Authorized() fields need a viewer; a missing one is UNAUTHENTICATED on every face. */
const authChecker: AuthChecker<Context> = ({ context }) => {
  requireViewer(context.viewer);
  return true;
};

export const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag", "@interfaceObject", "@composeDirective"])';

/** type-graphql needs a pubSub to build Subscription fields (see pubsub.ts for why it is local). */
const pubSub = createLocalPubSub();

/** The plain schema built from the type-graphql resolvers: sofa (REST) serves this one. */
export async function buildPlainSchema(): Promise<GraphQLSchema> {
  const resolvers = modules.flatMap((m) => m.resolvers) as NonEmptyArray<Function>; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  return buildSchema({ resolvers, authChecker, validate: false, emitSchemaFile: false, pubSub });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReferenceResolvers = Record<string, { __resolveReference: (ref: any, ctx: Context) => unknown }>;

/** The federation subgraph built from the plain schema: Apollo and graphql-ws serve this one. */
export function buildFederatedSchema(plain: GraphQLSchema, references: ReferenceResolvers = {}): GraphQLSchema {
  const typeDefs = parse(`${FEDERATION_LINK}\n\n${printSchemaWithDirectives(plain)}`);
  const resolvers = createResolversMap(plain) as Record<string, Record<string, unknown>>;
  for (const [typeName, reference] of Object.entries(references)) {
    resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...reference };
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return buildSubgraphSchema([{ typeDefs, resolvers: resolvers as any }]);
}

export function printPlainSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema)).trim()}\n`;
}

/** The SDL a router composes: what `_service { sdl }` answers. */
export function printSubgraphSchema(plain: GraphQLSchema): string {
  return `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(lexicographicSortSchema(plain)).trim()}\n`;
}
