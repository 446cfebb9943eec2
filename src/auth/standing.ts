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
   * profile), or one of the `related` accounts did (the owner of what the request watches: its
   * leaving an organization ends the viewer's reach too), as announced on every instance by the
   * `viewer_changes` triggers; returns the unsubscribe.
   */
  onChange(listener: () => void, related?: readonly string[]): () => void;
  /**
   * Calls `listener` whenever one account's viewer may have changed (its keys or memberships), as
   * announced by the same triggers; for a stream that watches many accounts' runs, one at a time.
   */
  watchAccount(accountId: string, listener: () => void): () => void;
}
