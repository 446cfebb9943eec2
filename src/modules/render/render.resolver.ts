import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SuccessStatus } from '../../graphql/common.types';
import type { Context } from '../../graphql/context';
import { RenderService } from './render.service';
import { CompositionsResult, RenderRunType, RenderStarted, RunResult, RunsResult } from './render.types';

@Resolver()
export class RenderResolver {
  @Authorized()
  @Mutation(() => RenderStarted, { description: 'Starts a video render; answers at once with the runId to poll or watch. Limited per account: a few renders QUEUED or EXECUTING at once, and a rolling 24-hour budget of pixel-frames (width × height × durationInFrames); past either, RATE_LIMITED (429) with Retry-After and nothing is queued' })
  async renderVideo(
    @Ctx() ctx: Context,
    @Arg('compositionId', () => String, { description: 'a composition of GET /api/video/compositions' }) compositionId: string,
    @Arg('inputProps', () => GraphQLJSONObject, { nullable: true, description: 'props of the composition' }) inputProps: Record<string, unknown> | null,
    @Arg('width', () => Int, { nullable: true, description: '1 to 3840, default 720' }) width: number | null,
    @Arg('height', () => Int, { nullable: true, description: '1 to 3840, default 1280' }) height: number | null,
    @Arg('fps', () => Int, { nullable: true, description: '1 to 60, default 30' }) fps: number | null,
    @Arg('durationInFrames', () => Int, { nullable: true, description: '1 to 1800, default 240' }) durationInFrames: number | null,
    @Arg('codec', () => String, { nullable: true, description: 'h264 (default), h265, vp8 or vp9' }) codec: string | null,
  ): Promise<RenderStarted> {
    return new RenderService(ctx).start({ compositionId, inputProps, width, height, fps, durationInFrames, codec });
  }

  @Authorized()
  @Query(() => CompositionsResult, { description: 'The compositions a render can name, with the JSON Schema of their props' })
  compositions(@Ctx() ctx: Context): CompositionsResult {
    return { status: SuccessStatus.success, compositions: new RenderService(ctx).compositions() };
  }

  @Authorized()
  @Query(() => RunsResult, { description: 'One render run (runId), or the account\'s runs newest first, a page at a time (page, limit)' })
  async runs(
    @Ctx() ctx: Context,
    @Arg('runId', () => String, { nullable: true }) runId: string | null,
    @Arg('page', () => Int, { nullable: true, description: 'Page number, from 1 (default 1); ignored with runId' }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Runs per page, 1 to 100 (default 20)' }) limit: number | null,
    @Arg('account_id', () => String, { nullable: true, description: 'another account the caller may access' }) account_id: string | null,
  ): Promise<RunsResult> {
    return { status: SuccessStatus.success, ...(await new RenderService(ctx).runs({ runId, page, limit, account_id })) };
  }

  @Authorized()
  @Mutation(() => RunResult, { description: 'Cancels a QUEUED or EXECUTING run (an encoding one stops and its files are removed)' })
  async cancelRun(@Ctx() ctx: Context, @Arg('runId', () => String) runId: string): Promise<RunResult> {
    return { status: SuccessStatus.success, run: await new RenderService(ctx).cancel(runId) };
  }

  @Authorized()
  @Subscription(() => RenderRunType, {
    description: 'The run now, then every change of state or progress until it is COMPLETED, FAILED or CANCELED',
    subscribe: ({ args, context }) => new RenderService(context as Context).watch(args as { runId: string }),
  })
  renderRun(@Root() run: RenderRunType, @Arg('runId', () => String) _runId: string): RenderRunType {
    return run;
  }
}
