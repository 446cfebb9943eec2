import type { CreatedAccount } from '../factories';
import type { Situation } from './registry';

/**
 * The account a case acts on: the account_id it sends (Bob, Carol), else the caller (Alice, or
 * Dave for no case: Dave always sends Carol's id). Cases that place ids themselves build the
 * request around this account's own data (its catalog, its organization's artist, ...).
 */
export function target(s: Situation): CreatedAccount {
  const id = s.accountId ?? s.callerId;
  const found = [s.world.alice, s.world.bob, s.world.carol, s.world.dave].find((a) => a.account.id === id);
  if (!found) throw new Error(`no world account ${id}`);
  return found;
}

/** The organization of a world account (A for Alice and Bob, B for Carol), with a member to act for it. */
export function organizationOf(s: Situation, account: CreatedAccount): { id: string; member: CreatedAccount } {
  const { world } = s;
  if (account === world.alice || account === world.bob) return { id: world.orgA, member: world.alice };
  if (account === world.carol) return { id: world.orgB, member: world.carol };
  throw new Error('the admin organization has no data of its own in the matrix');
}

/** A setup request that must succeed: its JSON body, or an error naming what failed. */
export async function made<T = Record<string, unknown>>(what: string, res: { status: number; body: unknown }): Promise<T> {
  if (res.status !== 200) throw new Error(`setup (${what}) answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}
