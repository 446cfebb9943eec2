import type { AppModule } from '../module';
import { Chat, ChatMessage, Session } from './session.entity';
import { createSessionLoaders } from './session.loaders';
import { SessionGraphResolver, SessionResolver } from './session.resolver';
import { sessionOperations } from './session.operations';

export const sessionModule = {
  name: 'session',
  entities: [Session, Chat, ChatMessage],
  resolvers: [SessionResolver, SessionGraphResolver],
  loaders: createSessionLoaders,
  operations: sessionOperations,
} satisfies AppModule;
