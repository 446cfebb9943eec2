import type { AppModule } from '../module';
import { RenderRun } from './render.entity';
import { RenderResolver } from './render.resolver';
import { renderRoutes } from './render.routes';
import { RenderService } from './render.service';
import type { Context } from '../../graphql/context';

export const renderModule: AppModule = {
  name: 'render',
  entities: [RenderRun],
  resolvers: [RenderResolver],
  routes: renderRoutes,
  references: {
    RenderRun: { __resolveReference: (ref: { id: string }, ctx: Context) => new RenderService(ctx).reference(ref.id) },
  },
};
