import { as, DEMO, router } from '../../../test/demo';
import { createTestApp, TestApp } from '../../../test/app';
import { createAccount } from '../../../test/factories';
import {
  AgentTemplatesDocument,
  CreateAgentTemplateDocument,
  DeleteAgentTemplateDocument,
  SetAgentTemplateFavoriteDocument,
  UpdateAgentTemplateDocument,
} from '../../../test/generated/graphql';

type Template = { id: string; title: string; is_favourite: boolean; favorites_count: number; shared_emails: string[]; is_private: boolean };

const newTemplate = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: `About ${title}`,
  prompt: `Do ${title}`,
  ...extra,
});

describe('agent templates (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // deterministicBudgets: every charge is its statement, so a request's statement count is the same whatever ran before (production's leases take a lease with a
    // statement now and then, and charge from it with none in between).
    t = await createTestApp({ deterministicBudgets: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const list = async (headers: Record<string, string>): Promise<Template[]> => {
    const res = await t.http().get('/api/agents/templates').set(headers);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    return res.body.templates;
  };
  const titles = async (headers: Record<string, string>) => (await list(headers)).map((x) => x.title);

  it('lists own, public and shared templates by title, with creator and favourite state (REST = GraphQL)', async () => {
    const res = await t.http().get('/api/agents/templates').set(as.nora);
    expect(res.status).toBe(200);
    expect(res.body.templates.map((x: Template) => x.title)).toEqual(['Playlist pitch writer', 'Release plan drafter', 'Tour routing helper']);
    const [pitch, plan, tour] = res.body.templates;
    expect(pitch).toEqual({
      id: DEMO.templatePublic,
      title: 'Playlist pitch writer',
      description: 'Drafts a pitch to playlist curators for a new release.',
      prompt: 'Write a concise pitch for {{track}} by {{artist}} aimed at {{curator}}.',
      tags: ['pitching', 'playlists'],
      creator: { id: DEMO.ada, name: 'Ada Admin', image: 'https://images.example.com/ada.png', is_admin: true },
      is_private: false,
      is_favourite: true,
      favorites_count: 2,
      shared_emails: [],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(plan).toMatchObject({ id: DEMO.templatePrivate, is_private: true, is_favourite: true, favorites_count: 1, creator: { id: DEMO.nora, is_admin: false } });
    // Shared with Nora's address, owned by Sam: Nora does not see whom else it is shared with.
    expect(tour).toMatchObject({ id: DEMO.templateShared, is_favourite: false, shared_emails: [], creator: { id: DEMO.sam, name: 'Sam South', image: null } });

    const gql = await t.graphql(AgentTemplatesDocument, {}, as.nora);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.agentTemplates.items).toEqual(res.body.templates);
  });

  it('shows shared_emails only to the owner', async () => {
    const sams = await list(as.sam);
    expect(sams.map((x) => x.title)).toEqual(['Playlist pitch writer', 'Tour routing helper']);
    expect(sams[1].shared_emails).toEqual(['nora@northwind.test']);
    expect(sams[0].is_favourite).toBe(true);
  });

  it('hides private templates from strangers, organization members and admins', async () => {
    expect(await titles(as.otto)).toEqual(['Playlist pitch writer']);
    // Liam is in Northwind with Nora: membership does not open her private template.
    const liam = await createAccount(t.orm, { organizations: [DEMO.northwind] });
    expect(await titles(liam.headers)).toEqual(['Playlist pitch writer']);
    // Ada is in the admin organization: private stays private.
    expect(await titles(as.ada)).toEqual(['Playlist pitch writer']);
    const anon = await t.http().get('/api/agents/templates');
    expect(anon.status).toBe(401);
  });

  it('opens a private template to a shared address (case-insensitively) until the owner unshares it', async () => {
    const owner = await createAccount(t.orm);
    const friend = await createAccount(t.orm, { email: 'friend.share@example.test' });
    const created = await t.http().post('/api/agents/templates').set(owner.headers)
      .send(newTemplate('Secret sauce', { is_private: true, shared_emails: ['Friend.Share@Example.TEST', 'friend.share@example.test', 'x@example.test'], tags: ['a', 'a', 'b'] }));
    expect(created.status).toBe(200);
    expect(created.body.template).toMatchObject({
      title: 'Secret sauce',
      is_private: true,
      tags: ['a', 'b'],
      shared_emails: ['friend.share@example.test', 'x@example.test'],
      favorites_count: 0,
      is_favourite: false,
      creator: { id: owner.account.id, is_admin: false },
    });
    const id = created.body.template.id;
    expect(await titles(friend.headers)).toContain('Secret sauce');
    expect(await titles(as.otto)).not.toContain('Secret sauce');

    const friendFav = await t.http().put(`/api/agents/templates/${id}/favorite`).set(friend.headers).send({ is_favourite: true });
    expect(friendFav.status).toBe(200);
    expect(friendFav.body).toMatchObject({ status: 'success', is_favourite: true });

    const unshared = await t.http().patch(`/api/agents/templates/${id}`).set(owner.headers).send({ shared_emails: [] });
    expect(unshared.status).toBe(200);
    expect(unshared.body.template.shared_emails).toEqual([]);
    expect(await titles(friend.headers)).not.toContain('Secret sauce');
    const hidden = await t.http().put(`/api/agents/templates/${id}/favorite`).set(friend.headers).send({ is_favourite: false });
    expect(hidden.status).toBe(404);
  });

  it('sets favourites idempotently and refuses templates the caller cannot see', async () => {
    const path = `/api/agents/templates/${DEMO.templatePublic}/favorite`;
    for (let i = 0; i < 2; i += 1) {
      const res = await t.http().put(path).set(as.otto).send({ is_favourite: true });
      expect(res.status).toBe(200);
    }
    let pitch = (await list(as.otto))[0];
    expect(pitch).toMatchObject({ is_favourite: true, favorites_count: 3 });
    for (let i = 0; i < 2; i += 1) {
      expect((await t.http().put(path).set(as.otto).send({ is_favourite: false })).status).toBe(200);
    }
    pitch = (await list(as.otto))[0];
    expect(pitch).toMatchObject({ is_favourite: false, favorites_count: 2 });

    const privateOfNora = await t.http().put(`/api/agents/templates/${DEMO.templatePrivate}/favorite`).set(as.otto).send({ is_favourite: true });
    expect(privateOfNora.status).toBe(404);
    expect(privateOfNora.body.code).toBe('NOT_FOUND');
    const missing = await t.http().put('/api/agents/templates/6a0e2a47-8f7a-4d3c-9a55-0d4a9f1c2b3e/favorite').set(as.otto).send({ is_favourite: true });
    expect(missing.status).toBe(404);
    // Shared with Nora's address: she may favourite it.
    expect((await t.http().put(`/api/agents/templates/${DEMO.templateShared}/favorite`).set(as.nora).send({ is_favourite: true })).status).toBe(200);

    const gql = await t.graphql(SetAgentTemplateFavoriteDocument, { input: { id: DEMO.templatePrivate, isFavourite: true } }, as.sam);
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const anon = await t.http().put(path).send({ is_favourite: true });
    expect(anon.status).toBe(401);
  });

  it('keeps favorites_count exact under concurrent PUTs from many accounts', async () => {
    const owner = await createAccount(t.orm);
    const created = await t.http().post('/api/agents/templates').set(owner.headers).send(newTemplate('Crowd favourite'));
    const id: string = created.body.template.id;
    const fans = await Promise.all(Array.from({ length: 24 }, () => createAccount(t.orm)));
    const put = (headers: Record<string, string>, value: boolean) =>
      t.http().put(`/api/agents/templates/${id}/favorite`).set(headers).send({ is_favourite: value });

    // Every fan twice at once: 48 concurrent PUTs, 24 favourites.
    const first = await Promise.all(fans.flatMap((f) => [put(f.headers, true), put(f.headers, true)]));
    expect(first.map((r) => r.status)).toEqual(first.map(() => 200));
    const count = async () => {
      const rows = await t.orm.em.getConnection().execute<{ stored: number; actual: string }[]>(
        'select favorites_count as stored, (select count(*) from template_favourites where template_id = ?) as actual from agent_templates where id = ?',
        [id, id],
      );
      return { stored: rows[0].stored, actual: Number(rows[0].actual) };
    };
    expect(await count()).toEqual({ stored: 24, actual: 24 });

    // Half take it back while the other half set it again, all at once.
    const second = await Promise.all(fans.map((f, i) => put(f.headers, i % 2 === 1)));
    expect(second.every((r) => r.status === 200)).toBe(true);
    expect(await count()).toEqual({ stored: 12, actual: 12 });
    const seen = (await list(owner.headers)).find((x) => x.id === id)!;
    expect(seen.favorites_count).toBe(12);
  });

  it('answers 400 naming the field for bad ids and bodies', async () => {
    const badId = await t.http().put('/api/agents/templates/not-a-uuid/favorite').set(as.nora).send({ is_favourite: true });
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'id', message: 'must be a UUID' }] });
    const maybe = await t.http().put(`/api/agents/templates/${DEMO.templatePublic}/favorite`).set(as.nora).send({ is_favourite: 'maybe' });
    expect(maybe.status).toBe(400);
    expect(maybe.body.details).toEqual([{ field: 'is_favourite', message: 'must be true or false' }]);
    const missing = await t.http().put(`/api/agents/templates/${DEMO.templatePublic}/favorite`).set(as.nora).send({});
    expect(missing.body.details).toEqual([{ field: 'is_favourite', message: 'is required' }]);

    const cases: [Record<string, unknown>, string][] = [
      [{ description: 'd', prompt: 'p' }, 'title'],
      [newTemplate('   '), 'title'],
      [newTemplate('x'.repeat(121)), 'title'],
      [newTemplate('ok', { prompt: '' }), 'prompt'],
      [newTemplate('ok', { description: 'd'.repeat(2001) }), 'description'],
      [newTemplate('ok', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), 'tags'],
      [newTemplate('ok', { tags: ['fine', ''] }), 'tags[1]'],
      [newTemplate('ok', { tags: 'solo' }), 'tags'],
      [newTemplate('ok', { shared_emails: ['not-an-address'] }), 'shared_emails[0]'],
      [newTemplate('ok', { is_private: 'yes' }), 'is_private'],
    ];
    for (const [body, field] of cases) {
      const res = await t.http().post('/api/agents/templates').set(as.otto).send(body);
      expect({ field, status: res.status, fields: res.body.details?.map((d: { field: string }) => d.field) }).toEqual({ field, status: 400, fields: [field] });
    }
    const patchBad = await t.http().patch('/api/agents/templates/123').set(as.nora).send({ title: 'x' });
    expect(patchBad.status).toBe(400);
    const deleteBad = await t.http().delete('/api/agents/templates/123').set(as.nora);
    expect(deleteBad.status).toBe(400);
    const gql = await t.graphql(CreateAgentTemplateDocument, { input: { ...newTemplate('gql'), sharedEmails: ['nope'] } }, as.otto);
    expect(gql.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', details: [{ field: 'sharedEmails[0]', message: 'must be an e-mail address' }] });
  });

  it('lets only the owner edit or delete: 404 when hidden, 403 when visible', async () => {
    const patch = (id: string, headers: Record<string, string>, body: Record<string, unknown>) =>
      t.http().patch(`/api/agents/templates/${id}`).set(headers).send(body);
    expect((await patch(DEMO.templatePrivate, as.sam, { title: 'Mine now' })).status).toBe(404);
    expect((await patch(DEMO.templatePublic, as.otto, { title: 'Mine now' })).status).toBe(403);
    expect((await patch(DEMO.templateShared, as.nora, { is_private: false })).status).toBe(403);
    expect((await t.http().delete(`/api/agents/templates/${DEMO.templatePrivate}`).set(as.sam)).status).toBe(404);
    expect((await t.http().delete(`/api/agents/templates/${DEMO.templatePublic}`).set(as.nora)).status).toBe(403);
    expect((await t.http().delete(`/api/agents/templates/${DEMO.templatePublic}`).set(as.sam)).body.code).toBe('FORBIDDEN');
    const gql = await t.graphql(DeleteAgentTemplateDocument, { input: { id: DEMO.templatePublic } }, as.otto);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await list(as.otto)).find((x) => x.id === DEMO.templatePublic)?.title).toBe('Playlist pitch writer');

    const owner = await createAccount(t.orm);
    const created = await t.http().post('/api/agents/templates').set(owner.headers).send(newTemplate('Draft one', { tags: ['x'] }));
    const id = created.body.template.id;
    const renamed = await patch(id, owner.headers, { title: 'Final one', is_private: true });
    expect(renamed.status).toBe(200);
    expect(renamed.body.template).toMatchObject({ id, title: 'Final one', is_private: true, tags: ['x'], description: 'About Draft one' });
    expect(await titles(as.otto)).not.toContain('Final one');
    const viaGql = await t.graphql(UpdateAgentTemplateDocument, { input: { id, isPrivate: false } }, owner.headers);
    expect(viaGql.body.data.updateAgentTemplate).toMatchObject({ id, is_private: false, title: 'Final one' });
    expect(await titles(as.otto)).toContain('Final one');

    const removed = await t.http().delete(`/api/agents/templates/${id}`).set(owner.headers);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ status: 'success' });
    expect(await titles(owner.headers)).not.toContain('Final one');
    expect((await t.http().delete(`/api/agents/templates/${id}`).set(owner.headers)).status).toBe(404);
  });

  it('keeps titles unique per creator (409), not across creators', async () => {
    const dup = await t.http().post('/api/agents/templates').set(as.nora).send(newTemplate('Release plan drafter'));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT', details: [{ field: 'title' }] });
    expect(JSON.stringify(dup.body)).not.toMatch(/duplicate key|constraint|insert/i);
    const other = await t.http().post('/api/agents/templates').set(as.otto).send(newTemplate('Release plan drafter'));
    expect(other.status).toBe(200);
    const second = await t.http().post('/api/agents/templates').set(as.otto).send(newTemplate('Another title'));
    const clash = await t.http().patch(`/api/agents/templates/${second.body.template.id}`).set(as.otto).send({ title: 'Release plan drafter' });
    expect(clash.status).toBe(409);
    const gql = await t.graphql(CreateAgentTemplateDocument, { input: newTemplate('Another title') }, as.otto);
    expect(gql.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it('costs a constant number of SQL statements for the list, whatever its length', async () => {
    const owner = await createAccount(t.orm);
    await t.http().get('/api/agents/templates').set(owner.headers); // the key's last-used stamp is written once a minute
    const short = await t.sql.measure(() => t.http().get('/api/agents/templates').set(owner.headers));
    expect(short.result.status).toBe(200);
    const fans = await Promise.all(Array.from({ length: 3 }, () => createAccount(t.orm)));
    for (let i = 0; i < 30; i += 1) {
      const res = await t.http().post('/api/agents/templates').set(owner.headers)
        .send(newTemplate(`Bulk ${String(i).padStart(2, '0')}`, { is_private: i % 2 === 1, shared_emails: [`s${i}@example.test`, `t${i}@example.test`] }));
      if (i % 6 === 0) {
        // Public (even i), so the fans may favourite it.
        for (const headers of [...fans.map((f) => f.headers), owner.headers]) {
          const fav = await t.http().put(`/api/agents/templates/${res.body.template.id}/favorite`).set(headers).send({ is_favourite: true });
          expect(fav.status).toBe(200);
        }
      }
    }
    const long = await t.sql.measure(() => t.http().get('/api/agents/templates').set(owner.headers));
    expect(long.result.body.templates.length).toBeGreaterThanOrEqual(31);
    const bulk0 = long.result.body.templates.find((x: Template) => x.title === 'Bulk 00');
    expect(bulk0).toMatchObject({ is_favourite: true, favorites_count: 4, shared_emails: ['s0@example.test', 't0@example.test'] });
    expect(long.count).toBe(short.count);
    expect(long.count).toBeLessThanOrEqual(4);
    const gql = await t.sql.measure(() => t.graphql(AgentTemplatesDocument, {}, owner.headers));
    expect(gql.result.body.data.agentTemplates.items).toHaveLength(long.result.body.templates.length);
    expect(gql.count).toBeLessThanOrEqual(4);
  });

  it('resolves AgentTemplate federation references with the same visibility', async () => {
    const query = `query ($representations: [_Any!]!) { _entities(representations: $representations) {
      ... on AgentTemplate { id title is_favourite: isFavourite shared_emails: sharedEmails creator { name is_admin: isAdmin } } } }`;
    const representations = [
      { __typename: 'AgentTemplate', id: DEMO.templatePrivate },
      { __typename: 'AgentTemplate', id: DEMO.templateShared },
      { __typename: 'AgentTemplate', id: DEMO.templatePublic },
      { __typename: 'AgentTemplate', id: 'not-a-uuid' },
    ];
    const nora = await t.graphql(query, { representations }, { ...as.nora, ...router });
    expect(nora.body.errors).toBeUndefined();
    expect(nora.body.data._entities).toEqual([
      { id: DEMO.templatePrivate, title: 'Release plan drafter', is_favourite: true, shared_emails: [], creator: { name: 'Nora North', is_admin: false } },
      // Nora favourited the shared template in the favourites test above.
      { id: DEMO.templateShared, title: 'Tour routing helper', is_favourite: true, shared_emails: [], creator: { name: 'Sam South', is_admin: false } },
      { id: DEMO.templatePublic, title: 'Playlist pitch writer', is_favourite: expect.any(Boolean), shared_emails: [], creator: { name: 'Ada Admin', is_admin: true } },
      null,
    ]);
    const otto = await t.graphql(query, { representations }, { ...as.otto, ...router });
    expect(otto.body.data._entities.map((e: { id: string } | null) => e?.id ?? null)).toEqual([null, null, DEMO.templatePublic, null]);
    const sam = await t.graphql(query, { representations: [{ __typename: 'AgentTemplate', id: DEMO.templateShared }] }, { ...as.sam, ...router });
    expect(sam.body.data._entities[0].shared_emails).toEqual(['nora@northwind.test']);
  });
});
