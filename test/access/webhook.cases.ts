import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookRepository } from '../../src/modules/webhook/webhook.repository';
import { newSigningSecret } from '../../src/modules/webhook/webhook.service';
import type { AccessCases, Situation } from './registry';
import { dbOf } from '../../src/db/request-db';

/** Webhook endpoints are personal (as API keys are): every /api/webhooks route refuses account_id. */
const refusesAccountId = { 'same-org account_id': 400, 'other-org account_id': 400, 'admin account_id': 400 } as const;
/** A public address written as an IP literal: no DNS lookup, and nothing is sent (the matrix runs no delivery worker). */
const PUBLIC_URL = 'https://93.184.215.14/hooks/matrix';

/** An endpoint of the case's caller, written directly (its URL was checked by the service's own tests). */
async function endpointOf(s: Situation): Promise<string> {
  const repo = new WebhookRepository(dbOf(s.t.orm.em.fork() as EntityManager));
  const row = await repo.insertEndpoint(s.callerId, { url: PUBLIC_URL, description: `matrix ${s.unique}`, events: ['render_run.completed'], enabled: true, secret: newSigningSecret() });
  return row.id;
}

async function deliveryOf(s: Situation): Promise<{ endpoint: string; delivery: string }> {
  const endpoint = await endpointOf(s);
  const repo = new WebhookRepository(dbOf(s.t.orm.em.fork() as EntityManager));
  return { endpoint, delivery: await repo.insertPing(s.callerId, endpoint, { endpointId: endpoint }) };
}

export const cases: AccessCases = {
  'GET /api/webhooks': { expect: refusesAccountId },
  'POST /api/webhooks': { request: (s) => ({ body: { url: PUBLIC_URL, events: ['render_run.completed'], description: `matrix ${s.unique}` } }), expect: refusesAccountId },
  'GET /api/webhooks/:id': { request: async (s) => ({ path: `/api/webhooks/${await endpointOf(s)}` }), expect: refusesAccountId },
  'PATCH /api/webhooks/:id': { request: async (s) => ({ path: `/api/webhooks/${await endpointOf(s)}`, body: { description: 'changed' } }), expect: refusesAccountId },
  'DELETE /api/webhooks/:id': { request: async (s) => ({ path: `/api/webhooks/${await endpointOf(s)}` }), expect: refusesAccountId },
  'POST /api/webhooks/:id/rotate-secret': { request: async (s) => ({ path: `/api/webhooks/${await endpointOf(s)}/rotate-secret` }), expect: refusesAccountId },
  'POST /api/webhooks/:id/ping': { request: async (s) => ({ path: `/api/webhooks/${await endpointOf(s)}/ping` }), expect: refusesAccountId },
  'GET /api/webhooks/:id/deliveries': { request: async (s) => ({ path: `/api/webhooks/${await endpointOf(s)}/deliveries` }), expect: refusesAccountId },
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': {
    request: async (s) => {
      const { endpoint, delivery } = await deliveryOf(s);
      return { path: `/api/webhooks/${endpoint}/deliveries/${delivery}/redeliver` };
    },
    expect: refusesAccountId,
  },
};
