import { AFTER_DESCRIPTION, FIRST_DESCRIPTION } from '../../common/paging';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Directive, Extensions, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../../common/bounds';
import { describe } from '../../common/validation';
import { PageInfo, Pagination, PageOf } from '../../graphql/common.types';
import { cancelRunInput, renderVideoInput, runsInput } from './render.inputs';
import { RunStatus } from './render.entity';

registerEnumType(RunStatus, {
  name: 'RunStatus',
  description: 'QUEUED → EXECUTING → COMPLETED | FAILED | CANCELED',
  valuesConfig: {
    QUEUED: { description: 'Waiting for a render worker' },
    EXECUTING: { description: 'Being rendered; progress moves from 0 to 1' },
    COMPLETED: { description: 'Rendered: output holds the video (until the retention policy deletes it)' },
    FAILED: { description: 'Every attempt failed: error says why' },
    CANCELED: { description: 'Canceled by cancelRun before it ended' },
  },
});

@ObjectType('RenderOutput', { description: 'The rendered video of a COMPLETED run' })
export class RenderOutputType {
  @Field({ description: 'Signed link to the video file; it stops working at expiresAt' })
  url!: string;

  @Field({ description: 'When the signed url stops working (ask for the run again for a fresh one)' })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the video file is deleted under the retention policy (null: kept); the run then shows outputExpiredAt' })
  retainedUntil!: Date | null;

  @Field({ description: 'Media type of the file: video/mp4 or video/webm' })
  mimeType!: string;

  @Field(() => Int, { description: 'File size in bytes' })
  bytes!: number;

  @Field(() => Int, { description: 'Width in pixels' })
  width!: number;

  @Field(() => Int, { description: 'Height in pixels' })
  height!: number;

  @Field(() => Int, { description: 'Frames per second' })
  fps!: number;

  @Field(() => Int, { description: 'Length of the video in frames' })
  durationInFrames!: number;

  @Field({ description: 'h264, h265, vp8 or vp9' })
  codec!: string;
}

@Directive('@key(fields: "id")')
@ObjectType('RenderRun', { description: 'A video render run, from QUEUED to COMPLETED, FAILED or CANCELED' })
export class RenderRunType {
  @Field(() => ID, { description: 'The run id (UUID)' })
  id!: string;

  @Field(() => RunStatus, { description: 'Where the run stands' })
  status!: RunStatus;

  @Field({ description: 'What the run does: `render-video`' })
  taskIdentifier!: string;

  @Field(() => GraphQLJSONObject, { description: 'The render request: compositionId, inputProps (defaults applied), width, height, fps, durationInFrames, codec' })
  payload!: Record<string, unknown>;

  @Field(() => Float, { description: 'From 0 to 1 as frames are encoded' })
  progress!: number;

  @Field({ description: 'When the run was queued' })
  createdAt!: Date;

  @Field({ description: 'When the run last changed (status or progress)' })
  updatedAt!: Date;

  @Field(() => Date, { description: 'When the first attempt started; null while QUEUED', nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { description: 'When the run reached COMPLETED, FAILED or CANCELED; null before', nullable: true })
  finishedAt!: Date | null;

  @Field(() => Int, { description: 'Render attempts started so far (a retried or resumed run has more than one)' })
  attempts!: number;

  @Field(() => RenderOutputType, { nullable: true, description: 'Present when COMPLETED, until the video is deleted under the retention policy' })
  output!: RenderOutputType | null;

  @Field(() => Date, { nullable: true, description: 'When the video of this COMPLETED run was deleted under the retention policy; output is null from then on (render again for a new one)' })
  outputExpiredAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed' })
  error!: string | null;
}

@ObjectType('Composition', { description: 'A video composition a render can name' })
export class CompositionType {
  @Field(() => ID, { description: 'The compositionId a render names' })
  id!: string;

  @Field({ description: 'Human-readable name of the composition' })
  title!: string;

  @Field({ description: 'What the composition renders' })
  description!: string;

  @Field(() => GraphQLJSONObject, { description: 'JSON Schema of its inputProps' })
  props!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'inputProps that can be sent as they are' })
  example!: Record<string, unknown>;
}

/**
 * Render runs a page at a time, or the one run asked for by id: then `pagination` is null (a
 * page of the generic shape, whose position is absent when it is not a page of a list).
 */
@ObjectType('RenderRunPage', { description: "Render runs, newest first: a page of the account's runs, or the one run asked for by runId" })
export class RenderRunPage implements Omit<PageOf<RenderRunType>, 'pagination'> {
  @Extensions(maxItems(LIST_BOUNDS.pageItems))
  @Field(() => [RenderRunType], { description: 'The items of this page, in the list order' })
  items!: RenderRunType[];

  @Field(() => Pagination, { nullable: true, description: "Position of this page in the account's runs; null when one run is asked for by runId" })
  pagination!: Pagination | null;
  @Field(() => PageInfo, { description: 'Where cursor paging goes on from this page (first and after); no next page when one run is asked for by runId' })
  pageInfo!: PageInfo;
}

@InputType('RenderVideoInput', { description: 'What to render: a composition, its props and the video format (defaults apply to what is absent)' })
export class RenderVideoInputType {
  @Field(() => String, { description: describe(renderVideoInput, 'compositionId') })
  compositionId!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: describe(renderVideoInput, 'inputProps') })
  inputProps?: Record<string, unknown> | null;

  @Field(() => Int, { nullable: true, description: describe(renderVideoInput, 'width') })
  width?: number | null;

  @Field(() => Int, { nullable: true, description: describe(renderVideoInput, 'height') })
  height?: number | null;

  @Field(() => Int, { nullable: true, description: describe(renderVideoInput, 'fps') })
  fps?: number | null;

  @Field(() => Int, { nullable: true, description: describe(renderVideoInput, 'durationInFrames') })
  durationInFrames?: number | null;

  @Field(() => String, { nullable: true, description: describe(renderVideoInput, 'codec') })
  codec?: string | null;
}

@InputType('RunsInput', { description: "One run (runId), or a page of the caller's runs or of the account given" })
export class RunsInputType {
  @Field(() => String, { nullable: true, description: describe(runsInput, 'runId') })
  runId?: string | null;

  @Field(() => Int, { nullable: true, description: describe(runsInput, 'page') })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: describe(runsInput, 'limit') })
  limit?: number | null;

  @Field(() => String, { nullable: true, description: describe(runsInput, 'account_id') })
  accountId?: string | null;

  @Field(() => Int, { nullable: true, description: `${FIRST_DESCRIPTION} (GraphQL only)` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: `${AFTER_DESCRIPTION} (GraphQL only)` })
  after?: string | null;
}

@InputType('CancelRunInput', { description: 'The run to cancel' })
export class CancelRunInputType {
  @Field(() => String, { description: describe(cancelRunInput, 'runId') })
  runId!: string;
}
