import { randomBytes } from 'node:crypto';
import type { Viewer } from '../../auth/viewer';
import { AppError, notFound } from '../../common/errors';
import { PageRequest, sortKeys } from '../../common/paging';
import { byCodePoint, compareKeys, PageOf, pageOfList } from '../../graphql/common.types';
import type { CreateWebhookInput, RedeliverInput, UpdateWebhookInput, WebhookIdInput } from './webhook.inputs';
import type { DeliveryRow, EndpointRow, WebhookRepository } from './webhook.repository';
import type { WebhookDeliveryType, WebhookEndpointType, WebhookEndpointWithSecret } from './webhook.types';
import { checkUrlForm, resolveSafely, UrlPolicy } from './webhook.url';

export interface WebhookSettings extends UrlPolicy {
  /** Also bounds the host name's lookup at registration. */
  timeoutMs: number;
  maxEndpointsPerAccount: number;
  secretOverlapS: number;
}

/** A fresh signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export const toEndpoint = (row: EndpointRow): WebhookEndpointType => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  disabledAt: row.disabled_at,
  failingSince: row.failing_since,
  previousSecretExpiresAt: row.previous_secret_expires_at && row.previous_secret_expires_at > new Date() ? row.previous_secret_expires_at : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const toDelivery = (row: DeliveryRow): WebhookDeliveryType => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  runId: row.run_id,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
  lastAttemptAt: row.last_attempt_at,
  lastDurationMs: row.last_duration_ms,
  lastResponseCode: row.last_response_code,
  lastResponseExcerpt: row.last_response_excerpt,
  lastError: row.last_error,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

const listOrder = <T extends { createdAt: Date; id: string }>(list: string, scope: string) => ({
  list,
  scope,
  key: sortKeys.isoTimeThenUuid,
  keyOf: (item: T) => [item.createdAt.toISOString(), item.id] as const,
  compare: compareKeys((a, b) => byCodePoint(b, a), byCodePoint),
});

/**
 * Webhook endpoints are personal: always the caller's own account's (like API keys), so another
 * account's endpoint (and its deliveries, and what its receiver answered) answers 404.
 */
export class WebhookService {
  constructor(
    private readonly repo: WebhookRepository,
    private readonly settings: WebhookSettings,
    /** The account's endpoint cap: its override (an admin's, docs/api/usage.md, Per-account limits), else WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT. */
    private readonly maxEndpointsOf: (accountId: string) => number = () => settings.maxEndpointsPerAccount,
  ) {}

  async list(viewer: Viewer, request: PageRequest): Promise<PageOf<WebhookEndpointType>> {
    const rows = (await this.repo.endpointsOf(viewer.accountId)).map(toEndpoint);
    return pageOfList(rows, request, listOrder<WebhookEndpointType>('Query.webhookEndpoints', viewer.accountId));
  }

  async get(viewer: Viewer, input: WebhookIdInput): Promise<WebhookEndpointType> {
    return toEndpoint(await this.owned(viewer, input.id));
  }

  async create(viewer: Viewer, input: CreateWebhookInput): Promise<WebhookEndpointWithSecret> {
    const url = await this.checkedUrl(input.url);
    const secret = newSigningSecret();
    const row = await this.repo.transaction(async (repo) => {
      await repo.lockAccount(viewer.accountId);
      const max = this.maxEndpointsOf(viewer.accountId);
      if ((await repo.countEndpoints(viewer.accountId)) >= max) {
        throw new AppError('CONFLICT', `An account may register at most ${max} webhook endpoints; delete one (DELETE /api/webhooks/{id}) first`);
      }
      return repo.insertEndpoint(viewer.accountId, { url, description: input.description, events: input.events, enabled: input.enabled, secret });
    });
    return { endpoint: toEndpoint(row), secret };
  }

  async update(viewer: Viewer, input: UpdateWebhookInput): Promise<WebhookEndpointType> {
    const url = input.url === undefined ? undefined : await this.checkedUrl(input.url);
    return this.repo.transaction(async (repo) => {
      const row = await repo.ownedEndpoint(viewer.accountId, input.id, true);
      if (!row) throw notFound('Webhook endpoint');
      return toEndpoint(await repo.updateEndpoint(row.id, { url, events: input.events, description: input.description, enabled: input.enabled }));
    });
  }

  async delete(viewer: Viewer, input: WebhookIdInput): Promise<WebhookEndpointType> {
    return this.repo.transaction(async (repo) => {
      const row = await repo.ownedEndpoint(viewer.accountId, input.id, true);
      if (!row) throw notFound('Webhook endpoint');
      await repo.deleteEndpoint(row.id);
      return toEndpoint(row);
    });
  }

  /** A new secret; the old one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_S (24 h), so receivers can switch without losing events. */
  async rotateSecret(viewer: Viewer, input: WebhookIdInput): Promise<WebhookEndpointWithSecret> {
    const secret = newSigningSecret();
    return this.repo.transaction(async (repo) => {
      const row = await repo.ownedEndpoint(viewer.accountId, input.id, true);
      if (!row) throw notFound('Webhook endpoint');
      return { endpoint: toEndpoint(await repo.rotateSecret(row.id, secret, this.settings.secretOverlapS)), secret };
    });
  }

  /** Sends a `ping` event to the endpoint (enabled or not), to test it; answers the delivery to follow in the log. */
  async ping(viewer: Viewer, input: WebhookIdInput): Promise<WebhookDeliveryType> {
    const endpoint = await this.owned(viewer, input.id);
    const id = await this.repo.insertPing(viewer.accountId, endpoint.id, { endpointId: endpoint.id, message: 'ping from the music agent service' });
    return toDelivery((await this.repo.delivery(id))!);
  }

  async deliveries(viewer: Viewer, input: WebhookIdInput, request: PageRequest): Promise<PageOf<WebhookDeliveryType>> {
    const endpoint = await this.owned(viewer, input.id);
    const rows = (await this.repo.deliveriesOf(endpoint.id)).map(toDelivery);
    return pageOfList(rows, request, listOrder<WebhookDeliveryType>('Query.webhookDeliveries', endpoint.id));
  }

  /** Sends one of the endpoint's events again, as a new delivery with the same event id. */
  async redeliver(viewer: Viewer, input: RedeliverInput): Promise<WebhookDeliveryType> {
    const endpoint = await this.owned(viewer, input.id);
    const from = await this.repo.delivery(input.deliveryId);
    if (!from || from.endpoint_id !== endpoint.id) throw notFound('Webhook delivery');
    const id = await this.repo.redeliver(from);
    return toDelivery((await this.repo.delivery(id))!);
  }

  private async owned(viewer: Viewer, id: string): Promise<EndpointRow> {
    const row = await this.repo.ownedEndpoint(viewer.accountId, id);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  private async checkedUrl(raw: string): Promise<string> {
    const url = checkUrlForm(raw, this.settings);
    await resolveSafely(url, this.settings);
    return url.toString();
  }
}
