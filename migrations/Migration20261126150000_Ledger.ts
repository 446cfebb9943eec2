import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26, parts 2 and 3: Idempotency-Key on POST (src/http/idempotency.ts), and the usage an
 * account can see (account_usage, src/auth/usage.ts). Idempotency keys: one row per account
 * and key: the route and body fingerprint of the first request, whether it is still running, and
 * its answer once it has one. Bounded (key length, answer bytes, keys per account) and expiring
 * (IDEMPOTENCY_TTL_HOURS); an account's rows go with the account.
 */
export class Migration20261126150000_Ledger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" (
      "account_id" uuid not null,
      "key" text not null,
      "route" text not null,
      "fingerprint" char(64) not null,
      "state" text not null default 'running',
      "status" smallint null,
      "headers" jsonb null,
      "body" bytea null,
      "created_at" timestamptz not null default now(),
      "started_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      constraint "idempotency_keys_pkey" primary key ("account_id", "key"),
      constraint "idempotency_keys_account_fk" foreign key ("account_id") references "accounts" ("id") on delete cascade,
      constraint "idempotency_keys_state" check ("state" in ('running', 'done', 'unkept')),
      constraint "idempotency_keys_key_length" check (char_length("key") between 1 and 1024)
    );`);
    this.addSql(`create index "idempotency_keys_expires_idx" on "idempotency_keys" ("expires_at");`);
    // Usage an account can see (src/auth/usage.ts): per account and hour (UTC), the sums every instance flushes.
    this.addSql(`create table "account_usage" (
      "account_id" uuid not null,
      "hour" timestamptz not null,
      "request_points" bigint not null default 0,
      "research_points" bigint not null default 0,
      "provider_calls" bigint not null default 0,
      "stored_answers" bigint not null default 0,
      constraint "account_usage_pkey" primary key ("account_id", "hour"),
      constraint "account_usage_account_fk" foreign key ("account_id") references "accounts" ("id") on delete cascade,
      constraint "account_usage_hour" check (date_trunc('hour', "hour" at time zone 'UTC') = "hour" at time zone 'UTC')
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "account_usage" cascade;');
    this.addSql('drop table if exists "idempotency_keys" cascade;');
  }
}
