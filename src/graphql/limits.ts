import { GraphQLError, Kind, ValidationContext, ASTVisitor, FragmentDefinitionNode, SelectionSetNode } from 'graphql';

/** Rejects operations nested deeper than `maxDepth` fields (fragments followed; introspection fields exempt). */
export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    }
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let max = 0;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          // Introspection (IDEs ask for ~15 levels of ofType) is governed by GRAPHQL_INTROSPECTION
          // and the token limit instead.
          if (selection.name.value === '__schema' || selection.name.value === '__type') continue;
          max = Math.max(max, selection.selectionSet ? 1 + depthOf(selection.selectionSet, seen) : 1);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(selection.selectionSet, seen));
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (fragment && !seen.has(name)) max = Math.max(max, depthOf(fragment.selectionSet, new Set([...seen, name])));
        }
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`Query depth ${depth} exceeds the limit of ${maxDepth}`, {
              nodes: [node],
              extensions: { code: 'BAD_USER_INPUT' },
            }),
          );
        }
      },
    };
  };
}
