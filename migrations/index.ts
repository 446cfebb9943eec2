import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Core } from './Migration20261121000000Core';
import { Migration20261121010000_Onboarding } from './Migration20261121010000_Onboarding';

/** Applied in this order; a new migration is added at the end. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121000000Core', class: Migration20261121000000Core },
  { name: 'Migration20261121010000_Onboarding', class: Migration20261121010000_Onboarding },
];
