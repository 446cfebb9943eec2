import { createHash, timingSafeEqual } from 'node:crypto';
import { defaultFieldResolver, GraphQLFieldResolver, GraphQLSchema, isUnionType } from 'graphql';
import { AppError, FieldProblem, invalidInput } from '../common/errors';
import type { Context } from '../request/context';

/** The header a federation router sends its shared secret in (ROUTER_SECRET). */
export const ROUTER_SECRET_HEADER = 'x-router-secret';

/** The root fields a router uses; they must not be open to the internet. */
export const ROUTER_ONLY_FIELDS = ['_service', '_entities'] as const;

/**
 * Constant-time comparison of the configured router secret with the one presented. Both sides are
 * hashed first, so neither their content nor their length leaks through timing. Without a
 * configured secret nothing matches.
 */
export function routerSecretMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export function routerOnlyError(): AppError {
  return new AppError('FORBIDDEN', `_service and _entities answer only to the federation router (${ROUTER_SECRET_HEADER} header)`);
}

/**
 * Wraps `Query._service` and `Query._entities` of a subgraph schema so they answer only when the
 * request carries the router's shared secret (ctx.routerSecret, from the x-router-secret header).
 * It runs inside the resolvers, so it holds for every transport (HTTP and graphql-ws), for
 * aliases and fragments alike. `_entities` then runs the modules' reference resolvers with the
 * viewer of the request's own credentials (which the router forwards), so root-field access rules
 * apply to entities too.
 */
export function requireRouterSecret(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getQueryType()?.getFields() ?? {};
  const entityUnion = schema.getType('_Entity');
  const entityTypes = new Set(isUnionType(entityUnion) ? entityUnion.getTypes().map((t) => t.name) : []);
  for (const name of ROUTER_ONLY_FIELDS) {
    const field = fields[name];
    if (!field) continue;
    const resolve: GraphQLFieldResolver<unknown, Context> = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, ctx, info) => {
      if (!routerSecretMatches(ctx.deps.config.federation.routerSecret, ctx.routerSecret)) throw routerOnlyError();
      if (name === '_entities') checkRepresentations(args.representations, entityTypes);
      return resolve(source, args, ctx, info);
    };
  }
  return schema;
}

/**
 * `_Any` takes any JSON: a representation that is not an object naming one of this subgraph's
 * entity types would make @apollo/subgraph throw a plain Error (a 500). It is the caller's mistake.
 */
function checkRepresentations(representations: unknown, entityTypes: Set<string>): void {
  const problems: FieldProblem[] = [];
  (Array.isArray(representations) ? representations : []).forEach((rep: unknown, i) => {
    if (!rep || typeof rep !== 'object' || Array.isArray(rep)) {
      problems.push({ field: `representations[${i}]`, message: 'must be an object with __typename and the key fields' });
      return;
    }
    const typename = (rep as { __typename?: unknown }).__typename;
    if (typeof typename !== 'string' || !entityTypes.has(typename)) {
      problems.push({ field: `representations[${i}].__typename`, message: `must be one of: ${[...entityTypes].sort().join(', ')}` });
    }
  });
  if (problems.length) throw invalidInput(problems);
}
