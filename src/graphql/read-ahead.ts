import { GraphQLFieldResolver, GraphQLSchema, isObjectType } from 'graphql';
import { Extensions, getMetadataStorage } from 'type-graphql';

/** The field extension @ReadAhead sets: the parent's property that holds the field's answer when it was read ahead. */
export const READ_AHEAD = 'readAhead';

/**
 * Marks a field resolver whose parent may arrive with the field's answer already on it, read in the
 * parent's own statement (a songs page reads each entry's credits with it): when the parent's
 * `property` holds a value, that value is the answer and the resolver is not called. The resolver
 * must answer that same value in that case (`song.credits ?? loader.load(…)`); it runs only when
 * the property is absent. Allowed only on a field with no arguments and no @Authorized or
 * middleware of its own (answerFromReadAhead refuses any other at start-up), so skipping the
 * resolver skips nothing but the call.
 */
export function ReadAhead(property: string): MethodDecorator & PropertyDecorator {
  return Extensions({ [READ_AHEAD]: property });
}

/**
 * Each @ReadAhead field answers from its parent's property when present, else through its resolver
 * (type-graphql's, whose wrapper builds the resolver data, its parameters and a promise for every
 * item of a page). graphql-jit then reads a present value synchronously.
 */
export function answerFromReadAhead(schema: GraphQLSchema): GraphQLSchema {
  const storage = getMetadataStorage();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const property = field.extensions?.[READ_AHEAD];
      if (property === undefined) continue;
      const where = `@ReadAhead on ${type.name}.${field.name}`;
      const target = storage.objectTypes.find((t) => t.name === type.name)?.target;
      const metadata = storage.fieldResolvers.find((r) => r.schemaName === field.name && target !== undefined && r.getObjectType?.() === target);
      if (typeof property !== 'string' || !property) throw new Error(`${where}: the property must be a non-empty string`);
      if (!field.resolve || !metadata) throw new Error(`${where}: it marks a field resolver, and this field has none`);
      if (field.args.length) throw new Error(`${where}: the field has arguments, which its resolver would apply to the answer`);
      if (metadata.roles !== undefined || metadata.middlewares?.length) throw new Error(`${where}: the field has @Authorized or middlewares, which answering from the parent would skip`);
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve;
      field.resolve = (source, args, context, info) => {
        const value = (source as Record<string, unknown> | null | undefined)?.[property];
        return value !== undefined && value !== null ? value : resolve(source, args, context, info);
      };
    }
  }
  return schema;
}
