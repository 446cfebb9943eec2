import { ApiKey } from '../auth/api-key.entity';
import { accountModule } from './account';
import { agentModule } from './agent';
import { artistModule } from './artist';
import { catalogModule } from './catalog';
import { sessionModule } from './session';
import { researchModule } from './research';
import { renderModule } from './render';
import type { AppModule } from './module';

/** Every domain module; the schema, the REST route table and the ORM are built from this list. */
export const modules: AppModule[] = [
  accountModule,
  { name: 'auth', entities: [ApiKey], resolvers: [], routes: [] },
  artistModule,
  catalogModule,
  agentModule,
  sessionModule,
  researchModule,
  renderModule,
];
