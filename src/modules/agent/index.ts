import type { AppModule } from '../module';
import { AgentTemplate, TemplateFavourite, TemplateShare } from './agent-template.entity';
import { agentReferences } from './agent.reference';
import { AgentResolver } from './agent.resolver';
import { agentRoutes } from './agent.routes';

export const agentModule: AppModule = {
  name: 'agent',
  entities: [AgentTemplate, TemplateShare, TemplateFavourite],
  resolvers: [AgentResolver],
  routes: agentRoutes,
  references: agentReferences,
};
