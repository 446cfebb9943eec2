import type { AccessCases, Situation } from './registry';
import { made } from './support';

/** A public template of Alice's: every case sees it; only Alice may change or delete it. */
async function newTemplateOfAlice(s: Situation): Promise<string> {
  const res = await s.t
    .http()
    .post('/api/agents/templates')
    .set(s.world.alice.headers)
    .send({ title: `Matrix Template ${s.unique}`, description: 'Access matrix', prompt: 'Say hello.' });
  return (await made<{ template: { id: string } }>('POST /api/agents/templates', res)).template.id;
}

const templateOfAlice = (s: Situation) => s.once('agent:template:alice', () => newTemplateOfAlice(s));

/**
 * Templates are personal (decisions §6): they take no account_id (an unknown key: refused, and the case runs without it), and the
 * admin organization adds nothing: Dave sees Alice's public template but is not its owner (403).
 */
const ownerOnly = { 'admin account_id': 403 } as const;

export const cases: AccessCases = {
  'GET /api/agents/templates': {},
  'POST /api/agents/templates': {
    request: (s) => ({ body: { title: `Matrix Template ${s.unique}`, description: 'Access matrix', prompt: 'Say hello.' } }),
  },
  'PATCH /api/agents/templates/:id': {
    request: async (s) => ({ path: `/api/agents/templates/${await templateOfAlice(s)}`, body: { description: `Edited ${s.unique}` } }),
    expect: ownerOnly,
  },
  'DELETE /api/agents/templates/:id': {
    request: async (s) => ({ path: `/api/agents/templates/${await newTemplateOfAlice(s)}` }),
    expect: ownerOnly,
  },
  // Anyone who sees a template may favourite it, Dave included.
  'PUT /api/agents/templates/:id/favorite': {
    request: async (s) => ({ path: `/api/agents/templates/${await templateOfAlice(s)}/favorite`, body: { is_favourite: true } }),
  },
};
