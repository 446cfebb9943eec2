import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../db/sql';
import { WEBHOOK_DELIVERIES_LISTED } from './webhook.inputs';
import type { Db } from '../../db/request-db';

/** A webhook_endpoints row (timestamps parsed). */
export interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  disabled_reason: string | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A webhook_deliveries row joined with its event. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  run_id: string | null;
  seq: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  enqueued_at: Date | null;
  last_attempt_at: Date | null;
  last_duration_ms: number | null;
  last_response_code: number | null;
  last_response_excerpt: string | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
}

const DELIVERY = `d.*, e."type" as event_type, e."data" as event_data, e."created_at" as event_created_at
  from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"`;
/** The same without the event's data (the log lists deliveries, not what they carried). */
const DELIVERY_LISTED = `d.*, e."type" as event_type, null::jsonb as event_data, e."created_at" as event_created_at
  from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"`;

const dates = <T>(row: T, ...keys: (keyof T)[]): T => {
  for (const key of keys) {
    const value = row[key] as unknown;
    if (value !== null && value !== undefined && !(value instanceof Date)) (row as Record<keyof T, unknown>)[key] = new Date(value as string);
  }
  return row;
};
const endpoint = (row: EndpointRow) => dates(row, 'previous_secret_expires_at', 'failing_since', 'disabled_at', 'created_at', 'updated_at');
const delivery = (row: DeliveryRow) => dates(row, 'next_attempt_at', 'enqueued_at', 'last_attempt_at', 'created_at', 'finished_at', 'event_created_at');

/** The webhook tables' statements, on the request's (or the worker's) entity manager, inside its transaction if any. */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: WebhookRepository) => Promise<T>): Promise<T> {
    return this.db.transactional((em) => work(new WebhookRepository(em)));
  }

  get entityManager(): EntityManager {
    return this.db.em;
  }

  async rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.db.execute<T>(sql, params);
  }

  /**
   * One delivery attempt in the account's usage for the attempt's hour (`account_usage`, whose other
   * figures the API instances flush: src/auth/usage.ts). The one statement of this module on that table.
   */
  async countDeliveryAttempt(accountId: string, at: Date): Promise<void> {
    await this.rows(
      `insert into "account_usage" ("account_id", "hour", "webhook_deliveries") values (?, date_trunc('hour', ?::timestamptz at time zone 'UTC') at time zone 'UTC', 1)
       on conflict ("account_id", "hour") do update set "webhook_deliveries" = "account_usage"."webhook_deliveries" + 1`,
      [accountId, at],
    );
  }

  /** Serialises endpoint creation per account (the cap is counted under it). */
  async lockAccount(accountId: string): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended('webhook-endpoints:' || ?, 0))`, [accountId]);
  }

  async countEndpoints(accountId: string): Promise<number> {
    const [row] = await this.rows<{ n: number }>('select count(*)::int as n from "webhook_endpoints" where "account_id" = ?', [accountId]);
    return row.n;
  }

  async endpointsOf(accountId: string): Promise<EndpointRow[]> {
    return (await this.rows<EndpointRow>('select * from "webhook_endpoints" where "account_id" = ? order by "created_at" desc, "id" limit 1000', [accountId])).map(endpoint);
  }

  async ownedEndpoint(accountId: string, id: string, forUpdate = false): Promise<EndpointRow | null> {
    const [row] = await this.rows<EndpointRow>(`select * from "webhook_endpoints" where "id" = ? and "account_id" = ?${forUpdate ? ' for update' : ''}`, [id, accountId]);
    return row ? endpoint(row) : null;
  }

  async endpointById(id: string): Promise<EndpointRow | null> {
    const [row] = await this.rows<EndpointRow>('select * from "webhook_endpoints" where "id" = ?', [id]);
    return row ? endpoint(row) : null;
  }

  async insertEndpoint(accountId: string, fields: { url: string; description: string; events: string[]; enabled: boolean; secret: string }): Promise<EndpointRow> {
    const [row] = await this.rows<EndpointRow>(
      'insert into "webhook_endpoints" ("account_id", "url", "description", "events", "enabled", "secret") values (?, ?, ?, ?::text[], ?, ?) returning *',
      [accountId, fields.url, fields.description, pgArray(fields.events), fields.enabled, fields.secret],
    );
    return endpoint(row);
  }

  async updateEndpoint(id: string, fields: { url?: string; description?: string; events?: string[]; enabled?: boolean }): Promise<EndpointRow> {
    const sets: string[] = ['"updated_at" = now()'];
    const params: unknown[] = [];
    if (fields.url !== undefined) {
      sets.push('"url" = ?');
      params.push(fields.url);
    }
    if (fields.description !== undefined) {
      sets.push('"description" = ?');
      params.push(fields.description);
    }
    if (fields.events !== undefined) {
      sets.push('"events" = ?::text[]');
      params.push(pgArray(fields.events));
    }
    if (fields.enabled === true) sets.push('"enabled" = true', '"disabled_reason" = null', '"disabled_at" = null', '"failing_since" = null');
    if (fields.enabled === false) sets.push('"enabled" = false', '"disabled_at" = coalesce("disabled_at", now())');
    const [row] = await this.rows<EndpointRow>(`update "webhook_endpoints" set ${sets.join(', ')} where "id" = ? returning *`, [...params, id]);
    return endpoint(row);
  }

  /** Deletes the endpoint, its deliveries (cascade) and the events no other endpoint's delivery still names. */
  async deleteEndpoint(id: string): Promise<void> {
    const events = await this.rows<{ event_id: string }>('select distinct "event_id" from "webhook_deliveries" where "endpoint_id" = ?', [id]);
    await this.rows('delete from "webhook_endpoints" where "id" = ?', [id]);
    await this.dropOrphanEvents(events.map((row) => row.event_id));
  }

  /** Of these events, deletes those no delivery names any more (the log is bounded, and so are the events). */
  async dropOrphanEvents(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.rows(
      `delete from "webhook_events" e where e."id" = any(?::text[]) and not exists (select 1 from "webhook_deliveries" d where d."event_id" = e."id")`,
      [pgArray([...new Set(eventIds)])],
    );
  }

  async rotateSecret(id: string, secret: string, overlapS: number): Promise<EndpointRow> {
    const [row] = await this.rows<EndpointRow>(
      `update "webhook_endpoints" set "previous_secret" = "secret", "previous_secret_expires_at" = now() + ? * interval '1 second', "secret" = ?, "updated_at" = now()
        where "id" = ? returning *`,
      [overlapS, secret, id],
    );
    return endpoint(row);
  }

  /** An endpoint's newest WEBHOOK_DELIVERIES_LISTED deliveries, newest first. */
  async deliveriesOf(endpointId: string): Promise<DeliveryRow[]> {
    const rows = await this.rows<DeliveryRow>(`select ${DELIVERY_LISTED} where d."endpoint_id" = ? order by d."created_at" desc, d."id" limit ${WEBHOOK_DELIVERIES_LISTED}`, [endpointId]);
    return rows.map(delivery);
  }

  /** A run's request (render_runs.payload: immutable, so events do not copy it); null once the run is gone. */
  async runPayload(runId: string): Promise<Record<string, unknown> | null> {
    const [row] = await this.rows<{ payload: Record<string, unknown> }>('select "payload" from "render_runs" where "id" = ?', [runId]);
    return row?.payload ?? null;
  }

  async delivery(id: string): Promise<DeliveryRow | null> {
    const [row] = await this.rows<DeliveryRow>(`select ${DELIVERY} where d."id" = ?`, [id]);
    return row ? delivery(row) : null;
  }

  /** A ping event and its one delivery, to this endpoint only. */
  async insertPing(accountId: string, endpointId: string, data: Record<string, unknown>): Promise<string> {
    const [event] = await this.rows<{ id: string; seq: string }>(
      `insert into "webhook_events" ("id", "account_id", "type", "data") values ('msg_' || replace(gen_random_uuid()::text, '-', ''), ?, 'ping', ?::jsonb) returning "id", "seq"`,
      [accountId, JSON.stringify(data)],
    );
    return this.insertDelivery(event.id, endpointId, accountId, null, event.seq);
  }

  /** A new delivery of an event already sent (the same event id: receivers can tell it is a repeat). */
  async redeliver(from: DeliveryRow): Promise<string> {
    return this.insertDelivery(from.event_id, from.endpoint_id, from.account_id, from.run_id, from.seq);
  }

  private async insertDelivery(eventId: string, endpointId: string, accountId: string, runId: string | null, seq: string): Promise<string> {
    const [row] = await this.rows<{ id: string }>(
      'insert into "webhook_deliveries" ("event_id", "endpoint_id", "account_id", "run_id", "seq") values (?, ?, ?, ?, ?) returning "id"',
      [eventId, endpointId, accountId, runId, seq],
    );
    return row.id;
  }

  // ---- delivery (WebhookDelivery) ----

  /** Pending deliveries that are due and queued by nobody (or queued over `lostJobS` ago), oldest first, locked for this transaction. */
  dueDeliveries(limit: number, lostJobS: number): Promise<{ id: string }[]> {
    return this.rows<{ id: string }>(
      `select "id" from "webhook_deliveries"
        where "status" = 'pending' and "next_attempt_at" <= now() and ("enqueued_at" is null or "enqueued_at" < now() - interval '${Number(lostJobS)} seconds')
        order by "next_attempt_at", "seq" limit ${Number(limit)} for update skip locked`,
    );
  }

  async markEnqueued(ids: string[]): Promise<void> {
    await this.rows('update "webhook_deliveries" set "enqueued_at" = now() where "id" = any(?::uuid[])', [pgArray(ids)]);
  }

  /** Ends a pending delivery as failed, with the reason. */
  async failPending(id: string, reason: string): Promise<void> {
    await this.rows(`update "webhook_deliveries" set "status" = 'failed', "finished_at" = now(), "last_error" = ? where "id" = ? and "status" = 'pending'`, [reason, id]);
  }

  /** Puts a pending delivery back, due in `seconds` (not queued). */
  async postpone(id: string, seconds: number): Promise<void> {
    await this.rows(`update "webhook_deliveries" set "enqueued_at" = null, "next_attempt_at" = now() + interval '${Number(seconds)} second' where "id" = ? and "status" = 'pending'`, [id]);
  }

  /** Another pending delivery of the same run to the same endpoint comes before this one (the run's changes go in order). */
  async hasEarlierPending(delivery: Pick<DeliveryRow, 'id' | 'endpoint_id' | 'run_id' | 'seq' | 'created_at'>): Promise<boolean> {
    const [earlier] = await this.rows<{ id: string }>(
      `select "id" from "webhook_deliveries" where "endpoint_id" = ? and "run_id" = ? and "status" = 'pending' and "id" <> ?
          and ("seq" < ? or ("seq" = ? and ("created_at", "id") < (?, ?))) limit 1`,
      [delivery.endpoint_id, delivery.run_id, delivery.id, delivery.seq, delivery.seq, delivery.created_at, delivery.id],
    );
    return earlier !== undefined;
  }

  /**
   * Records an attempt on a delivery still pending at the attempts it was read with: `delivered`,
   * `failed` for good, or due again in `retryInS`. Answers the rows changed (none: another attempt recorded first).
   */
  recordAttempt(
    delivery: Pick<DeliveryRow, 'id' | 'attempts'>,
    attempt: { attempts: number; startedAt: Date; durationMs: number; code: number | null; excerpt: string | null; error: string | null },
    next: 'delivered' | 'failed' | { retryInS: number },
  ): Promise<unknown[]> {
    const last = [attempt.startedAt, attempt.durationMs, attempt.code, attempt.excerpt, attempt.error];
    if (next === 'delivered') {
      return this.rows(
        `update "webhook_deliveries" set "status" = 'delivered', "finished_at" = now(), "attempts" = ?,
            "last_attempt_at" = ?, "last_duration_ms" = ?, "last_response_code" = ?, "last_response_excerpt" = ?, "last_error" = ?
          where "id" = ? and "status" = 'pending' and "attempts" = ? returning "id"`,
        [attempt.attempts, ...last, delivery.id, delivery.attempts],
      );
    }
    return this.rows(
      `update "webhook_deliveries" set "attempts" = ?,
          "last_attempt_at" = ?, "last_duration_ms" = ?, "last_response_code" = ?, "last_response_excerpt" = ?, "last_error" = ?,
          ${next === 'failed' ? `"status" = 'failed', "finished_at" = now()` : `"enqueued_at" = null, "next_attempt_at" = now() + ${Number(next.retryInS)} * interval '1 second'`}
        where "id" = ? and "status" = 'pending' and "attempts" = ? returning "id"`,
      [attempt.attempts, ...last, delivery.id, delivery.attempts],
    );
  }

  /** The endpoint answered: it is failing no longer. */
  async endpointSucceeded(endpointId: string): Promise<void> {
    await this.rows('update "webhook_endpoints" set "failing_since" = null where "id" = ?', [endpointId]);
  }

  /** The endpoint failed at `at`: failing since its first failure, disabled once that is `disableAfterS` ago (with the reason). */
  async endpointFailed(endpointId: string, at: Date, disableAfterS: number, lastError: string): Promise<void> {
    await this.rows(
      `update "webhook_endpoints" set "failing_since" = coalesce("failing_since", ?),
          "enabled" = case when coalesce("failing_since", ?) <= now() - ? * interval '1 second' then false else "enabled" end,
          "disabled_at" = case when "enabled" and coalesce("failing_since", ?) <= now() - ? * interval '1 second' then now() else "disabled_at" end,
          "disabled_reason" = case when "enabled" and coalesce("failing_since", ?) <= now() - ? * interval '1 second'
            then 'Disabled by the service: deliveries failed for ' || ? || ' seconds without a success (last: ' || ? || ')' else "disabled_reason" end
        where "id" = ?`,
      [at, at, disableAfterS, at, disableAfterS, at, disableAfterS, disableAfterS, lastError, endpointId],
    );
  }

  /** Keeps the endpoint's newest `keep` finished deliveries (the log is bounded), and drops the events no delivery needs any more. */
  async pruneLog(endpointId: string, keep: number): Promise<void> {
    const pruned = await this.rows<{ event_id: string }>(
      `delete from "webhook_deliveries" where "endpoint_id" = ? and "status" <> 'pending' and "id" not in (
         select "id" from "webhook_deliveries" where "endpoint_id" = ? and "status" <> 'pending' order by "created_at" desc, "id" limit ${Number(keep)})
       returning "event_id"`,
      [endpointId, endpointId],
    );
    await this.dropOrphanEvents(pruned.map((row) => row.event_id));
  }
}
