import type { AppModule } from '../module';
import { createAgentLoaders } from './agent.loaders';
import { AgentTemplate, TemplateFavourite, TemplateShare } from './agent-template.entity';
import { agentReferences } from './agent.reference';
import { AgentResolver } from './agent.resolver';
import { agentOperations } from './agent.operations';

export const agentModule = {
  name: 'agent',
  entities: [AgentTemplate, TemplateShare, TemplateFavourite],
  resolvers: [AgentResolver],
  operations: agentOperations,
  loaders: createAgentLoaders,
  references: agentReferences,
} satisfies AppModule;
