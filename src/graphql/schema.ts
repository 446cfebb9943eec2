import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { getNamedType, GraphQLDirective, GraphQLSchema, isObjectType, lexicographicSortSchema, parse, printSchema } from 'graphql';
import { AuthChecker, buildSchema, createResolversMap, getMetadataStorage, NonEmptyArray } from 'type-graphql';
import { requireViewer } from '../auth/access';
import type { Context } from '../request/context';
import { requireRouterSecret } from './federation';
import { createLocalPubSub } from './pubsub';
import { guardArguments } from './input-guard';
import { checkResolverParams } from './params';
import { settleMutations } from './settle';
import { answerFromReadAhead } from './read-ahead';

/** @Authorized() fields need a viewer; a missing one is UNAUTHENTICATED on every face. */
const authChecker: AuthChecker<Context> = ({ context }) => {
  requireViewer(context.viewer);
  return true;
};

export const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag", "@interfaceObject", "@composeDirective"])';

export interface SubgraphOptions {
  /** The schema extension with the federation `@link` (and any other links); FEDERATION_LINK by default. */
  link?: string;
  /**
   * `_service` and `_entities` answer only with the router's shared secret (default true). Only
   * test fixtures that are not this service turn it off.
   */
  routerOnly?: boolean;
  /** Directive definitions the plain schema carries but the subgraph must keep (e.g. composed ones). */
  extraTypeDefs?: string;
}

/** type-graphql needs a pubSub to build Subscription fields (see pubsub.ts for why it is local). */
const pubSub = createLocalPubSub();

export interface PlainSchemaOptions {
  /** Resolver classes (the app's: every module's, from the composition root). */
  resolvers: NonEmptyArray<Function>; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  /** Object types no field reaches (e.g. entities only other subgraphs reference). */
  orphanedTypes?: Function[]; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  /** Custom directive definitions applied with type-graphql's @Directive. */
  directives?: GraphQLDirective[];
}

/** The plain schema built from the type-graphql resolvers: sofa (REST) serves this one. */
export async function buildPlainSchema(options: PlainSchemaOptions): Promise<GraphQLSchema> {
  checkResolverParams(options.resolvers);
  const schema = await buildSchema({
    resolvers: options.resolvers,
    authChecker,
    validate: false,
    emitSchemaFile: false,
    pubSub,
    ...(options.orphanedTypes ? { orphanedTypes: options.orphanedTypes } : {}),
    ...(options.directives ? { directives: options.directives } : {}),
  });
  return settleMutations(guardArguments(answerFromReadAhead(readPlainFieldsDirectly(describeOperations(schema)))));
}

const ROOT_DESCRIPTIONS: Record<'Query' | 'Mutation' | 'Subscription', string> = {
  Query:
    'The reads of the service. Every field needs credentials (an x-api-key header or Authorization: Bearer <JWT>) and answers only what the caller may reach; a field that fails is null with its error, the others still answer',
  Mutation: 'The writes of the service, each with one `input` argument. Every field needs credentials except signupAgent and verifyAgent',
  Subscription: 'Live updates of what the caller may see, with the same credentials as queries',
};

/**
 * Descriptions type-graphql has no decorator for: the root types', and an operation's one `input`
 * argument's, which is its input type's own (`input: CreateArtistInput!` → "A new artist account, …").
 */
function describeOperations(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!root) continue;
    root.description ??= ROOT_DESCRIPTIONS[root.name as keyof typeof ROOT_DESCRIPTIONS];
    for (const field of Object.values(root.getFields())) {
      for (const arg of field.args) {
        if (arg.description || arg.name !== 'input') continue;
        const type = getNamedType(arg.type);
        if (type.description) (arg as { description?: string | null }).description = type.description;
      }
    }
  }
  return schema;
}

/**
 * type-graphql gives every plain `@Field` a resolver of its own that hands the resolver's data to
 * the field's middlewares (none) and returns `source[property]`: one call and one object per field
 * of every item of a page. Where that is all it does (no field resolver, no @Authorized, no
 * @UseMiddleware; this schema has no global middlewares), the field is left to the default
 * resolver, which reads the same property (graphql-jit then compiles the read into the operation
 * instead of calling a function), or, for a field named otherwise than its property, to a plain
 * read of that property.
 */
function readPlainFieldsDirectly(schema: GraphQLSchema): GraphQLSchema {
  const storage = getMetadataStorage();
  // Field resolvers by the class they resolve for (`@Resolver(() => Song)` … `@FieldResolver() credits`).
  const resolved = new Map<unknown, Set<string>>();
  for (const resolver of storage.fieldResolvers) {
    const target = resolver.getObjectType?.();
    if (!resolved.has(target)) resolved.set(target, new Set());
    resolved.get(target)!.add(resolver.methodName);
  }
  const hasResolver = (target: unknown, name: string) => resolved.get(target)?.has(name) === true;
  for (const objectType of storage.objectTypes) {
    const type = schema.getType(objectType.name);
    if (!isObjectType(type)) continue;
    const fields = type.getFields();
    for (const field of objectType.fields ?? []) {
      const graphqlField = fields[field.schemaName];
      if (!graphqlField?.resolve || field.params?.length) continue;
      if (field.roles !== undefined || field.middlewares?.length) continue;
      if (hasResolver(objectType.target, field.name) || hasResolver(field.target, field.name)) continue;
      // A field named otherwise than its property (`createdAt` of `created_at`) reads the property, and nothing else.
      graphqlField.resolve = field.name === field.schemaName ? undefined : readProperty(field.name);
    }
  }
  return schema;
}

function readProperty(property: string): (source: Record<string, unknown>) => unknown {
  return (source) => source[property];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReferenceResolvers = Record<string, { __resolveReference: (ref: any, ctx: Context) => unknown }>;

/**
 * The federation subgraph built from the plain schema: Apollo and graphql-ws serve this one.
 * Entity types carry `@key` (type-graphql `@Directive`), and `references` adds their
 * `__resolveReference`. `_service` and `_entities` require the router's shared secret.
 */
export function buildFederatedSchema(plain: GraphQLSchema, references: ReferenceResolvers = {}, options: SubgraphOptions = {}): GraphQLSchema {
  const link = options.link ?? FEDERATION_LINK;
  const typeDefs = parse(`${link}\n\n${options.extraTypeDefs ?? ''}\n\n${printSchemaWithDirectives(plain)}`);
  const resolvers = createResolversMap(plain) as Record<string, Record<string, unknown>>;
  for (const [typeName, reference] of Object.entries(references)) {
    resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...reference };
  }
  // Guarded before the router-secret check wraps _entities, so that check runs first.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const schema = keepListBounds(plain, settleMutations(guardArguments(buildSubgraphSchema([{ typeDefs, resolvers: resolvers as any }]))));
  return options.routerOnly === false ? schema : requireRouterSecret(schema);
}

/** The SDL drops field extensions: the lists' declared bounds (`maxItems`, `itemsPerInput`: src/common/bounds.ts), which the cost model reads, are copied over. */
function keepListBounds(plain: GraphQLSchema, schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(plain.getTypeMap())) {
    const target = schema.getType(type.name);
    if (!isObjectType(type) || !isObjectType(target)) continue;
    const fields = target.getFields();
    for (const field of Object.values(type.getFields())) {
      const into = fields[field.name];
      if (into && field.extensions?.maxItems !== undefined) {
        const { maxItems, itemsPerInput } = field.extensions;
        (into as { extensions: typeof into.extensions }).extensions = { ...into.extensions, maxItems, ...(itemsPerInput === undefined ? {} : { itemsPerInput }) };
      }
    }
  }
  return schema;
}

export function printPlainSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema)).trim()}\n`;
}

/** The SDL a router composes: what `_service { sdl }` answers. */
export function printSubgraphSchema(plain: GraphQLSchema): string {
  return `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(lexicographicSortSchema(plain)).trim()}\n`;
}
