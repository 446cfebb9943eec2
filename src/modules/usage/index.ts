import type { AppModule } from '../module';
import { usageOperations } from './usage.operations';
import { UsageResolver } from './usage.resolver';

/** What an account used per period, and the limits in force (issue 26). */
export const usageModule = {
  name: 'usage',
  entities: [],
  resolvers: [UsageResolver],
  operations: usageOperations,
} satisfies AppModule;
