import { z } from 'zod';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { AFTER_DESCRIPTION, firstDescription } from '../../common/paging';
import { describe, limitArg, pageArg } from '../../common/validation';
import type { PageOf } from '../../graphql/common.types';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Paged, type Parsed, ParsedInput, ParsedPage } from '../../graphql/params';
import { createWebhookInput, redeliverInput, updateWebhookInput, webhookDeliveriesInput, webhookIdInput } from './webhook.inputs';
import { WebhookRepository } from './webhook.repository';
import { WebhookService } from './webhook.service';
import {
  CreateWebhookEndpointInputType,
  RedeliverWebhookInputType,
  UpdateWebhookEndpointInputType,
  WebhookDeliveriesInputType,
  WebhookDeliveryPage,
  WebhookDeliveryType,
  WebhookEndpointIdInputType,
  WebhookEndpointPage,
  WebhookEndpointType,
  WebhookEndpointWithSecret,
} from './webhook.types';

const endpointsPageInput = z.object({
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg(100, 100).describe('Endpoints per page, 1 to 100 (default 100: all of them)'),
});

export const webhooks = (ctx: Context): WebhookService =>
  new WebhookService(new WebhookRepository(ctx.db), ctx.deps.config.webhook, (accountId) =>
    ctx.deps.limits.limit(accountId, 'webhookEndpointsMax', ctx.deps.config.webhook.maxEndpointsPerAccount),
  );

@Resolver()
export class WebhookResolver {
  @Authorized()
  @Query(() => WebhookEndpointPage, { nullable: true, description: 'The caller\'s webhook endpoints, newest first (at most WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT), without their secrets' })
  webhookEndpoints(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(endpointsPageInput, { args: ['limit', 'page'], maxFirst: 100 }) paged: Paged<Parsed<typeof endpointsPageInput>>,
    @Arg('limit', () => Int, { nullable: true, description: describe(endpointsPageInput, 'limit') }) _limit?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(endpointsPageInput, 'page') }) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(100, 100) }) _first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) _after?: string | null,
  ): Promise<PageOf<WebhookEndpointType>> {
    return webhooks(ctx).list(viewer, paged.page);
  }

  @Authorized()
  @Query(() => WebhookEndpointType, { nullable: true, description: 'One of the caller\'s webhook endpoints, without its secret' })
  webhookEndpoint(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => WebhookEndpointIdInputType, webhookIdInput) input: Parsed<typeof webhookIdInput>): Promise<WebhookEndpointType> {
    return webhooks(ctx).get(viewer, input);
  }

  @Authorized()
  @Query(() => WebhookDeliveryPage, { nullable: true, description: 'The delivery log of one of the caller\'s endpoints, newest first: each event sent, its status and its latest attempt (duration, response code, the first bytes of the answer)' })
  webhookDeliveries(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(webhookDeliveriesInput, { input: { typeFunc: () => WebhookDeliveriesInputType } }) { input, page }: Paged<Parsed<typeof webhookDeliveriesInput>>,
  ): Promise<PageOf<WebhookDeliveryType>> {
    return webhooks(ctx).deliveries(viewer, input, page);
  }

  @Authorized()
  @Mutation(() => WebhookEndpointWithSecret, {
    description:
      'Registers a webhook endpoint for the caller\'s render runs; answers its signing secret (whsec_…) this once. The URL must be https and resolve to public addresses only. At most WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT (10) per account (CONFLICT past it)',
  })
  createWebhookEndpoint(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CreateWebhookEndpointInputType, createWebhookInput) input: Parsed<typeof createWebhookInput>): Promise<WebhookEndpointWithSecret> {
    return webhooks(ctx).create(viewer, input);
  }

  @Authorized()
  @Mutation(() => WebhookEndpointType, { description: 'Changes one of the caller\'s endpoints: url, events, description, enabled (enabling clears the reason it was disabled)' })
  updateWebhookEndpoint(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => UpdateWebhookEndpointInputType, updateWebhookInput) input: Parsed<typeof updateWebhookInput>): Promise<WebhookEndpointType> {
    return webhooks(ctx).update(viewer, input);
  }

  @Authorized()
  @Mutation(() => WebhookEndpointType, { description: 'Deletes one of the caller\'s endpoints with its delivery log; answers it as it was' })
  deleteWebhookEndpoint(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => WebhookEndpointIdInputType, webhookIdInput) input: Parsed<typeof webhookIdInput>): Promise<WebhookEndpointType> {
    return webhooks(ctx).delete(viewer, input);
  }

  @Authorized()
  @Mutation(() => WebhookEndpointWithSecret, { description: 'Gives an endpoint a new signing secret, answered this once; the old one still signs each delivery beside it for 24 hours (WEBHOOK_SECRET_OVERLAP_S)' })
  rotateWebhookSecret(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => WebhookEndpointIdInputType, webhookIdInput) input: Parsed<typeof webhookIdInput>): Promise<WebhookEndpointWithSecret> {
    return webhooks(ctx).rotateSecret(viewer, input);
  }

  @Authorized()
  @Mutation(() => WebhookDeliveryType, { description: 'Sends a ping event to one of the caller\'s endpoints, to test it; answers the delivery (pending), to follow in the delivery log' })
  pingWebhookEndpoint(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => WebhookEndpointIdInputType, webhookIdInput) input: Parsed<typeof webhookIdInput>): Promise<WebhookDeliveryType> {
    return webhooks(ctx).ping(viewer, input);
  }

  @Authorized()
  @Mutation(() => WebhookDeliveryType, { description: 'Sends one of an endpoint\'s events again (the same event id in webhook-id), as a new delivery; answers it' })
  redeliverWebhook(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => RedeliverWebhookInputType, redeliverInput) input: Parsed<typeof redeliverInput>): Promise<WebhookDeliveryType> {
    return webhooks(ctx).redeliver(viewer, input);
  }
}
