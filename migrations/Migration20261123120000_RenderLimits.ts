import { Migration } from '@mikro-orm/migrations';

/**
 * Render limits (issue 12): what a run costs (pixel-frames, for the daily budget), when its video
 * was deleted under the retention policy, and worker leases renewed by heartbeats.
 */
export class Migration20261123120000_RenderLimits extends Migration {
  override async up(): Promise<void> {
    // Stored, so the budget sums a column instead of reading every payload (inline images can be large).
    this.addSql(`alter table "render_runs" add column "pixel_frames" bigint generated always as (
      ("payload"->>'width')::bigint * ("payload"->>'height')::bigint * ("payload"->>'durationInFrames')::bigint) stored;`);
    this.addSql(`alter table "render_runs" add column "output_expired_at" timestamptz null;`);
    this.addSql(`create index "render_runs_active_idx" on "render_runs" ("account_id") where "status" in ('QUEUED', 'EXECUTING');`);
    this.addSql(`create index "render_runs_retention_idx" on "render_runs" ("finished_at") where "output" is not null;`);

    // One row per EXECUTING run: which attempt holds it and when its worker last proved it was alive.
    // Kept apart from render_runs so a heartbeat neither bumps the run's version nor notifies listeners.
    this.addSql(`create table "render_leases" (
      "run_id" uuid not null,
      "attempt" int not null,
      "worker" text not null,
      "heartbeat_at" timestamptz not null,
      constraint "render_leases_pkey" primary key ("run_id"),
      constraint "render_leases_run_id_foreign" foreign key ("run_id") references "render_runs" ("id") on delete cascade
    );`);

    this.addSql(`create or replace function "render_runs_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('render_runs', json_build_object(
          'id', new.id, 'account_id', new.account_id, 'status', new.status, 'progress', new.progress,
          'attempts', new.attempts, 'version', new.version, 'created_at', new.created_at,
          'updated_at', new.updated_at, 'started_at', new.started_at, 'finished_at', new.finished_at,
          'output', new.output, 'output_expired_at', new.output_expired_at, 'error', left(new.error, 1000))::text);
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function "render_runs_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('render_runs', json_build_object(
          'id', new.id, 'account_id', new.account_id, 'status', new.status, 'progress', new.progress,
          'attempts', new.attempts, 'version', new.version, 'created_at', new.created_at,
          'updated_at', new.updated_at, 'started_at', new.started_at, 'finished_at', new.finished_at,
          'output', new.output, 'error', left(new.error, 1000))::text);
        return null;
      end $$;`);
    this.addSql('drop table if exists "render_leases";');
    this.addSql('drop index if exists "render_runs_retention_idx";');
    this.addSql('drop index if exists "render_runs_active_idx";');
    this.addSql('alter table "render_runs" drop column if exists "output_expired_at";');
    this.addSql('alter table "render_runs" drop column if exists "pixel_frames";');
  }
}
