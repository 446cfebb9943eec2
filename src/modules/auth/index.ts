import { AccountIdentity } from '../../auth/account-identity.entity';
import { ApiKey } from '../../auth/api-key.entity';
import type { AppModule } from '../module';
import { AuthResolver } from './auth.resolver';
import { authRoutes } from './auth.routes';
import { SignupAttempt, VerificationCode } from './onboarding.entity';

export const authModule: AppModule = {
  name: 'auth',
  entities: [ApiKey, AccountIdentity, VerificationCode, SignupAttempt],
  resolvers: [AuthResolver],
  routes: authRoutes,
};
