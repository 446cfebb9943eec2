import type { ReferenceResolvers } from '../../graphql/schema';
import { AgentService } from './agent.service';

/** Federation: a router resolves `AgentTemplate { id }` with the caller's visibility (null when hidden). */
export const agentReferences: ReferenceResolvers = {
  AgentTemplate: {
    __resolveReference: (ref: { id?: unknown }, ctx) => new AgentService(ctx).byReference(ref.id),
  },
};
