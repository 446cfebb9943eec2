import { Migration } from '@mikro-orm/migrations';

/**
 * Render runs. Every insert and update bumps `version` and is announced on the `render_runs`
 * channel (LISTEN/NOTIFY) by a trigger, so API instances see changes made by any worker process.
 */
export class Migration20261121050000_RenderRuns extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "render_runs" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "account_id" uuid not null,
      "task_identifier" text not null,
      "status" text not null default 'QUEUED',
      "payload" jsonb not null,
      "progress" double precision not null default 0,
      "attempts" int not null default 0,
      "output" jsonb null,
      "error" text null,
      "job_id" uuid null,
      "version" int not null default 0,
      "started_at" timestamptz null,
      "finished_at" timestamptz null,
      constraint "render_runs_pkey" primary key ("id"),
      constraint "render_runs_status_check" check ("status" in ('QUEUED', 'EXECUTING', 'COMPLETED', 'FAILED', 'CANCELED')),
      constraint "render_runs_progress_check" check ("progress" >= 0 and "progress" <= 1)
    );`);
    this.addSql(`create index "render_runs_account_created_idx" on "render_runs" ("account_id", "created_at" desc, "id" desc);`);
    this.addSql(`alter table "render_runs" add constraint "render_runs_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`create function "render_runs_bump_version"() returns trigger language plpgsql as $$
      begin
        new.version := old.version + 1;
        new.updated_at := clock_timestamp();
        return new;
      end $$;`);
    this.addSql(`create trigger "render_runs_bump_version" before update on "render_runs"
      for each row execute function "render_runs_bump_version"();`);
    // The payload (input props) never changes and may be large: listeners already have it.
    this.addSql(`create function "render_runs_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('render_runs', json_build_object(
          'id', new.id, 'account_id', new.account_id, 'status', new.status, 'progress', new.progress,
          'attempts', new.attempts, 'version', new.version, 'created_at', new.created_at,
          'updated_at', new.updated_at, 'started_at', new.started_at, 'finished_at', new.finished_at,
          'output', new.output, 'error', left(new.error, 1000))::text);
        return null;
      end $$;`);
    this.addSql(`create trigger "render_runs_notify" after insert or update on "render_runs"
      for each row execute function "render_runs_notify"();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "render_runs" cascade;');
    this.addSql('drop function if exists "render_runs_notify"();');
    this.addSql('drop function if exists "render_runs_bump_version"();');
  }
}
