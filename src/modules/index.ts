import { AgentTemplate, TemplateFavourite, TemplateShare } from './agent/agent-template.entity';
import { AccountSocial, RosterEntry, Social } from './artist/artist.entity';
import { AccountCatalog, Catalog, CatalogSong, Song, SongArtist } from './catalog/catalog.entity';
import { Chat, ChatMessage, Session } from './session/session.entity';
import { accountModule } from './account';
import { authModule } from './auth';
import type { AppModule } from './module';

/** Every domain module; the schema, the REST route table and the ORM are built from this list. */
export const modules: AppModule[] = [
  accountModule,
  authModule,
  { name: 'artist', entities: [RosterEntry, Social, AccountSocial], resolvers: [], routes: [] },
  { name: 'catalog', entities: [Catalog, AccountCatalog, Song, SongArtist, CatalogSong], resolvers: [], routes: [] },
  { name: 'agent', entities: [AgentTemplate, TemplateShare, TemplateFavourite], resolvers: [], routes: [] },
  { name: 'session', entities: [Session, Chat, ChatMessage], resolvers: [], routes: [] },
];
