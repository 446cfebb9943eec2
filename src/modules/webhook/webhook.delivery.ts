import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import type PgBoss from 'pg-boss';
import { Webhook } from 'standardwebhooks';
import type { Logger } from '../../common/logger';
import type { Config } from '../../config/config';
import type { Orm } from '../../db/orm';
import { sqlExecutorOf, type RenderQueue } from '../../jobs/queue';
import { presentRun, runViewOfSnapshot, type RenderRunType, type RenderRuntime } from '../render';
import { WEBHOOK_LOG_PER_ENDPOINT } from './webhook.inputs';
import { DeliveryRow, EndpointRow, WebhookRepository } from './webhook.repository';
import { resolveSafely, ResolvedUrl, checkUrlForm } from './webhook.url';
import { dbOf } from '../../db/request-db';

export const WEBHOOK_QUEUE = 'webhook-delivery';
/** Bytes of a receiver's answer kept in the delivery log (its owner's eyes only). */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** Deliveries handed to the queue per dispatch round and worker. */
const DISPATCH_BATCH = 100;
/**
 * How long a delivery job may stay active: its attempt's timeout and a margin for reading the event
 * and recording the outcome. A process killed mid-attempt leaves the job to expire, then pg-boss
 * hands it to another.
 */
export const jobExpireS = (config: Pick<Config['webhook'], 'timeoutMs'>): number => Math.ceil(config.timeoutMs / 1000) + 10;
/** A delivery queued this long ago and still pending lost its job (the job's own retries used up by crashes): it is queued again. */
const LOST_JOB_S = 3600;
/** A delivery waiting for an earlier event of the same run to the same endpoint looks again after this long. */
const ORDER_WAIT_S = 1;

export interface WebhookDeliveryDeps {
  orm: Orm;
  /** The process's pg-boss (the render queue's), which carries the delivery jobs too. */
  queue: RenderQueue;
  /** Signs output links in render_run payloads, as GET /api/tasks/runs does. */
  render: Pick<RenderRuntime, 'storage' | 'signer'>;
  config: Config['webhook'];
  renderSettings: Pick<Config['render'], 'retentionHours'>;
  logger: Logger;
}

interface DeliveryJob {
  deliveryId: string;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  code: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  startedAt: Date;
}

/** The Standard Webhooks signature header: one `v1,…` per secret in force (the current one, and a rotated-out one during its overlap). */
export function signatures(endpoint: Pick<EndpointRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>, eventId: string, at: Date, body: string): string {
  const secrets = [endpoint.secret];
  if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > at) secrets.push(endpoint.previous_secret);
  return secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' ');
}

/** The members of a run and of its output in the order of the REST RenderRun shape (src/http/rest/shapes.ts; test/webhooks.int.test.ts compares). */
const RUN_MEMBERS = ['id', 'status', 'taskIdentifier', 'payload', 'progress', 'createdAt', 'updatedAt', 'startedAt', 'finishedAt', 'attempts', 'output', 'outputExpiredAt', 'error'] as const;
const OUTPUT_MEMBERS = ['url', 'expiresAt', 'retainedUntil', 'mimeType', 'bytes', 'width', 'height', 'fps', 'durationInFrames', 'codec'] as const;
const ordered = (value: object, members: readonly string[]) => Object.fromEntries(members.map((m) => [m, (value as Record<string, unknown>)[m] ?? null]));

/** A run as GET /api/tasks/runs answers it: the same members, in the same order. */
export function restRun(run: RenderRunType): Record<string, unknown> {
  return { ...ordered(run, RUN_MEMBERS), output: run.output ? ordered(run.output, OUTPUT_MEMBERS) : null };
}

/** Text PostgreSQL can store and a log can show: valid UTF-8, without NUL. */
const storable = (bytes: Buffer): string => bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');

/**
 * POSTs `body` to the checked URL, connecting only to an address checked by resolveSafely (never a
 * second lookup's answer), following no redirect, giving up after `timeoutMs`; keeps the first
 * RESPONSE_EXCERPT_BYTES of the answer.
 */
export function post(target: ResolvedUrl, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ code: number; excerpt: string }> {
  const { url, addresses } = target;
  // Only the checked addresses: every one of them when the socket asks for all (it tries each in turn).
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (error: Error | null, value?: { code: number; excerpt: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value!);
    };
    const request = client.request({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup,
      agent: false,
    });
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => done(error));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => done(null, { code: response.statusCode ?? 0, excerpt: storable(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)) });
      response.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_EXCERPT_BYTES) {
          chunks.push(chunk);
          kept += chunk.length;
        }
        // Enough of it: the rest of a long (or endless) answer is not read.
        if (kept >= RESPONSE_EXCERPT_BYTES) response.destroy();
      });
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
    });
    request.end(body);
  });
}

/**
 * Webhook delivery, in every worker process: a dispatcher hands due deliveries (made by the
 * render_runs trigger, a ping or a redelivery) to the pg-boss queue, and pollers send them. At
 * least once: a delivery is `pending` until an attempt is recorded as answered 2xx (a worker
 * dying mid-attempt leaves the job to expire and run again). In order per run and endpoint: a
 * delivery waits while an earlier event of the same run to the same endpoint is still pending.
 * Failed attempts are retried after WEBHOOK_RETRY_SCHEDULE_S; an endpoint failing for
 * WEBHOOK_DISABLE_AFTER_S without a success is disabled, with the reason.
 */
export class WebhookDelivery {
  private boss?: PgBoss;
  private readonly workerIds: string[] = [];
  private timer?: NodeJS.Timeout;
  private dispatching?: Promise<void>;
  private stopped = false;

  constructor(private readonly deps: WebhookDeliveryDeps) {}

  async start(concurrency = 2): Promise<void> {
    const { config } = this.deps;
    // Crash recovery only: an attempt's own failures are retried on the schedule, by the dispatcher.
    this.boss = await this.deps.queue.ensureQueue(WEBHOOK_QUEUE, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: jobExpireS(config) });
    const options = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: Math.max(0.5, config.dispatchIntervalMs / 1000) };
    for (let i = 0; i < concurrency; i += 1) {
      this.workerIds.push(await this.boss.work<DeliveryJob>(WEBHOOK_QUEUE, options, async ([job]) => this.deliver(job.data.deliveryId)));
    }
    const tick = () => {
      if (this.stopped) return;
      this.dispatching = this.dispatch()
        .then(() => undefined)
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'webhook dispatch failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, config.dispatchIntervalMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.dispatching;
    for (const id of this.workerIds.splice(0)) await this.boss?.offWork({ id });
  }

  /** Hands due deliveries nobody has queued to pg-boss, in the transaction that marks them queued: both or neither. */
  async dispatch(): Promise<number> {
    const boss = this.boss;
    if (!boss) return 0;
    return (this.deps.orm.em.fork() as EntityManager).transactional(async (em) => {
      const repo = new WebhookRepository(dbOf(em as EntityManager));
      const due = await repo.dueDeliveries(DISPATCH_BATCH, LOST_JOB_S);
      if (due.length === 0) return 0;
      await boss.insert(
        due.map((row) => ({ name: WEBHOOK_QUEUE, data: { deliveryId: row.id } })),
        { db: sqlExecutorOf(em as EntityManager) } as PgBoss.InsertOptions,
      );
      await repo.markEnqueued(due.map((row) => row.id));
      return due.length;
    });
  }

  /** One attempt at one delivery (the job's handler). */
  async deliver(deliveryId: string): Promise<void> {
    const repo = new WebhookRepository(dbOf(this.deps.orm.em.fork() as EntityManager));
    const delivery = await repo.delivery(deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    const endpoint = await repo.endpointById(delivery.endpoint_id);
    if (!endpoint) return;
    if (!endpoint.enabled && delivery.event_type !== 'ping') {
      await repo.failPending(delivery.id, 'the endpoint is disabled');
      return;
    }
    if (delivery.run_id && (await this.waitsForEarlier(repo, delivery))) {
      await repo.postpone(delivery.id, ORDER_WAIT_S);
      return;
    }
    const outcome = await this.attempt(repo, endpoint, delivery);
    await this.record(repo, endpoint, delivery, outcome);
  }

  private async waitsForEarlier(repo: WebhookRepository, delivery: DeliveryRow): Promise<boolean> {
    return repo.hasEarlierPending(delivery);
  }

  /** The event as sent: `{type, timestamp, data}`; a run's data is the run as GET /api/tasks/runs shows it (a fresh output link). */
  async body(repo: WebhookRepository, delivery: DeliveryRow): Promise<string | null> {
    let data = delivery.event_data;
    if (delivery.event_type !== 'ping') {
      const payload = delivery.run_id ? await repo.runPayload(delivery.run_id) : null;
      if (!payload) return null;
      data = restRun(await presentRun(runViewOfSnapshot({ ...delivery.event_data, payload }), this.deps.render, this.deps.renderSettings));
    }
    return JSON.stringify({ type: delivery.event_type, timestamp: delivery.event_created_at.toISOString(), data });
  }

  private async attempt(repo: WebhookRepository, endpoint: EndpointRow, delivery: DeliveryRow): Promise<AttemptOutcome> {
    const { config, logger } = this.deps;
    const startedAt = new Date();
    const began = performance.now();
    const outcome = (fields: Omit<AttemptOutcome, 'durationMs' | 'startedAt'>): AttemptOutcome => ({ ...fields, startedAt, durationMs: Math.round(performance.now() - began) });
    let target: ResolvedUrl;
    try {
      // Checked again now: the name may resolve elsewhere than at registration (DNS rebinding).
      target = await resolveSafely(checkUrlForm(endpoint.url, config), config);
    } catch (error) {
      return outcome({ ok: false, code: null, excerpt: null, error: `refused: ${(error as Error).message}` });
    }
    const body = await this.body(repo, delivery);
    if (body === null) return outcome({ ok: false, code: null, excerpt: null, error: 'the run no longer exists' });
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'music-agent-service-webhooks/1',
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
      'webhook-signature': signatures(endpoint, delivery.event_id, startedAt, body),
    };
    try {
      const { code, excerpt } = await post(target, headers, body, config.timeoutMs);
      return outcome({ ok: code >= 200 && code < 300, code, excerpt, error: code >= 200 && code < 300 ? null : `answered HTTP ${code}` });
    } catch (error) {
      logger.debug({ endpoint: endpoint.id, delivery: delivery.id, err: error }, 'webhook attempt failed');
      return outcome({ ok: false, code: null, excerpt: null, error: (error as Error).message.slice(0, 300) });
    }
  }

  /** The attempt's outcome, the next attempt (or the end) and the endpoint's health, in one transaction. */
  private async record(repo: WebhookRepository, endpoint: EndpointRow, delivery: DeliveryRow, outcome: AttemptOutcome): Promise<void> {
    const { retrySchedule, disableAfterS } = this.deps.config;
    const attempts = delivery.attempts + 1;
    await repo.transaction(async (tx) => {
      // The attempt in the account's usage (docs/api/usage.md), once: with the attempt's own row change below.
      const countAttempt = () => tx.countDeliveryAttempt(delivery.account_id, outcome.startedAt);
      let changed: unknown[];
      if (outcome.ok) {
        changed = await tx.recordAttempt(delivery, { ...outcome, attempts }, 'delivered');
        if (changed.length) {
          await tx.endpointSucceeded(endpoint.id);
          await countAttempt();
        }
      } else {
        const delay = retrySchedule[attempts - 1];
        changed = await tx.recordAttempt(delivery, { ...outcome, attempts }, delay === undefined ? 'failed' : { retryInS: delay });
        if (changed.length) {
          await countAttempt();
          await tx.endpointFailed(endpoint.id, outcome.startedAt, disableAfterS, outcome.error ?? 'failed');
        }
      }
      if (changed.length && (outcome.ok || retrySchedule[attempts - 1] === undefined)) {
        // The log is bounded: the newest finished deliveries of the endpoint are kept.
        await tx.pruneLog(endpoint.id, WEBHOOK_LOG_PER_ENDPOINT);
      }
    });
  }
}
