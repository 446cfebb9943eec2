import { getOperationAST, parse } from 'graphql';
import { publicRootFields, rootFieldNames } from './credentials.plugin';
import { buildPlainSchema } from './schema';
import { resolvers } from '../modules';

describe('which root fields need credentials', () => {
  it('every Query, Mutation and Subscription field needs them but the two onboarding mutations (no @Authorized)', async () => {
    const schema = await buildPlainSchema({ resolvers });
    const open = publicRootFields();
    expect([...open].sort()).toEqual(['Mutation.signupAgent', 'Mutation.verifyAgent']);
    // Each named field exists: a renamed resolver cannot leave a stale public name behind.
    for (const name of open) {
      const [root, field] = name.split('.') as ['Mutation', string];
      expect(schema.getMutationType()?.getFields()[field]).toBeDefined();
      expect(root).toBe('Mutation');
    }
  });

  it('finds the root fields through fragments and inline fragments, each fragment once', () => {
    const document = parse('query { a ...F ... on Query { b } } fragment F on Query { c ...F ...G } fragment G on Query { d }');
    expect([...rootFieldNames(document, getOperationAST(document)!)].sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});
