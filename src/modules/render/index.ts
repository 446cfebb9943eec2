import type { AppModule } from '../module';
import { createRenderLoaders } from './render.loaders';
import { RenderRun } from './render.entity';
import { RenderResolver } from './render.resolver';
import { renderOperations } from './render.operations';
import { RenderService } from './render.service';
import type { Context } from '../../graphql/context';

export const renderModule = {
  name: 'render',
  entities: [RenderRun],
  resolvers: [RenderResolver],
  operations: renderOperations,
  loaders: createRenderLoaders,
  references: {
    RenderRun: { __resolveReference: (ref: { id: string }, ctx: Context) => new RenderService(ctx).reference(ref.id) },
  },
} satisfies AppModule;
export { renderFiles } from './render.repository';
