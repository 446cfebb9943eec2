import { createAccount, createOrganization, CreatedAccount } from '../factories';
import type { TestApp } from '../app';

/** The accounts every access case is played with (fresh ones, so demo data can change freely). */
export interface World {
  orgA: string;
  orgB: string;
  alice: CreatedAccount;
  bob: CreatedAccount;
  carol: CreatedAccount;
  dave: CreatedAccount;
}

export async function buildWorld(t: TestApp): Promise<World> {
  const orgA = await createOrganization(t.orm, 'Matrix Org A');
  const orgB = await createOrganization(t.orm, 'Matrix Org B');
  return {
    orgA: orgA.id,
    orgB: orgB.id,
    alice: await createAccount(t.orm, { name: 'Alice', organizations: [orgA.id] }),
    bob: await createAccount(t.orm, { name: 'Bob', organizations: [orgA.id] }),
    carol: await createAccount(t.orm, { name: 'Carol', organizations: [orgB.id] }),
    dave: await createAccount(t.orm, { name: 'Dave', organizations: [t.config.auth.adminOrgId] }),
  };
}
