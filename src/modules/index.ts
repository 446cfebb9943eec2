import { accountModule } from './account';
import { authModule } from './auth';
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
  authModule,
  artistModule,
  catalogModule,
  agentModule,
  sessionModule,
  researchModule,
  renderModule,
];
