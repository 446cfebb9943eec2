import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26, part 1: webhooks. An account's endpoints (`webhook_endpoints`), the events its runs
 * produce (`webhook_events`, written by a trigger on render_runs in the transaction that changes a
 * run's status, so no change is lost), one delivery per event and endpoint (`webhook_deliveries`,
 * handed to the job queue by the workers, with its latest attempt's outcome; the newest
 * WEBHOOK_LOG_PER_ENDPOINT finished ones are kept per endpoint). src/modules/webhook/.
 */
export class Migration20261126140000_Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" (
      "id" uuid not null default gen_random_uuid(),
      "account_id" uuid not null references "accounts" ("id") on delete cascade,
      "url" text not null,
      "description" text not null default '',
      "events" text[] not null,
      "enabled" boolean not null default true,
      "secret" text not null,
      "previous_secret" text null,
      "previous_secret_expires_at" timestamptz null,
      "failing_since" timestamptz null,
      "disabled_reason" text null,
      "disabled_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "webhook_endpoints_pkey" primary key ("id")
    );`);
    this.addSql(`create index "webhook_endpoints_account_idx" on "webhook_endpoints" ("account_id", "created_at" desc, "id");`);

    this.addSql(`create table "webhook_events" (
      "id" text not null,
      "seq" bigserial not null,
      "account_id" uuid not null references "accounts" ("id") on delete cascade,
      "type" text not null,
      "run_id" uuid null,
      "data" jsonb not null,
      "created_at" timestamptz not null default clock_timestamp(),
      constraint "webhook_events_pkey" primary key ("id")
    );`);

    this.addSql(`create table "webhook_deliveries" (
      "id" uuid not null default gen_random_uuid(),
      "event_id" text not null references "webhook_events" ("id") on delete cascade,
      "endpoint_id" uuid not null references "webhook_endpoints" ("id") on delete cascade,
      "account_id" uuid not null references "accounts" ("id") on delete cascade,
      "run_id" uuid null,
      "seq" bigint not null,
      "status" text not null default 'pending',
      "attempts" integer not null default 0,
      "next_attempt_at" timestamptz not null default now(),
      "enqueued_at" timestamptz null,
      "last_attempt_at" timestamptz null,
      "last_duration_ms" integer null,
      "last_response_code" integer null,
      "last_response_excerpt" text null,
      "last_error" text null,
      "created_at" timestamptz not null default clock_timestamp(),
      "finished_at" timestamptz null,
      constraint "webhook_deliveries_pkey" primary key ("id"),
      constraint "webhook_deliveries_status" check ("status" in ('pending', 'delivered', 'failed'))
    );`);
    this.addSql(`create index "webhook_deliveries_endpoint_idx" on "webhook_deliveries" ("endpoint_id", "created_at" desc, "id");`);
    this.addSql(`create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at", "seq") where "status" = 'pending';`);
    this.addSql(`create index "webhook_deliveries_order_idx" on "webhook_deliveries" ("endpoint_id", "run_id", "seq") where "status" = 'pending';`);

    // Every status a run enters (its insert as QUEUED included) becomes an event for each enabled endpoint of its account that asked for it.
    // The event keeps the run's columns as they are then, but its request (payload): immutable, read from the run when sent.
    this.addSql(`create function "render_runs_webhook_event"() returns trigger language plpgsql as $$
      declare
        event_type text;
        event_id text;
        event_seq bigint;
      begin
        if tg_op = 'UPDATE' and new."status" is not distinct from old."status" then
          return null;
        end if;
        event_type := 'render_run.' || lower(new."status"::text);
        if not exists (select 1 from "webhook_endpoints" e
                        where e."account_id" = new."account_id" and e."enabled" and event_type = any (e."events")) then
          return null;
        end if;
        event_id := 'msg_' || replace(gen_random_uuid()::text, '-', '');
        insert into "webhook_events" ("id", "account_id", "type", "run_id", "data")
          values (event_id, new."account_id", event_type, new."id", to_jsonb(new) - 'payload')
          returning "seq" into event_seq;
        insert into "webhook_deliveries" ("event_id", "endpoint_id", "account_id", "run_id", "seq")
          select event_id, e."id", new."account_id", new."id", event_seq from "webhook_endpoints" e
           where e."account_id" = new."account_id" and e."enabled" and event_type = any (e."events");
        return null;
      end $$;`);
    this.addSql(`create trigger "render_runs_webhook_event" after insert or update of "status" on "render_runs"
      for each row execute function "render_runs_webhook_event"();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "render_runs_webhook_event" on "render_runs";');
    this.addSql('drop function if exists "render_runs_webhook_event"();');
    this.addSql('drop table if exists "webhook_deliveries" cascade;');
    this.addSql('drop table if exists "webhook_events" cascade;');
    this.addSql('drop table if exists "webhook_endpoints" cascade;');
  }
}
