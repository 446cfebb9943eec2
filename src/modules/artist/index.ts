import { requireViewer } from '../../auth/access';
import type { Context } from '../../graphql/context';
import { AccountKind } from '../account/account.entity';
import type { AppModule } from '../module';
import { AccountSocial, RosterEntry, Social } from './artist.entity';
import { ArtistGraphResolver, ArtistResolver } from './artist.resolver';
import { artistRoutes } from './artist.routes';
import { ArtistService } from './artist.service';
import type { Artist } from './artist.types';
import { isUuid } from './artist.inputs';

export const artistModule: AppModule = {
  name: 'artist',
  entities: [RosterEntry, Social, AccountSocial],
  resolvers: [ArtistResolver, ArtistGraphResolver],
  routes: artistRoutes,
  references: {
    Artist: {
      // The same rules as Query.artist: credentials required; an artist out of reach is null, like a missing one.
      async __resolveReference(ref: { id: string }, ctx: Context): Promise<Artist | null> {
        requireViewer(ctx.viewer);
        if (!isUuid(ref.id)) return null;
        const [account, reachable] = await Promise.all([ctx.loaders.accountById.load(ref.id), new ArtistService(ctx).canReach(ref.id)]);
        return account && account.kind === AccountKind.artist && reachable ? { id: account.id, name: account.name } : null;
      },
    },
  },
};
