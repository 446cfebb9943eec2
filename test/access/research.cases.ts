import { DEMO_RESEARCH } from '../../src/db/seeders/research.seed';
import type { AccessCases } from './registry';

/**
 * Research answers are public provider data shared by every account (no account_id or
 * organization_id: unknown keys, refused; the cases run without them), but every route needs credentials. The test app seeds
 * the demo data, so these requests are answered from stored data without any provider.
 */
const artist = DEMO_RESEARCH.artists[0];
const track = DEMO_RESEARCH.tracks[0];
const curator = DEMO_RESEARCH.curators[0];

export const cases: AccessCases = {
  'GET /api/research/track/stats': { request: () => ({ query: { isrc: track.isrc, source: 'all' } }) },
  'GET /api/research/discover': {},
  'GET /api/research/curator': { request: () => ({ query: { platform: curator.platform, id: curator.id } }) },
  'GET /api/research/genres': {},
  'GET /api/research/tracks': { request: () => ({ query: { artist: String(artist.id) } }) },
  'GET /api/research/playlists': { request: () => ({ query: { artist: String(artist.id) } }) },
  'GET /api/research': { request: () => ({ query: { q: artist.name, type: 'artists' } }) },
  'GET /api/platform_a/search': { request: () => ({ query: { q: artist.name, type: 'artist' } }) },
};
