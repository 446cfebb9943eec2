import type { OpenApiDocument } from '../../src/http/rest/openapi';

type JsonSchema = Record<string, unknown>;

export const DEMO_UUID = '00000000-0000-4000-8000-00000000ffff';

/** Follows `#/components/schemas/X` references. */
export function deref(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  while (typeof current.$ref === 'string') {
    current = doc.components.schemas[current.$ref.replace('#/components/schemas/', '')] as JsonSchema;
    if (!current) throw new Error(`unresolved $ref ${String(schema.$ref)}`);
  }
  return current;
}

/**
 * A valid value for a schema, built from the document alone: example, default, first enum value,
 * or the smallest value the bounds allow.
 */
export function sampleValue(doc: OpenApiDocument, input: JsonSchema): unknown {
  const schema = deref(doc, input);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (Array.isArray(schema.anyOf)) return sampleValue(doc, (schema.anyOf as JsonSchema[]).find((s) => s.type !== 'null')!);
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
    case 'boolean':
      return true;
    case 'array': {
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: count }, () => sampleValue(doc, (schema.items ?? {}) as JsonSchema));
    }
    case 'object':
      return sampleObject(doc, schema);
    case 'string':
    default: {
      if (schema.format === 'uuid') return DEMO_UUID;
      if (schema.format === 'email') return 'docs-example@example.test';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.test/profile';
      const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
      return 'example'.padEnd(min, 'x').slice(0, typeof schema.maxLength === 'number' ? schema.maxLength : undefined);
    }
  }
}

/** An object with every required property (and nothing else). */
export function sampleObject(doc: OpenApiDocument, input: JsonSchema): Record<string, unknown> {
  const schema = deref(doc, input);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  return Object.fromEntries(required.map((name) => [name, sampleValue(doc, properties[name] ?? {})]));
}

/** Query-string form of a sampled value. */
export function asQueryValue(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}
