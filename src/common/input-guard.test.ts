import { inputProblems, unstorableCharacter } from './input-guard';

describe('input guard', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones and other characters', () => {
    expect(unstorableCharacter('a\u0000b')).toMatch(/NUL/);
    expect(unstorableCharacter('\ud800')).toMatch(/surrogate/);
    expect(unstorableCharacter('x\udc00')).toMatch(/surrogate/);
    expect(unstorableCharacter('\ud83d\ude00 🎵 ǅ \u0001 \uffff')).toBeUndefined();
  });

  it('names the field, array index and escaped key of each problem', () => {
    const problems = inputProblems({ a: { b: ['ok', 'x\u0000'] }, ['k\u0000']: 1 }, '');
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'a.b[1]', message: expect.stringMatching(/NUL/) },
        { field: 'k\\u0000', message: expect.stringMatching(/^key /) },
      ]),
    );
    expect(inputProblems(['\ud800'], 'songs')).toEqual([{ field: 'songs[0]', message: expect.stringMatching(/surrogate/) }]);
  });

  it('finds excessive nesting without recursion, however deep', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i += 1) deep = [deep];
    expect(inputProblems({ x: deep }, '', { maxDepth: 32, depthField: 'body' })).toEqual([{ field: 'body', message: 'is nested deeper than 32 levels' }]);
    let limit: unknown = 1;
    for (let i = 0; i < 31; i += 1) limit = [limit];
    expect(inputProblems({ x: limit }, '', { maxDepth: 32 })).toEqual([]);
  });

  it('checks depth alone when asked, and lists at most 20 problems', () => {
    expect(inputProblems({ a: '\u0000' }, '', { strings: false })).toEqual([]);
    expect(inputProblems(Array.from({ length: 1000 }, () => '\u0000'), 'list')).toHaveLength(20);
  });
});
