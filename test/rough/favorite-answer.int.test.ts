import { createTestApp, TestApp } from '../app';
import { as, DEMO } from '../demo';

/** PUT /api/agents/templates/{id}/favorite answers the state it wrote (issue 16). */
describe('favorite answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const put = (headers: Record<string, string>, is_favourite: boolean) =>
    t.http().put(`/api/agents/templates/${DEMO.templatePublic}/favorite`).set(headers).send({ is_favourite });
  const stored = async () => {
    const rows = await t.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from template_favourites where template_id = ?', [DEMO.templatePublic]);
    return rows[0].n;
  };

  it('carries status, favorites_count and is_favourite, exact after the write', async () => {
    const on = await put(as.nora, true);
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ status: 'success', favorites_count: (await stored()), is_favourite: true });
    // Idempotent: the count does not move on a repeat.
    const again = await put(as.nora, true);
    expect(again.body).toEqual(on.body);
    // Sam's favourite may already be in the demo data: the answer is whatever the table now holds.
    const second = await put(as.sam, true);
    expect(second.body).toEqual({ status: 'success', favorites_count: await stored(), is_favourite: true });
    const off = await put(as.nora, false);
    expect(off.body).toEqual({ status: 'success', favorites_count: second.body.favorites_count - 1, is_favourite: false });
    expect(await stored()).toBe(off.body.favorites_count);
    const list = await t.http().get('/api/agents/templates').set(as.nora);
    const row = list.body.templates.find((x: { id: string }) => x.id === DEMO.templatePublic);
    expect(row).toMatchObject({ favorites_count: off.body.favorites_count, is_favourite: false });
  });

  it('a template the caller cannot see answers 404 and leaks no count', async () => {
    const res = await t.http().put('/api/agents/templates/6a0e2a47-8f7a-4d3c-9a55-0d4a9f1c2b3e/favorite').set(as.otto).send({ is_favourite: true });
    expect(res.status).toBe(404);
    expect(res.body.favorites_count).toBeUndefined();
  });
});
