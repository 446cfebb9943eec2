import { Extensions, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { maxItems } from '../../common/bounds';
import { AFTER_DESCRIPTION, FIRST_DESCRIPTION } from '../../common/paging';
import { describe } from '../../common/validation';
import { Page } from '../../graphql/common.types';
import { createWebhookInput, redeliverInput, updateWebhookInput, WEBHOOK_EVENTS, WEBHOOK_LOG_PER_ENDPOINT, webhookDeliveriesInput, webhookIdInput } from './webhook.inputs';

@ObjectType('WebhookEndpoint', { description: 'Where the caller\'s events are POSTed, signed the Standard Webhooks way; its secret is shown only when created or rotated' })
export class WebhookEndpointType {
  @Field(() => ID, { description: 'The endpoint id (UUID)' })
  id!: string;

  @Field({ description: 'The URL events are POSTed to' })
  url!: string;

  @Field({ description: 'A note for yourself' })
  description!: string;

  @Extensions(maxItems(WEBHOOK_EVENTS.length))
  @Field(() => [String], { description: 'The event types sent to it' })
  events!: string[];

  @Field({ description: 'Whether events are sent to it' })
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: 'Why the service disabled it (deliveries failing for WEBHOOK_DISABLE_AFTER_S, 3 days by default); null when enabled or disabled by you' })
  disabledReason!: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was disabled' })
  disabledAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'Since when its deliveries have failed without a success in between; null when the last one succeeded' })
  failingSince!: Date | null;

  @Field(() => Date, { nullable: true, description: 'Until when the secret before the last rotation still signs deliveries beside the current one' })
  previousSecretExpiresAt!: Date | null;

  @Field({ description: 'When it was registered' })
  createdAt!: Date;

  @Field({ description: 'When it was last changed' })
  updatedAt!: Date;
}

@ObjectType('WebhookEndpointPage', { description: 'A page of the caller\'s webhook endpoints, newest first' })
export class WebhookEndpointPage extends Page(WebhookEndpointType, 100) {}

@ObjectType('WebhookEndpointWithSecret', { description: 'An endpoint with its signing secret: answered once, when it is created or its secret rotated' })
export class WebhookEndpointWithSecret {
  @Field(() => WebhookEndpointType, { description: 'The endpoint as listed afterwards (without its secret)' })
  endpoint!: WebhookEndpointType;

  @Field({ description: 'The signing secret (whsec_…) to verify deliveries with: shown this once, never again' })
  secret!: string;
}

@ObjectType('WebhookDelivery', { description: 'One event sent (or being sent) to one endpoint, with its latest attempt' })
export class WebhookDeliveryType {
  @Field(() => ID, { description: 'The delivery id (UUID): redeliver it by this id' })
  id!: string;

  @Field({ description: 'The event id, sent as the webhook-id header (the same for every attempt and redelivery)' })
  eventId!: string;

  @Field({ description: 'The event type (render_run.completed, ping, …)' })
  eventType!: string;

  @Field(() => ID, { nullable: true, description: 'The run the event is about; null for ping' })
  runId!: string | null;

  @Field({ description: 'pending (being sent or retried), delivered (a 2xx answer) or failed (retries used up, or the endpoint disabled)' })
  status!: string;

  @Field(() => Int, { description: 'Attempts made so far' })
  attempts!: number;

  @Field(() => Date, { nullable: true, description: 'When the next attempt is due, while pending' })
  nextAttemptAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the latest attempt started' })
  lastAttemptAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'How long the latest attempt took, in milliseconds' })
  lastDurationMs!: number | null;

  @Field(() => Int, { nullable: true, description: 'The HTTP status the endpoint answered the latest attempt with; null when it did not answer' })
  lastResponseCode!: number | null;

  @Field(() => String, { nullable: true, description: 'The first bytes (at most 1 KiB) of the endpoint\'s answer to the latest attempt' })
  lastResponseExcerpt!: string | null;

  @Field(() => String, { nullable: true, description: 'Why the latest attempt failed without an answer (timeout, refused address, connection error)' })
  lastError!: string | null;

  @Field({ description: 'When the delivery was created' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it was delivered or gave up' })
  finishedAt!: Date | null;
}

@ObjectType('WebhookDeliveryPage', { description: `A page of an endpoint's deliveries, newest first (the newest ${WEBHOOK_LOG_PER_ENDPOINT} finished ones are kept, and every pending one)` })
export class WebhookDeliveryPage extends Page(WebhookDeliveryType, 20) {}

@InputType('CreateWebhookEndpointInput', { description: 'A new webhook endpoint' })
export class CreateWebhookEndpointInputType {
  @Field({ description: describe(createWebhookInput, 'url') })
  url!: string;

  @Field(() => [String], { description: describe(createWebhookInput, 'events') })
  events!: string[];

  @Field(() => String, { nullable: true, description: describe(createWebhookInput, 'description') })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: describe(createWebhookInput, 'enabled') })
  enabled?: boolean | null;
}

@InputType('UpdateWebhookEndpointInput', { description: 'What changes on one of your endpoints (absent: unchanged)' })
export class UpdateWebhookEndpointInputType {
  @Field(() => ID, { description: describe(updateWebhookInput, 'id') })
  id!: string;

  @Field(() => String, { nullable: true, description: describe(updateWebhookInput, 'url') })
  url?: string | null;

  @Field(() => [String], { nullable: true, description: describe(updateWebhookInput, 'events') })
  events?: string[] | null;

  @Field(() => String, { nullable: true, description: describe(updateWebhookInput, 'description') })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: describe(updateWebhookInput, 'enabled') })
  enabled?: boolean | null;
}

@InputType('WebhookEndpointIdInput', { description: 'One of your webhook endpoints' })
export class WebhookEndpointIdInputType {
  @Field(() => ID, { description: describe(webhookIdInput, 'id') })
  id!: string;
}

@InputType('WebhookDeliveriesInput', { description: 'One of your endpoints, and a page of its deliveries' })
export class WebhookDeliveriesInputType {
  @Field(() => ID, { description: describe(webhookDeliveriesInput, 'id') })
  id!: string;

  @Field(() => Int, { nullable: true, description: describe(webhookDeliveriesInput, 'page') })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: describe(webhookDeliveriesInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: `${FIRST_DESCRIPTION} (GraphQL only)` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: `${AFTER_DESCRIPTION} (GraphQL only)` })
  after?: string | null;
}

@InputType('RedeliverWebhookInput', { description: 'One delivery of one of your endpoints, to send again' })
export class RedeliverWebhookInputType {
  @Field(() => ID, { description: describe(redeliverInput, 'id') })
  id!: string;

  @Field(() => ID, { description: describe(redeliverInput, 'deliveryId') })
  deliveryId!: string;
}
