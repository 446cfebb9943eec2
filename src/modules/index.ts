import { ApiKey } from '../auth/api-key.entity';
import { AccountSocial, RosterEntry, Social } from './artist/artist.entity';
import { AccountCatalog, Catalog, CatalogSong, Song, SongArtist } from './catalog/catalog.entity';
import { accountModule } from './account';
import { agentModule } from './agent';
import { sessionModule } from './session';
import type { AppModule } from './module';

/** Every domain module; the schema, the REST route table and the ORM are built from this list. */
export const modules: AppModule[] = [
  accountModule,
  { name: 'auth', entities: [ApiKey], resolvers: [], routes: [] },
  { name: 'artist', entities: [RosterEntry, Social, AccountSocial], resolvers: [], routes: [] },
  { name: 'catalog', entities: [Catalog, AccountCatalog, Song, SongArtist, CatalogSong], resolvers: [], routes: [] },
  agentModule,
  sessionModule,
];
