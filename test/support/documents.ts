/** `query { ...F0 }` where each of n fragments spreads the next twice (2^n paths to the leaf): the walkers' worst case (issue 30). */
export function doublingFragments(n: number, leaf = '__typename'): string {
  const fragments = Array.from({ length: n }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
  return `query { ...F0 } ${fragments.join(' ')} fragment F${n} on Query { ${leaf} }`;
}
