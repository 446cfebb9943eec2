import type { AppModule } from '../module';
import { Chat, ChatMessage, Session } from './session.entity';
import { SessionResolver } from './session.resolver';
import { sessionRoutes } from './session.routes';

export const sessionModule: AppModule = {
  name: 'session',
  entities: [Session, Chat, ChatMessage],
  resolvers: [SessionResolver],
  routes: sessionRoutes,
};
