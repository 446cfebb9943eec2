import { GraphQLError, NoSchemaIntrospectionCustomRule, specifiedRules, ValidationRule } from 'graphql';

/**
 * graphql-js ends validation and coercion messages with "Did you mean …?", naming fields, types,
 * arguments and enum values: with introspection off that would hand out the schema piece by piece.
 */
export function stripSuggestions(message: string): string {
  return message.replace(/\s*Did you mean [\s\S]*\?$/, '');
}

/** Validation rules for a graphql-ws operation: graphql-js's own, plus no __schema/__type when introspection is off. */
export function websocketRules(introspection: boolean, extra: ValidationRule[]): ValidationRule[] {
  return [...specifiedRules, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule]), ...extra];
}

/** A validation error as a client may see it: its code, and no suggestions when introspection is off. */
export function clientValidationError(error: GraphQLError, introspection: boolean): GraphQLError {
  return new GraphQLError(introspection ? error.message : stripSuggestions(error.message), {
    nodes: error.nodes,
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
  });
}
