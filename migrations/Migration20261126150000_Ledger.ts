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
    // Per-account limit overrides set by an admin (src/auth/limit-overrides.ts): a limit name → value map,
    // announced on account_limits_changes so every instance applies it at once.
    this.addSql(`create table "account_limits" (
      "account_id" uuid not null,
      "limits" jsonb not null default '{}',
      "updated_at" timestamptz not null default now(),
      "updated_by" uuid null,
      constraint "account_limits_pkey" primary key ("account_id"),
      constraint "account_limits_account_fk" foreign key ("account_id") references "accounts" ("id") on delete cascade,
      constraint "account_limits_updated_by_fk" foreign key ("updated_by") references "accounts" ("id") on delete set null,
      constraint "account_limits_object" check (jsonb_typeof("limits") = 'object')
    );`);
    this.addSql(`create or replace function "announce_account_limits"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('account_limits_changes', coalesce(new.account_id, old.account_id)::text);
        return null;
      end $$;`);
    this.addSql(`create trigger "account_limits_announce" after insert or update or delete on "account_limits"
      for each row execute function "announce_account_limits"();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "account_limits" cascade;');
    this.addSql('drop function if exists "announce_account_limits"();');
    this.addSql('drop table if exists "account_usage" cascade;');
    this.addSql('drop table if exists "idempotency_keys" cascade;');
  }
}
