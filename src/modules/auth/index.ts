import { AccountIdentity } from '../../auth/account-identity.entity';
import { ApiKey } from '../../auth/api-key.entity';
import type { AppModule } from '../module';
import { AuthResolver } from './auth.resolver';
import { authOperations } from './auth.operations';
import { SignupAttempt, VerificationCode } from './onboarding.entity';

export const authModule = {
  name: 'auth',
  entities: [ApiKey, AccountIdentity, VerificationCode, SignupAttempt],
  resolvers: [AuthResolver],
  operations: authOperations,
} satisfies AppModule;

/** Active API keys an account may hold at once. */
export { MAX_ACTIVE_KEYS } from './api-key.service';
