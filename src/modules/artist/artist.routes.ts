import type { RestRoute } from '../../http/rest/route';
import { createArtistInput, rosterInput, socialsByAccountInput, socialsByIdInput, upsertSocialInput } from './artist.inputs';

export const artistRoutes: RestRoute[] = [
  { operation: 'Query.artistSocials', method: 'GET', path: '/artist/socials', tags: ['artists'], input: socialsByAccountInput },
  { operation: 'Query.artistSocialsById', method: 'GET', path: '/artists/:id/socials', tags: ['artists'], input: socialsByIdInput },
  { operation: 'Query.artists', method: 'GET', path: '/artists', tags: ['artists'], input: rosterInput },
  { operation: 'Mutation.createArtist', method: 'POST', path: '/artists', tags: ['artists'], input: createArtistInput },
  { operation: 'Mutation.upsertArtistSocial', method: 'POST', path: '/artists/:id/socials', tags: ['artists'], input: upsertSocialInput },
];
