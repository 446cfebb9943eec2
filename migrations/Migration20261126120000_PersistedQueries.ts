import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 27: automatic persisted queries (APQ) shared by every instance, so a client behind a
 * balancer registers a document once. Bounded (GRAPHQL_APQ_MAX_ENTRIES / _MAX_BYTES, oldest
 * registration pruned first) and expiring (GRAPHQL_APQ_TTL_S): src/graphql/persisted-queries.ts.
 */
export class Migration20261126120000_PersistedQueries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "persisted_queries" (
      "hash" char(64) not null,
      "query" text not null,
      "bytes" integer not null,
      "registered_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      constraint "persisted_queries_pkey" primary key ("hash"),
      constraint "persisted_queries_hash_hex" check ("hash" ~ '^[0-9a-f]{64}$'),
      constraint "persisted_queries_bytes" check ("bytes" = octet_length("query"))
    );`);
    this.addSql(`create index "persisted_queries_registered_idx" on "persisted_queries" ("registered_at" desc, "hash");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "persisted_queries" cascade;');
  }
}
