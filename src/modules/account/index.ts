import type { Db } from '../../db/request-db';
import type { IdentityAccounts } from '../../auth/jwt';
import type { AppModule } from '../module';
import { AccountRepository } from './account.repository';
import { ProvisioningService } from './account.service';
import { createAccountLoaders } from './account.loaders';
import { Account, Membership, OrganizationInvitation } from './account.entity';
import { AccountResolver } from './account.resolver';
import { accountOperations } from './account.operations';
import { accountReferences } from './account.reference';

/** For other modules: the account entity their rows belong to, and the kinds of account. */
export { Account, AccountKind, Membership } from './account.entity';

export const accountModule = {
  name: 'account',
  entities: [Account, Membership, OrganizationInvitation],
  resolvers: [AccountResolver],
  operations: accountOperations,
  loaders: createAccountLoaders,
  references: accountReferences,
} satisfies AppModule;

/** For the composition root: the accounts JWT sign-in finds or makes (handed to JwtVerifier). */
export const identityAccounts: IdentityAccounts = {
  accountFor: (db: Db, identity) => new ProvisioningService(new AccountRepository(db)).accountFor(identity),
};
