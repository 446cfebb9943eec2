import type { AppModule } from '../module';
import { Account, Membership } from './account.entity';
import { AccountResolver } from './account.resolver';
import { accountRoutes } from './account.routes';

export const accountModule: AppModule = {
  name: 'account',
  entities: [Account, Membership],
  resolvers: [AccountResolver],
  routes: accountRoutes,
};
