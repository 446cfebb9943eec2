import type { OperationSpecs } from '../../common/operations';
import { createArtistInput, rosterInput, socialsByAccountInput, socialsByIdInput, upsertSocialInput } from './artist.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with the same one), by root field. */
export const artistOperations: OperationSpecs = {
  'Query.artistSocials': { input: socialsByAccountInput },
  'Query.artistSocialsById': { input: socialsByIdInput },
  'Query.artists': { input: rosterInput },
  'Mutation.createArtist': { input: createArtistInput },
  'Mutation.upsertArtistSocial': { input: upsertSocialInput },
};
