import type supertest from 'supertest';
import { DEMO } from '../../src/db/seeders/demo.data';
import { DEMO_RESEARCH } from '../../src/db/seeders/research.seed';
import { as } from '../demo';

/**
 * What a request built from the OpenAPI document cannot invent: ids of demo rows for path
 * parameters, and required inputs whose valid values a schema alone does not give (a pattern, an
 * id of a row the caller may reach). Everything else is built from the document itself.
 *
 * Keys are `METHOD /api/path` in the document's form (`{param}`). A documented path parameter
 * that has no value here or in PARAMS fails the test, naming it.
 */
export interface RouteExample {
  /** Credentials (default: Nora, member of Northwind Records, with roster artists and a session). */
  as?: Record<string, string>;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Expected status (default: the documented success status). */
  status?: number;
  /** Runs first (e.g. creates the row a path parameter names); its answer is merged into the example. */
  prepare?: (http: () => supertest.Agent) => Promise<Partial<RouteExample>>;
}

/** A public address as an IP literal: registration needs no DNS lookup, and no test sends to it. */
const WEBHOOK_URL = 'https://93.184.215.14/hooks/documented';

/** Path parameter values by parameter name, for routes without their own entry. */
export const PARAMS: Record<string, string> = {
  sessionId: DEMO.sessionNora,
  chatId: DEMO.chatPlan,
};

export const ROUTES: Record<string, RouteExample> = {
  'POST /api/organizations': { as: as.otto, body: { name: 'Documented Org' } },
  'GET /api/accounts/{accountId}/limits': { as: as.ada, params: { accountId: DEMO.otto } },
  'PUT /api/accounts/{accountId}/limits': { as: as.ada, params: { accountId: DEMO.otto }, body: {} },
  'POST /api/organizations/{id}/members': { params: { id: DEMO.northwind }, body: { account_id: DEMO.otto } },
  'DELETE /api/organizations/{id}/members/{accountId}': { params: { id: DEMO.northwind, accountId: DEMO.otto } },
  'DELETE /api/organizations/{id}': {
    as: as.otto,
    prepare: async (http) => ({ params: { id: (await http().post('/api/organizations').set(as.otto).send({ name: 'Short-lived Org' })).body.organization.id } }),
  },

  'POST /api/agents/signup': { body: { email: 'agent+documented@example.test' } },
  // No code was sent to this address: a wrong code is the documented 400.
  'POST /api/agents/verify': { body: { email: 'documented@example.test', code: '000000' }, status: 400 },
  'POST /api/keys': { body: { name: 'documented key' } },
  'DELETE /api/keys/{id}': {
    // A key of its own, so Nora's demo key stays valid for the requests after this one.
    prepare: async (http) => ({ params: { id: (await http().post('/api/keys').set(as.nora).send({ name: 'to revoke' })).body.key.id } }),
  },
  'PUT /api/agents/templates/{id}/favorite': { params: { id: DEMO.templatePublic } },
  'PATCH /api/agents/templates/{id}': { params: { id: DEMO.templatePrivate } },
  'DELETE /api/agents/templates/{id}': { params: { id: DEMO.templatePrivate } },

  'GET /api/artist/socials': { query: { artist_account_id: DEMO.luna } },
  'GET /api/artists/{id}/socials': { params: { id: DEMO.luna } },
  'POST /api/artists/{id}/socials': { params: { id: DEMO.luna }, body: { profile_url: 'https://social.example/luna-docs', username: 'luna-docs' } },
  'PATCH /api/artists/{id}': { params: { id: DEMO.luna }, body: { research_id: '4100021' } },

  'POST /api/catalogs': { body: { name: 'Documented catalog' } },
  'GET /api/catalogs/songs': { query: { catalog_id: DEMO.catalogNorthwind } },
  'POST /api/catalogs/songs': { body: { songs: [{ catalog_id: DEMO.catalogNorthwind, isrc: 'GBNWR2400099', name: 'Documented Song' }] } },
  'DELETE /api/catalogs/songs': { body: { songs: [{ catalog_id: DEMO.catalogNorthwind, isrc: 'GBNWR2400099' }] } },
  'DELETE /api/catalogs': { body: { catalogs: [{ catalog_id: DEMO.catalogShared, account_id: DEMO.northwind }] } },

  // Served from the stored provider answers of the demo data set (no provider is configured in tests).
  'GET /api/research/track/stats': { query: { isrc: DEMO_RESEARCH.tracks[0].isrc, source: 'platform_a' } },
  'GET /api/research/curator': { query: { platform: 'platform_a', id: DEMO_RESEARCH.curators[0].id } },
  'GET /api/research/tracks': { query: { artist: String(DEMO_RESEARCH.artists[0].id) } },
  'GET /api/research/playlists': { query: { artist: String(DEMO_RESEARCH.artists[0].id) } },
  'GET /api/research': { query: { q: DEMO_RESEARCH.artists[0].name, type: 'artists' } },
  'GET /api/platform_a/search': { query: { q: DEMO_RESEARCH.artists[0].name, type: 'artist' } },

  'POST /api/video/render': { body: { compositionId: 'title-card', inputProps: { title: 'Documented' } } },
  'POST /api/tasks/runs/{runId}/cancel': {
    prepare: async (http) => {
      const res = await http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Documented' } });
      return { params: { runId: res.body.runId } };
    },
  },

  // Webhooks: a public address as an IP literal (no DNS in tests); the endpoint each route names is Nora's own.
  'POST /api/webhooks': { body: { url: WEBHOOK_URL, events: ['render_run.completed'] } },
  'GET /api/webhooks/{id}': { prepare: async (http) => ({ params: { id: await webhookOf(http) } }) },
  'PATCH /api/webhooks/{id}': { prepare: async (http) => ({ params: { id: await webhookOf(http) } }) },
  'DELETE /api/webhooks/{id}': { prepare: async (http) => ({ params: { id: await webhookOf(http) } }) },
  'POST /api/webhooks/{id}/rotate-secret': { prepare: async (http) => ({ params: { id: await webhookOf(http) } }) },
  'POST /api/webhooks/{id}/ping': { prepare: async (http) => ({ params: { id: await webhookOf(http) } }) },
  'GET /api/webhooks/{id}/deliveries': { prepare: async (http) => ({ params: { id: await webhookOf(http) } }) },
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    prepare: async (http) => {
      const id = await webhookOf(http);
      const ping = await http().post(`/api/webhooks/${id}/ping`).set(as.nora);
      return { params: { id, deliveryId: ping.body.delivery.id } };
    },
  },
};

/** A fresh webhook endpoint of Nora's (each route its own: one deletes it). */
async function webhookOf(http: () => supertest.Agent): Promise<string> {
  const res = await http().post('/api/webhooks').set(as.nora).send({ url: WEBHOOK_URL, events: ['render_run.completed'] });
  return res.body.webhook.id as string;
}
