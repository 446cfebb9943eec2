import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildSchema,
  GraphQLNamedType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
} from 'graphql';

/**
 * GraphQL's naming conventions and a description on everything a client reads, checked on the
 * emitted schema (schema/subgraph.graphql: what a router composes and a client introspects; the
 * schema drift test keeps it equal to what the code builds).
 */

/** Types of the federation spec (and built-in scalars): not the service's to name or describe. */
const FOREIGN_TYPES = new Set(['_Any', '_Entity', '_Service', 'FieldSet', 'link__Import', 'link__Purpose', 'federation__Policy', 'federation__Scope']);
const FOREIGN_FIELDS = new Set(['Query._service', 'Query._entities', '_Service.sdl']);
/**
 * The page type's own fields, whose shape (and names) the page-shape work of issue #27 replaces;
 * every other field follows the conventions.
 */
const PAGE_SHAPE_FIELDS = new Set(['Pagination.total_count', 'Pagination.total_pages']);

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;
const CAMEL_CASE = /^[a-z][A-Za-z0-9]*$/;
const UPPER_CASE = /^[A-Z][A-Z0-9_]*$/;

const ours = (type: GraphQLNamedType) =>
  !isIntrospectionType(type) && !isSpecifiedScalarType(type) && !FOREIGN_TYPES.has(type.name) && !type.name.startsWith('link__') && !type.name.startsWith('federation__');

/** Every way the schema breaks the conventions, one line each (`Type.field: …`). */
export function conventionProblems(schema: GraphQLSchema): string[] {
  const problems: string[] = [];
  const described = (where: string, description: string | null | undefined) => {
    if (!description?.trim()) problems.push(`${where}: has no description`);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!ours(type)) continue;
    if (!PASCAL_CASE.test(type.name)) problems.push(`${type.name}: a type name is PascalCase`);
    described(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        const where = `${type.name}.${field.name}`;
        if (FOREIGN_FIELDS.has(where)) continue;
        if (!CAMEL_CASE.test(field.name) && !PAGE_SHAPE_FIELDS.has(where)) problems.push(`${where}: a field name is camelCase`);
        described(where, field.description);
        for (const arg of 'args' in field ? field.args : []) {
          if (!CAMEL_CASE.test(arg.name)) problems.push(`${where}(${arg.name}): an argument name is camelCase`);
          described(`${where}(${arg.name})`, arg.description);
        }
      }
    }
    if (isEnumType(type)) {
      const values = type.getValues();
      // One case per enum, the one its description documents: RunStatus in UPPER_CASE, AccountKind in camelCase.
      const upper = values.every((v) => UPPER_CASE.test(v.name));
      const camel = values.every((v) => CAMEL_CASE.test(v.name));
      if (!upper && !camel) problems.push(`${type.name}: enum values are all UPPER_CASE or all camelCase`);
      for (const value of values) described(`${type.name}.${value.name}`, value.description);
    }
    if (isUnionType(type)) described(type.name, type.description);
  }
  return problems;
}

describe('GraphQL schema conventions (schema/subgraph.graphql)', () => {
  it('names every type in PascalCase and every field and argument in camelCase, and describes each of them and every enum value', async () => {
    const sdl = await readFile(join(__dirname, '..', '..', 'schema', 'subgraph.graphql'), 'utf8');
    const schema = buildSchema(sdl.replace(/^extend schema @link[^\n]*\n/m, ''), { assumeValidSDL: true });
    expect(conventionProblems(schema)).toEqual([]);
  });

  it('fails on a snake_case name, a missing description and mixed enum cases (the check can fail)', () => {
    const schema = buildSchema(`
      """Reads"""
      type Query {
        """A thing"""
        thing(
          """fine"""
          someId: ID
          other_id: ID
        ): Thing
      }
      """A thing"""
      type Thing {
        created_at: String
        """Its state"""
        state: state
      }
      enum state {
        """on"""
        ON
        off
      }
    `);
    expect(conventionProblems(schema).sort()).toEqual(
      [
        'Query.thing(other_id): an argument name is camelCase',
        'Query.thing(other_id): has no description',
        'Thing.created_at: a field name is camelCase',
        'Thing.created_at: has no description',
        'state: a type name is PascalCase',
        'state: enum values are all UPPER_CASE or all camelCase',
        'state: has no description',
        'state.off: has no description',
      ].sort(),
    );
  });
});
