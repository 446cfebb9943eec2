import type { AccessCases, Situation } from './registry';
import { made, organizationOf, target } from './support';

/**
 * An artist on the roster of the organization of the account the case acts on: org A's for Alice
 * and Bob, org B's for Carol (so "other-org" asks Alice for org B's artist: 403, and the admin
 * case asks Dave for it: 200). Made once per organization.
 */
function artistOf(s: Situation): Promise<string> {
  const org = organizationOf(s, target(s));
  return s.once(`artist:roster:${org.id}`, async () => {
    const res = await s.t.http().post('/api/artists').set(org.member.headers).send({ name: `Matrix Artist ${s.unique}`, organization_id: org.id });
    return (await made<{ artist: { id: string } }>('POST /api/artists', res)).artist.id;
  });
}

export const cases: AccessCases = {
  // The artist is the account these routes act on (artist_account_id / the path id).
  'GET /api/artist/socials': {
    placesIds: true,
    accountId: true,
    request: async (s) => ({ query: { artist_account_id: await artistOf(s) } }),
  },
  'GET /api/artists/:id/socials': {
    placesIds: true,
    accountId: true,
    request: async (s) => ({ path: `/api/artists/${await artistOf(s)}/socials` }),
  },
  'POST /api/artists/:id/socials': {
    placesIds: true,
    accountId: true,
    request: async (s) => ({
      path: `/api/artists/${await artistOf(s)}/socials`,
      body: { profile_url: `https://social.example.test/matrix-${s.unique}`, username: `matrix_${s.unique}`, follower_count: 1 },
    }),
  },
  'PATCH /api/artists/:id': {
    placesIds: true,
    accountId: true,
    request: async (s) => ({ path: `/api/artists/${await artistOf(s)}`, body: { research_id: '4100021' } }),
  },
  // The roster honours both filters (decisions §3).
  'GET /api/artists': { accountId: true, organizationId: true },
  // {name, organization_id?}: no account_id (the harness's one is an unknown key: refused, and the case runs without it);
  // organization_id must be an organization the caller belongs to.
  'POST /api/artists': { organizationId: true, request: (s) => ({ body: { name: `Matrix New Artist ${s.unique}` } }) },
};
