import { z } from 'zod';
import type { RestRoute } from '../../http/rest/route';
import {
  artistPlaylistsInput,
  artistTracksInput,
  curatorInput,
  discoverInput,
  platformSearchInput,
  researchSearchInput,
  trackStatsInput,
} from './research.inputs';

export const researchRoutes: RestRoute[] = [
  { operation: 'Query.trackStats', method: 'GET', path: '/research/track/stats', tags: ['research'], input: trackStatsInput, omitNullFields: true },
  { operation: 'Query.discover', method: 'GET', path: '/research/discover', tags: ['research'], input: discoverInput },
  { operation: 'Query.curator', method: 'GET', path: '/research/curator', tags: ['research'], input: curatorInput },
  { operation: 'Query.researchGenres', method: 'GET', path: '/research/genres', tags: ['research'], input: z.object({}) },
  { operation: 'Query.researchTracks', method: 'GET', path: '/research/tracks', tags: ['research'], input: artistTracksInput },
  { operation: 'Query.researchPlaylists', method: 'GET', path: '/research/playlists', tags: ['research'], input: artistPlaylistsInput },
  { operation: 'Query.researchSearch', method: 'GET', path: '/research', tags: ['research'], input: researchSearchInput },
  { operation: 'Query.platformASearch', method: 'GET', path: '/platform_a/search', tags: ['platform search'], input: platformSearchInput, omitNullFields: true },
];
