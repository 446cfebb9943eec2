import type { OperationSpecs } from '../../common/operations';
import { createWebhookInput, redeliverInput, updateWebhookInput, webhookDeliveriesInput, webhookIdInput } from './webhook.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with this one, once), by root field. */
export const webhookOperations: OperationSpecs = {
  'Query.webhookEndpoint': { input: webhookIdInput },
  'Query.webhookDeliveries': { input: webhookDeliveriesInput },
  'Mutation.createWebhookEndpoint': { input: createWebhookInput, example: { url: 'https://example.com/hooks/music', events: ['render_run.completed', 'render_run.failed'], description: 'back office' } },
  'Mutation.updateWebhookEndpoint': { input: updateWebhookInput },
  'Mutation.deleteWebhookEndpoint': { input: webhookIdInput },
  'Mutation.rotateWebhookSecret': { input: webhookIdInput },
  'Mutation.pingWebhookEndpoint': { input: webhookIdInput },
  'Mutation.redeliverWebhook': { input: redeliverInput },
};
