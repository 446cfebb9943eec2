import { z } from 'zod';
import { limitArg, pageArg, uuid } from '../../common/validation';

/** What an endpoint can subscribe to: each state a render run enters. `ping` is sent on demand only. */
export const WEBHOOK_EVENTS = ['render_run.queued', 'render_run.executing', 'render_run.completed', 'render_run.failed', 'render_run.canceled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number] | 'ping';

/** Finished deliveries kept (and listed) per endpoint, newest first; older ones are pruned. */
export const WEBHOOK_LOG_PER_ENDPOINT = 200;
/** Deliveries an endpoint's log lists at most (its kept finished ones and the pending ones), newest first. */
export const WEBHOOK_DELIVERIES_LISTED = 1000;

const URL_TEXT = 'Where events are POSTed: an https:// URL (http:// only when the server allows it) on a public address';
const url = z.string({ message: 'is required' }).min(1, { message: 'must not be empty' }).max(2000, { message: 'must be at most 2000 characters' });
const events = z
  .array(z.enum(WEBHOOK_EVENTS, { message: `must be one of: ${WEBHOOK_EVENTS.join(', ')}` }), { message: 'must be a list of event types' })
  .min(1, { message: 'must name at least one event type' })
  .max(WEBHOOK_EVENTS.length, { message: `must name at most ${WEBHOOK_EVENTS.length} event types` })
  .refine((list) => new Set(list).size === list.length, { message: 'must not repeat an event type' });
const EVENTS_TEXT = `The event types sent to the endpoint: ${WEBHOOK_EVENTS.join(', ')}`;
const description = z.string({ message: 'must be a string' }).max(500, { message: 'must be at most 500 characters' });
const DESCRIPTION_TEXT = 'A note for yourself (at most 500 characters)';
const enabled = z.boolean({ message: 'must be true or false' });
const ENABLED_TEXT = 'Whether events are sent to it (enabling it again clears the reason it was disabled)';
const id = uuid().describe('Id of one of your webhook endpoints');

export const createWebhookInput = z.object({
  url: url.describe(URL_TEXT),
  events: events.describe(EVENTS_TEXT),
  description: description.default('').describe(`${DESCRIPTION_TEXT}; default empty`),
  enabled: enabled.default(true).describe(`${ENABLED_TEXT}; default true`),
});
export const updateWebhookInput = z.object({
  id,
  url: url.optional().describe(`${URL_TEXT}; absent: unchanged`),
  events: events.optional().describe(`${EVENTS_TEXT}; absent: unchanged`),
  description: description.optional().describe(`${DESCRIPTION_TEXT}; absent: unchanged`),
  enabled: enabled.optional().describe(`${ENABLED_TEXT}; absent: unchanged`),
});
export const webhookIdInput = z.object({ id });
export const webhookDeliveriesInput = z.object({
  id,
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg(100, 20).describe('Deliveries per page, 1 to 100 (default 20)'),
});
export const redeliverInput = z.object({ id, deliveryId: uuid().describe('Id of one of the endpoint\'s deliveries') });

export type CreateWebhookInput = z.output<typeof createWebhookInput>;
export type UpdateWebhookInput = z.output<typeof updateWebhookInput>;
export type WebhookIdInput = z.output<typeof webhookIdInput>;
export type WebhookDeliveriesInput = z.output<typeof webhookDeliveriesInput>;
export type RedeliverInput = z.output<typeof redeliverInput>;
