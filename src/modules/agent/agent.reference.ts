import { withViewer } from '../../graphql/params';
import type { ReferenceResolvers } from '../../graphql/schema';
import { templateIdInput } from './agent.inputs';
import { agentService } from './agent.resolver';

/** Federation: a router resolves `AgentTemplate { id }` with the caller's visibility (null when hidden). */
export const agentReferences: ReferenceResolvers = {
  AgentTemplate: {
    __resolveReference: withViewer((ref: { id?: unknown }, ctx, viewer) => {
      // A malformed id names no template: null like a hidden one, not a 400 for the whole batch.
      const input = templateIdInput.safeParse({ id: ref.id });
      return input.success ? agentService(ctx).byReference(viewer, input.data) : null;
    }),
  },
};
