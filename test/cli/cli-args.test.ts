import { closest, mergePairs, parseValue } from '../../cli/src/cli.args';
import { UsageError } from '../../cli/src/cli.output';

describe('mas --prop/--var values and suggestions', () => {
  it('reads a value as JSON when it is JSON, else as the text given', () => {
    expect(parseValue('42')).toBe(42);
    expect(parseValue('-1.5')).toBe(-1.5);
    expect(parseValue('true')).toBe(true);
    expect(parseValue('null')).toBeNull();
    expect(parseValue('[1,"a"]')).toEqual([1, 'a']);
    expect(parseValue('{"a":1}')).toEqual({ a: 1 });
    expect(parseValue('"42"')).toBe('42');
    for (const text of ['007', '12px', 'Hello world', '#FF0000', '{unbalanced', 'trueish', '']) expect(parseValue(text)).toBe(text);
  });

  it('nests dotted keys and merges over the base, later pairs winning, the base untouched', () => {
    const base = { title: 'file', colors: { bg: '#000', fg: '#fff' } };
    const merged = mergePairs(base, ['colors.bg=#111', 'title=inline', 'size.width=640', 'title=last', 'tags=["a","b"]', 'note=a=b'], '--prop');
    expect(merged).toEqual({ title: 'last', colors: { bg: '#111', fg: '#fff' }, size: { width: 640 }, tags: ['a', 'b'], note: 'a=b' });
    expect(base).toEqual({ title: 'file', colors: { bg: '#000', fg: '#fff' } });
  });

  it('refuses a pair without a key, an empty segment, a prototype key, or nesting under a value', () => {
    for (const pair of ['novalue', '=x', 'a..b=1', '__proto__.polluted=1', 'constructor=1']) {
      expect(() => mergePairs({}, [pair], '--prop')).toThrow(UsageError);
    }
    expect(() => mergePairs({ title: 'x' }, ['title.size=1'], '--prop')).toThrow(/title.size nests under title/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('suggests the closest name within a typo distance, and nothing for a far word', () => {
    const commands = ['signup', 'verify', 'keys', 'render', 'runs', 'research', 'query', 'compositions', 'mcp'];
    expect(closest('rendr', commands)).toBe('render');
    expect(closest('compostions', commands)).toBe('compositions');
    expect(closest('RUNS', commands)).toBe('runs');
    expect(closest('qeury', commands)).toBe('query');
    expect(closest('xyzzy', commands)).toBeUndefined();
    expect(closest('mc', commands)).toBe('mcp');
  });
});
