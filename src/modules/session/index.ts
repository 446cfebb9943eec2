import type { AppModule } from '../module';
import { Chat, ChatMessage, Session } from './session.entity';
import { SessionResolver } from './session.resolver';
import { sessionOperations } from './session.operations';

export const sessionModule = {
  name: 'session',
  entities: [Session, Chat, ChatMessage],
  resolvers: [SessionResolver],
  operations: sessionOperations,
} satisfies AppModule;
