import { z } from 'zod';
import type { RestRoute } from '../../http/rest/route';
import { linkArtistResearchInput } from './artist-research.service';
import {
  artistPlaylistsInput,
  artistTracksInput,
  curatorInput,
  discoverInput,
  platformSearchInput,
  researchSearchInput,
  trackStatsInput,
} from './research.inputs';

/** Upstream failures these routes pass on when no stored answer serves them (documented in the OpenAPI document). */
const PROVIDER_ERRORS: RestRoute['errors'] = ['PROVIDER_ERROR', 'PROVIDER_TIMEOUT'];

export const researchRoutes: RestRoute[] = [
  { operation: 'Query.trackStats', method: 'GET', path: '/research/track/stats', tags: ['research'], errors: PROVIDER_ERRORS, input: trackStatsInput, omitNullFields: true },
  { operation: 'Query.discover', method: 'GET', path: '/research/discover', tags: ['research'], errors: PROVIDER_ERRORS, input: discoverInput },
  { operation: 'Query.curator', method: 'GET', path: '/research/curator', tags: ['research'], errors: PROVIDER_ERRORS, input: curatorInput },
  { operation: 'Query.researchGenres', method: 'GET', path: '/research/genres', tags: ['research'], errors: PROVIDER_ERRORS, input: z.object({}) },
  { operation: 'Query.researchTracks', method: 'GET', path: '/research/tracks', tags: ['research'], errors: PROVIDER_ERRORS, input: artistTracksInput },
  { operation: 'Query.researchPlaylists', method: 'GET', path: '/research/playlists', tags: ['research'], errors: PROVIDER_ERRORS, input: artistPlaylistsInput },
  { operation: 'Query.researchSearch', method: 'GET', path: '/research', tags: ['research'], errors: PROVIDER_ERRORS, input: researchSearchInput },
  { operation: 'Query.platformASearch', method: 'GET', path: '/platform_a/search', tags: ['platform search'], errors: PROVIDER_ERRORS, input: platformSearchInput, omitNullFields: true },
  {
    operation: 'Mutation.updateArtist',
    method: 'PATCH',
    path: '/artists/:id',
    tags: ['artists'],
    input: linkArtistResearchInput,
    requiredBodyFields: { research_id: 'is required: a research artist id (digits), or null to clear the link' },
  },
];
