import type { Viewer } from './viewer';

/**
 * The viewer of a standing request (a subscription) as it is now, for requests that outlive the
 * moment their credential was checked.
 */
export interface StandingViewer {
  /** The credential's viewer now (read afresh after any change); null once it no longer authenticates (revoked key, expired token). */
  current(): Promise<Viewer | null>;
  /**
   * Calls `listener` whenever the account's viewer may have changed (its keys, memberships or
   * profile), as announced on every instance by the `viewer_changes` triggers; returns the unsubscribe.
   */
  onChange(listener: () => void): () => void;
}
