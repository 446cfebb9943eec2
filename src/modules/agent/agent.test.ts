import { z } from 'zod';
import { createTemplateInput, setFavoriteInput, unique, updateTemplateInput } from './agent.inputs';

describe('agent template inputs', () => {
  const base = { title: 'T', description: 'D', prompt: 'P' };
  it('lower-cases and trims shared addresses, rejects malformed ones', () => {
    expect(createTemplateInput.parse({ ...base, shared_emails: ['  Nora@Northwind.TEST '] }).shared_emails).toEqual(['nora@northwind.test']);
    expect(createTemplateInput.safeParse({ ...base, shared_emails: ['nora@'] }).success).toBe(false);
  });
  it('bounds tags and titles', () => {
    expect(createTemplateInput.safeParse({ ...base, tags: Array.from({ length: 20 }, (_, i) => `t${i}`) }).success).toBe(true);
    expect(createTemplateInput.safeParse({ ...base, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }).success).toBe(false);
    expect(createTemplateInput.safeParse({ ...base, tags: ['x'.repeat(41)] }).success).toBe(false);
    expect(createTemplateInput.safeParse({ ...base, title: 'x'.repeat(120) }).success).toBe(true);
    expect(createTemplateInput.safeParse({ ...base, title: 'x'.repeat(121) }).success).toBe(false);
  });
  it('needs a UUID id and a real boolean for favourites', () => {
    expect(setFavoriteInput.safeParse({ id: 'abc', is_favourite: true }).success).toBe(false);
    expect(setFavoriteInput.safeParse({ id: '5f0c6d3e-2b1a-4c9d-8e7f-6a5b4c3d2e1f', is_favourite: 'true' }).success).toBe(false);
    expect(updateTemplateInput.safeParse({ id: '5f0c6d3e-2b1a-4c9d-8e7f-6a5b4c3d2e1f' }).success).toBe(true);
  });
  it('keeps the first of duplicate values in order', () => {
    expect(unique(['b', 'a', 'b'])).toEqual(['b', 'a']);
  });
  it('can be described as JSON Schema for the OpenAPI document', () => {
    for (const schema of [createTemplateInput, updateTemplateInput, setFavoriteInput]) expect(() => z.toJSONSchema(schema)).not.toThrow();
  });
});
