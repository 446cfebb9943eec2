import type { AppModule } from '../module';
import { Account, Membership, OrganizationInvitation } from './account.entity';
import { AccountResolver } from './account.resolver';
import { accountRoutes } from './account.routes';
import { AccountService } from './account.service';

/** For other modules: the account entity their rows belong to, and the kinds of account. */
export { Account, AccountKind, Membership } from './account.entity';

export const accountModule: AppModule = {
  name: 'account',
  entities: [Account, Membership, OrganizationInvitation],
  resolvers: [AccountResolver],
  routes: accountRoutes,
  references: {
    Organization: { __resolveReference: (ref: { id: unknown }, ctx) => new AccountService(ctx).organizationReference(ref.id) },
  },
};
