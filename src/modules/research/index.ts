import type { AppModule } from '../module';
import { createResearchLoaders } from './research.loaders';
import { ResearchAnswer } from './research.entity';
import { ResearchArtistResolver, ResearchPlaylistResolver, ResearchResolver, ResearchTrackResolver, SongResearchResolver } from './research.resolver';
import { researchOperations } from './research.operations';
import { ArtistResearchMutationResolver, ArtistResearchResolver } from './artist-research.resolver';

export const researchModule = {
  name: 'research',
  entities: [ResearchAnswer],
  resolvers: [ResearchResolver, ResearchArtistResolver, ResearchTrackResolver, ResearchPlaylistResolver, SongResearchResolver, ArtistResearchMutationResolver, ArtistResearchResolver],
  operations: researchOperations,
  loaders: createResearchLoaders,
} satisfies AppModule;
