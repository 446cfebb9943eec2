import { withViewer } from '../../graphql/params';
import type { ReferenceResolvers } from '../../graphql/schema';
import { accountService } from './account.resolver';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Federation: a router resolves `Organization { id }` when the caller reaches it (null otherwise, like a missing one). */
export const accountReferences: ReferenceResolvers = {
  Organization: {
    // A malformed id names no organization: null, not a 400 for the whole batch.
    __resolveReference: withViewer((ref: { id?: unknown }, ctx, viewer) =>
      typeof ref.id === 'string' && UUID.test(ref.id) ? accountService(ctx).organizationReference(viewer, ref.id) : null,
    ),
  },
};
