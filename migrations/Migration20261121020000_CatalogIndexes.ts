import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for the artist and catalog routes beyond the core migration: artist look-up by name
 * (the artistName filter of catalog songs and crediting artists by name) and the stable order of
 * an artist's socials (oldest link first).
 */
export class Migration20261121020000_CatalogIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "accounts_artist_lower_name_idx" on "accounts" (lower("name")) where "kind" = 'artist';`);
    this.addSql(`create index "account_socials_account_created_idx" on "account_socials" ("account_id", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "account_socials_account_created_idx";`);
    this.addSql(`drop index if exists "accounts_artist_lower_name_idx";`);
  }
}
