import { SerializedList, stringifyJson } from './pass-through';

describe('stringifyJson: passed-through lists written as their JSON text', () => {
  it('writes each list where it stands, in order, and everything else as JSON.stringify does', () => {
    const value = { a: new SerializedList('[{"x":1}]', 1), b: 'text "quoted" \\ \u0001', c: [new SerializedList('[]', 0), null, new SerializedList('[2,3]', 2)] };
    expect(stringifyJson(value)).toBe('{"a":[{"x":1}],"b":"text \\"quoted\\" \\\\ \\u0001","c":[[],null,[2,3]]}');
    expect(JSON.parse(stringifyJson(value))).toEqual({ a: [{ x: 1 }], b: 'text "quoted" \\ \u0001', c: [[], null, [2, 3]] });
  });

  it('answers JSON.stringify exactly when no list is passed through', () => {
    const value = { status: 'success', songs: [{ name: '\u2028 😀 \ud83d', n: 1.5 }], when: new Date(0) };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('refuses to write a list any other way: JSON.stringify of one throws instead of sending a placeholder', () => {
    expect(() => JSON.stringify({ items: new SerializedList('[]', 0) })).toThrow('outside stringifyJson');
    // and the state is left clean after a throw inside stringifyJson
    const bad = { toJSON: () => { throw new Error('boom'); } };
    expect(() => stringifyJson({ list: new SerializedList('[1]', 1), bad })).toThrow('boom');
    expect(() => JSON.stringify(new SerializedList('[]', 0))).toThrow('outside stringifyJson');
  });

  it('never takes a stored string for a list: text that looks like the mark stays text', () => {
    // A stored string cannot hold NUL; without it, or with an escaped backslash before it, nothing is replaced.
    const value = { a: '\\u0000', b: '"\\u0000abc:0"', c: new SerializedList('[7]', 1) };
    expect(JSON.parse(stringifyJson(value))).toEqual({ a: '\\u0000', b: '"\\u0000abc:0"', c: [7] });
  });

  it('iterates as an empty list (what the executor completes before the list is put in place)', () => {
    expect([...new SerializedList('[1,2]', 2)]).toEqual([]);
  });
});
