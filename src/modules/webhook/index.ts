import type { AppModule } from '../module';
import { webhookOperations } from './webhook.operations';
import { WebhookResolver } from './webhook.resolver';

export const webhookModule = {
  name: 'webhook',
  entities: [],
  resolvers: [WebhookResolver],
  operations: webhookOperations,
} satisfies AppModule;

export { WebhookDelivery } from './webhook.delivery';
