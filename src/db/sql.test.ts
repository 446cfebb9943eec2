import { preparedFor } from './sql';

/** Built at run time, as a repository builds its text on every request: a string of its own each time. */
const built = (...parts: string[]) => parts.join('');

describe('preparedFor (the named statements of hot reads)', () => {
  it('finds the statement of a text built anew, with its bindings numbered outside string literals', () => {
    const first = preparedFor(built('select ?::int as a, ', "'it''s ?'", ' as b where x = ?'));
    const again = preparedFor(built('select ?::int as a, ', "'it''s ?'", ' as b where x = ?'));
    expect(first).toEqual({ sql: "select ?::int as a, 'it''s ?' as b where x = ?", name: expect.stringMatching(/^hot_[0-9a-f]{20}$/), text: "select $1::int as a, 'it''s ?' as b where x = $2" });
    expect(again).toBe(first);
  });

  it('gives texts of the same length their own statements', () => {
    const a = preparedFor(built('select 1 from t where a = ?'));
    const b = preparedFor(built('select 1 from t where b = ?'));
    const c = preparedFor(built('select 1 from t where c = ?'));
    expect(new Set([a?.name, b?.name, c?.name]).size).toBe(3);
    expect([a?.text, b?.text, c?.text]).toEqual(['select 1 from t where a = $1', 'select 1 from t where b = $1', 'select 1 from t where c = $1']);
    expect(preparedFor(built('select 1 from t where b = ?'))).toBe(b);
  });

  it('prepares at most 500 texts; past them a text gets none (it runs through the ORM), the ones made are still found', () => {
    const made = Array.from({ length: 520 }, (_, i) => preparedFor(built(`select ${i} as n where y = ?`)));
    const none = made.findIndex((statement) => statement === undefined);
    // This file's earlier tests made 4 texts.
    expect(none).toBe(496);
    expect(made.slice(none).every((statement) => statement === undefined)).toBe(true);
    expect(preparedFor(built('select 0 as n where y = ?'))).toBe(made[0]);
  });
});
