import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { graphql } from 'graphql';
import { Authorized, Ctx, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import type { Viewer } from '../auth/viewer';
import type { Context } from '../request/context';
import { checkResolverParams, CurrentViewer, ParsedArg } from './params';
import { buildPlainSchema } from './schema';

const MODULES = join(__dirname, '..', 'modules');

/** Every resolver file of the modules: the type-graphql resolvers, the federation references (`*.reference.ts`, `index.ts`). */
function resolverFiles(): string[] {
  return readdirSync(MODULES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(MODULES, d.name))
        .filter((f) => f.endsWith('.resolver.ts') || f.endsWith('.reference.ts') || f === 'index.ts')
        .map((f) => join(MODULES, d.name, f)),
    );
}

@ObjectType()
class Thing {
  @Field() id!: string;
  @Field() by!: string;
}

const idInput = z.object({ id: z.string().uuid({ message: 'must be a UUID' }) });

@Resolver()
class ThingResolver {
  @Authorized()
  @Query(() => Thing, { nullable: true })
  gated(@CurrentViewer() viewer: Viewer, @ParsedArg('id', () => ID, idInput) id: string): Thing {
    return { id, by: viewer.accountId };
  }

  // No @Authorized(): the viewer decorator is this field's gate.
  @Query(() => Thing, { nullable: true })
  open(@Ctx() _ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedArg('id', () => ID, idInput) id: string): Thing {
    return { id, by: viewer.accountId };
  }
}

@Resolver()
class BackwardsResolver {
  @Query(() => Thing, { nullable: true })
  backwards(@ParsedArg('id', () => ID, idInput) id: string, @CurrentViewer() viewer: Viewer): Thing {
    return { id, by: viewer.accountId };
  }
}

const ID_OK = '00000000-0000-4000-8000-000000000001';
const viewer = { accountId: 'acc-1' } as Viewer;

async function ask(field: 'gated' | 'open', id: string, who: Viewer | null) {
  const schema = await buildPlainSchema({ resolvers: [ThingResolver] });
  return graphql({ schema, source: `query($id: ID!) { ${field}(id: $id) { id by } }`, variableValues: { id }, contextValue: { viewer: who } });
}

describe('the caller and the input are decided at the framework seam', () => {
  it('no resolver body checks the caller (requireViewer) or parses (validate): the parameter decorators (and withViewer, subscribeAs) do', () => {
    const files = resolverFiles();
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\b(requireViewer|validate)\(/.test(line) ? [`${relative(process.cwd(), file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it.each(['gated', 'open'] as const)('%s: the viewer and the parsed argument reach the resolver', async (field) => {
    const result = await ask(field, ID_OK, viewer);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ [field]: { id: ID_OK, by: 'acc-1' } });
  });

  it.each(['gated', 'open'] as const)('%s: without a caller UNAUTHENTICATED, before the input is looked at', async (field) => {
    const result = await ask(field, 'not-a-uuid', null);
    expect(result.errors?.map((e) => [e.message, e.extensions.code])).toEqual([['Missing credentials: send x-api-key or Authorization: Bearer', 'UNAUTHENTICATED']]);
  });

  it('a bad argument is a BAD_USER_INPUT naming it, with the schema\'s message', async () => {
    const result = await ask('gated', 'not-a-uuid', viewer);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'id', message: 'must be a UUID' }] });
  });

  it('refuses, when the schema is built, a resolver that would parse its input before deciding its caller', async () => {
    expect(() => checkResolverParams([ThingResolver])).not.toThrow();
    expect(() => checkResolverParams([BackwardsResolver])).toThrow('BackwardsResolver.backwards: @CurrentViewer() must come before the parsed parameters');
    await expect(buildPlainSchema({ resolvers: [BackwardsResolver] })).rejects.toThrow('BackwardsResolver.backwards');
  });
});
