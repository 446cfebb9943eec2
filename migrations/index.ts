import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Core } from './Migration20261121000000Core';
import { Migration20261121010000_Onboarding } from './Migration20261121010000_Onboarding';
import { Migration20261121020000_CatalogIndexes } from './Migration20261121020000_CatalogIndexes';
import { Migration20261121040000_ResearchAnswers } from './Migration20261121040000_ResearchAnswers';
import { Migration20261121050000_RenderRuns } from './Migration20261121050000_RenderRuns';
import { Migration20261123100000_Ownership } from './Migration20261123100000_Ownership';
import { Migration20261123105000_JwtIdentities } from './Migration20261123105000_JwtIdentities';
import { Migration20261123110000_RateLimits } from './Migration20261123110000_RateLimits';
import { Migration20261123120000_RenderLimits } from './Migration20261123120000_RenderLimits';
import { Migration20261123130000_Invitations } from './Migration20261123130000_Invitations';
import { Migration20261123140000_ArtistResearch } from './Migration20261123140000_ArtistResearch';
import { Migration20261123150000_Settings } from './Migration20261123150000_Settings';
import { Migration20261124100000_ViewerChanges } from './Migration20261124100000_ViewerChanges';
import { Migration20261126100000_MembershipLifecycle } from './Migration20261126100000_MembershipLifecycle';
import { Migration20261126120000_PersistedQueries } from './Migration20261126120000_PersistedQueries';
import { Migration20261126140000_Webhooks } from './Migration20261126140000_Webhooks';
import { Migration20261126150000_Ledger } from './Migration20261126150000_Ledger';
import { Migration20261126160000_UsageWebhookDeliveries } from './Migration20261126160000_UsageWebhookDeliveries';
import { Migration20261127100000_SongCredits } from './Migration20261127100000_SongCredits';

/** Applied in this order; a new migration is added at the end. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121000000Core', class: Migration20261121000000Core },
  { name: 'Migration20261121010000_Onboarding', class: Migration20261121010000_Onboarding },
  { name: 'Migration20261121020000_CatalogIndexes', class: Migration20261121020000_CatalogIndexes },
  { name: 'Migration20261121040000_ResearchAnswers', class: Migration20261121040000_ResearchAnswers },
  { name: 'Migration20261121050000_RenderRuns', class: Migration20261121050000_RenderRuns },
  { name: 'Migration20261123100000_Ownership', class: Migration20261123100000_Ownership },
  { name: 'Migration20261123105000_JwtIdentities', class: Migration20261123105000_JwtIdentities },
  { name: 'Migration20261123110000_RateLimits', class: Migration20261123110000_RateLimits },
  { name: 'Migration20261123120000_RenderLimits', class: Migration20261123120000_RenderLimits },
  { name: 'Migration20261123130000_Invitations', class: Migration20261123130000_Invitations },
  { name: 'Migration20261123140000_ArtistResearch', class: Migration20261123140000_ArtistResearch },
  { name: 'Migration20261123150000_Settings', class: Migration20261123150000_Settings },
  { name: 'Migration20261124100000_ViewerChanges', class: Migration20261124100000_ViewerChanges },
  { name: 'Migration20261126100000_MembershipLifecycle', class: Migration20261126100000_MembershipLifecycle },
  { name: 'Migration20261126120000_PersistedQueries', class: Migration20261126120000_PersistedQueries },
  { name: 'Migration20261126140000_Webhooks', class: Migration20261126140000_Webhooks },
  { name: 'Migration20261126150000_Ledger', class: Migration20261126150000_Ledger },
  { name: 'Migration20261126160000_UsageWebhookDeliveries', class: Migration20261126160000_UsageWebhookDeliveries },
  { name: 'Migration20261127100000_SongCredits', class: Migration20261127100000_SongCredits },
];
