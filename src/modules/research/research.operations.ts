import { z } from 'zod';
import type { OperationSpecs } from '../../common/operations';
import {
  artistPlaylistsInput,
  artistTracksInput,
  curatorInput,
  discoverInput,
  linkArtistResearchInput,
  platformSearchInput,
  researchSearchInput,
  trackStatsInput,
} from './research.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with this one, once), by root field. */
export const researchOperations: OperationSpecs = {
  'Query.trackStats': { input: trackStatsInput },
  'Query.discover': { input: discoverInput },
  'Query.curator': { input: curatorInput },
  'Query.researchGenres': { input: z.object({}) },
  'Query.researchTracks': { input: artistTracksInput },
  'Query.researchPlaylists': { input: artistPlaylistsInput },
  'Query.researchSearch': { input: researchSearchInput },
  'Query.platformASearch': { input: platformSearchInput },
  'Mutation.updateArtist': { input: linkArtistResearchInput },
};
