import { Migration } from '@mikro-orm/migrations';

/**
 * Request rate counters, one row per budget and credential (`api:acct:<id>`, `research:acct:<id>`,
 * `api:ip:<address>`) holding the current one-minute window. Unlogged: counters need no WAL or
 * replicas, and losing them in a crash only resets the windows.
 */
export class Migration20261123110000_RateLimits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create unlogged table "rate_limit_counters" ("key" text not null, "window_start" timestamptz not null, "points" int not null, constraint "rate_limit_counters_pkey" primary key ("key"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "rate_limit_counters";');
  }
}
