import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSchema, GraphQLSchema, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { graphqlName, restName } from '../../src/common/names';

const root = join(__dirname, '..', '..');

interface Rename {
  where: string;
  kind: string;
  from: string;
  to: string;
}

/** The rows of docs/graphql-renames.md's table. */
async function renames(): Promise<Rename[]> {
  const text = await readFile(join(root, 'docs', 'graphql-renames.md'), 'utf8');
  return [...text.matchAll(/^\| ([^|]+) \| (field|input field|argument) \| `([^`]+)` \| `([^`]+)` \|$/gm)].map((m) => ({
    where: m[1]!.trim(),
    kind: m[2]!,
    from: m[3]!,
    to: m[4]!,
  }));
}

/** The names a row's place has in the schema: a type's fields (or input fields), or a field's arguments. */
function namesAt(schema: GraphQLSchema, row: Rename): string[] | undefined {
  const argument = /^(\w+)\.(\w+)\(…\)$/.exec(row.where);
  const type = schema.getType(argument ? argument[1]! : row.where);
  if (!type || !(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) return undefined;
  if (row.kind === 'input field' && !isInputObjectType(type)) return undefined;
  if (row.kind === 'field' && isInputObjectType(type)) return undefined;
  const fields = type.getFields();
  if (!argument) return Object.keys(fields);
  const field = fields[argument[2]!];
  return field && 'args' in field ? field.args.map((a) => a.name) : undefined;
}

describe('docs/graphql-renames.md (the renames shipped to GraphQL clients)', () => {
  it('lists each rename once, with its new name in the schema and its old one gone, related by the one naming rule', async () => {
    const schema = buildSchema(await readFile(join(root, 'schema', 'schema.graphql'), 'utf8'));
    const rows = await renames();
    expect(rows.length).toBeGreaterThan(100);
    const keys = rows.map((r) => `${r.where} ${r.from}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const row of rows) {
      const names = namesAt(schema, row);
      expect({ row, found: names !== undefined }).toEqual({ row, found: true });
      expect({ row, hasNew: names!.includes(row.to), hasOld: names!.includes(row.from) }).toEqual({ row, hasNew: true, hasOld: false });
      // The old name is the REST name the REST face still uses: the same rule relates both (src/common/names.ts).
      expect({ row, graphql: graphqlName(row.from), rest: restName(row.to) }).toEqual({ row, graphql: row.to, rest: row.from });
    }
  });

  it('leaves no snake_case name in the schema that the table does not list', async () => {
    const schema = buildSchema(await readFile(join(root, 'schema', 'schema.graphql'), 'utf8'));
    const snake: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.name.includes('_')) snake.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) if (arg.name.includes('_')) snake.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    expect(snake).toEqual([]);
  });
});
