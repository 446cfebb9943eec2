import supertest from 'supertest';
import { createTestApp, TestApp } from '../app';
import { secondInstance } from '../support/render';
import { sharedSetting } from '../../src/db/settings';

const FILE = '0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.mp4';

/** A signed link's path and query, as a client would follow it on any instance. */
function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

describe('video link key without RENDER_URL_SECRET (issue 16)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it('is kept in the database: another instance and a restarted one accept the links', async () => {
    expect(t.config.render.urlSecret).toBeUndefined();
    const link = pathOf(t.deps.render.signer.sign(FILE).url);
    // A valid signature reaches the file lookup (404: no such run); a foreign key is refused (403).
    expect((await t.http().get(link)).status).toBe(404);
    expect((await t.http().get(link.replace(/signature=./, 'signature=A'))).status).toBe(403);

    for (let instance = 0; instance < 2; instance++) {
      const other = await secondInstance(t);
      try {
        const res = await supertest(other.app.server).get(link);
        expect(res.status).toBe(404);
      } finally {
        await other.close();
      }
    }
    const rows = await t.orm.em.getConnection().execute<{ value: string }[]>(`select value from settings where name = 'render_url_secret'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].value.length).toBeGreaterThanOrEqual(32);
  });

  it('instances starting together agree on one value', async () => {
    const values = await Promise.all(Array.from({ length: 8 }, (_, i) => sharedSetting(t.orm, 'race_test', () => `value-${i}`)));
    expect(new Set(values).size).toBe(1);
  });

  it('is never served to anyone: the key appears in no REST or GraphQL answer', async () => {
    const rows = await t.orm.em.getConnection().execute<{ value: string }[]>(`select value from settings where name = 'render_url_secret'`);
    const doc = await t.http().get('/api/openapi.json');
    expect(JSON.stringify(doc.body)).not.toContain(rows[0].value);
  });

  it('a configured RENDER_URL_SECRET wins over the stored key', async () => {
    const configured = await createTestApp({ seed: false, env: { RENDER_URL_SECRET: 'configured-secret-0123456789' } });
    try {
      const link = pathOf(t.deps.render.signer.sign(FILE).url);
      expect((await configured.http().get(link)).status).toBe(403);
      const own = pathOf(configured.deps.render.signer.sign(FILE).url);
      expect((await configured.http().get(own)).status).toBe(404);
      const rows = await configured.orm.em.getConnection().execute(`select 1 from settings where name = 'render_url_secret'`);
      expect(rows).toHaveLength(0);
    } finally {
      await configured.close();
    }
  });
});
