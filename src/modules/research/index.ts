import type { AppModule } from '../module';
import { ResearchAnswer } from './research.entity';
import { ResearchArtistResolver, ResearchPlaylistResolver, ResearchResolver, ResearchTrackResolver, SongResearchResolver } from './research.resolver';
import { researchRoutes } from './research.routes';
import { ArtistResearchMutationResolver, ArtistResearchResolver } from './artist-research.resolver';

export const researchModule: AppModule = {
  name: 'research',
  entities: [ResearchAnswer],
  resolvers: [ResearchResolver, ResearchArtistResolver, ResearchTrackResolver, ResearchPlaylistResolver, SongResearchResolver, ArtistResearchMutationResolver, ArtistResearchResolver],
  routes: researchRoutes,
};
