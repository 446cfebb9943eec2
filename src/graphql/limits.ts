import {
  ASTVisitor,
  DocumentNode,
  FragmentDefinitionNode,
  getIntrospectionQuery,
  GraphQLError,
  Kind,
  parse,
  SelectionSetNode,
  ValidationContext,
} from 'graphql';

/** Nodes a document walker visited (selections, fragment bodies once each): tests assert it grows linearly with the document. */
export interface WalkStats {
  visited: number;
}

/** How deep a selection goes: along ordinary fields, and along paths through `__schema`/`__type` (0: none). */
export interface Depth {
  plain: number;
  introspection: number;
}

const isIntrospectionRoot = (name: string) => name === '__schema' || name === '__type';

/**
 * The depth of each operation of a document, fragments followed. Each fragment's depth is computed
 * once and reused wherever it is spread (its depth does not depend on where it is spread), so the
 * work is linear in the document however its fragments nest: a chain of fragments each spreading
 * the next twice costs one visit per selection, not 2^n. A fragment spread inside itself (a cycle,
 * which graphql-js's NoFragmentCyclesRule reports) counts 0 here.
 */
export function documentDepths(document: DocumentNode, stats?: WalkStats): (set: SelectionSetNode) => Depth {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const memo = new Map<string, Depth>();
  const inProgress = new Set<string>();

  const depthOf = (set: SelectionSetNode): Depth => {
    const depth: Depth = { plain: 0, introspection: 0 };
    const take = (other: Depth) => {
      depth.plain = Math.max(depth.plain, other.plain);
      depth.introspection = Math.max(depth.introspection, other.introspection);
    };
    for (const selection of set.selections) {
      if (stats) stats.visited += 1;
      if (selection.kind === Kind.FIELD) {
        const below = selection.selectionSet ? depthOf(selection.selectionSet) : { plain: 0, introspection: 0 };
        if (isIntrospectionRoot(selection.name.value)) {
          // Everything below __schema/__type counts towards the introspection depth.
          take({ plain: 0, introspection: 1 + Math.max(below.plain, below.introspection) });
        } else {
          take({ plain: 1 + below.plain, introspection: below.introspection ? 1 + below.introspection : 0 });
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        take(depthOf(selection.selectionSet));
      } else {
        const name = selection.name.value;
        const known = memo.get(name);
        if (known) {
          take(known);
          continue;
        }
        const fragment = fragments.get(name);
        if (!fragment || inProgress.has(name)) continue;
        inProgress.add(name);
        const computed = depthOf(fragment.selectionSet);
        inProgress.delete(name);
        memo.set(name, computed);
        take(computed);
      }
    }
    return depth;
  };
  return depthOf;
}

/** The introspection depth of graphql-js's own introspection query (what IDEs and codegen send), every option on: 15 with graphql 16. */
export const INTROSPECTION_QUERY_DEPTH = (() => {
  const document = parse(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }));
  const operation = document.definitions.find((def) => def.kind === Kind.OPERATION_DEFINITION)!;
  return documentDepths(document)(operation.selectionSet).introspection;
})();

/**
 * Rejects operations nested deeper than `maxDepth` fields (fragments followed, each once). Paths
 * through `__schema`/`__type` count too, up to the deeper of `maxDepth` and graphql-js's own
 * introspection query (INTROSPECTION_QUERY_DEPTH): an IDE's introspection passes, a document
 * nesting `fields { type { fields { type … } } }` further does not.
 */
export function depthLimit(maxDepth: number, stats?: WalkStats) {
  const maxIntrospectionDepth = Math.max(maxDepth, INTROSPECTION_QUERY_DEPTH);
  return (context: ValidationContext): ASTVisitor => {
    const depthOf = documentDepths(context.getDocument(), stats);
    return {
      OperationDefinition(node) {
        const { plain, introspection } = depthOf(node.selectionSet);
        if (plain > maxDepth) {
          context.reportError(
            new GraphQLError(`Query depth ${plain} exceeds the limit of ${maxDepth}`, {
              nodes: [node],
              extensions: { code: 'BAD_USER_INPUT' },
            }),
          );
        }
        if (introspection > maxIntrospectionDepth) {
          context.reportError(
            new GraphQLError(`Introspection depth ${introspection} exceeds the limit of ${maxIntrospectionDepth}`, {
              nodes: [node],
              extensions: { code: 'BAD_USER_INPUT' },
            }),
          );
        }
      },
    };
  };
}
