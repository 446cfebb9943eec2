/** Everything that acts or is acted on is an account: a person, an artist, or an organization. */
export enum AccountKind {
  person = 'person',
  artist = 'artist',
  organization = 'organization',
}

/** Who is calling: the account behind the credential, and the organizations it belongs to. */
export interface Viewer {
  accountId: string;
  kind: AccountKind;
  name: string;
  email: string | null;
  /** Organizations the account is a member of. */
  organizationIds: string[];
  /** Member of (or is) the internal admin organization. */
  isAdmin: boolean;
  via: 'api_key' | 'jwt';
  apiKeyId?: string;
}

/** The accounts a viewer acts as: itself and every organization it is a member of. */
export function viewerScope(viewer: Viewer): string[] {
  return [viewer.accountId, ...viewer.organizationIds];
}
