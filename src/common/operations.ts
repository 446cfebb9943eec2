import type { z } from 'zod';

/** What a module says of one of its GraphQL operations, whatever the face that calls it. */
export interface OperationSpec {
  /** The schema the operation's arguments are parsed with: bounds, defaults and messages in one place. */
  input: z.ZodObject;
  /** A complete input that works as is (the OpenAPI document's example). */
  example?: Record<string, unknown>;
}

/** Operation specs by root field, e.g. `Query.catalogSongs`. */
export type OperationSpecs = Record<`Query.${string}` | `Mutation.${string}`, OperationSpec>;
