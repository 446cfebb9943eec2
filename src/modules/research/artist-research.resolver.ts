import { Authorized, Ctx, Extensions, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, ParsedInput } from '../../graphql/params';
import { PROVIDER_CALL } from '../../graphql/cost';
import { Artist } from '../artist';
import { artistResearchService } from './research.context';
import { ArtistResearchLink, LinkedArtist, UpdateArtistInput } from './artist-research.types';
import { parseLinkArtistResearch, type ArtistResearchLinkInput } from './research.inputs';
import { ResearchArtist } from './research.types';

@Resolver()
export class ArtistResearchMutationResolver {
  @Authorized()
  @Mutation(() => Artist, { description: "Links an artist to the research provider's artist (match `explicit`); a null (or absent) research id links none. Answers the artist with its stored link" })
  updateArtist(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => UpdateArtistInput, parseLinkArtistResearch) input: ArtistResearchLinkInput): Promise<LinkedArtist> {
    return artistResearchService(ctx).link(viewer, input);
  }
}

@Resolver(() => Artist)
export class ArtistResearchResolver {
  @FieldResolver(() => String, { nullable: true, description: 'Research artist id of the stored link (never searched for: the research link is); null when linked to none, never linked, or not reachable' })
  async researchId(@Root() artist: LinkedArtist, @Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<string | null> {
    return (await artistResearchService(ctx).storedLinkOf(viewer, artist))?.research_id ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: '`explicit` or `search`: how the stored link was made; null when never linked (or not reachable)' })
  async researchMatch(@Root() artist: LinkedArtist, @Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<string | null> {
    return (await artistResearchService(ctx).storedLinkOf(viewer, artist))?.research_match ?? null;
  }

  @FieldResolver(() => Date, { nullable: true, description: 'When the stored link was made; null when never linked (or not reachable)' })
  async researchMatchedAt(@Root() artist: LinkedArtist, @Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<Date | null> {
    return (await artistResearchService(ctx).storedLinkOf(viewer, artist))?.matched_at ?? null;
  }

  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => ArtistResearchLink, {
    nullable: true,
    description: 'How the artist is linked to the research provider (linking by search first, as `research`); null when not reachable',
  })
  researchLink(@Root() artist: Artist, @Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<ArtistResearchLink | null> {
    return artistResearchService(ctx).linkOf(viewer, artist);
  }

  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => ResearchArtist, {
    nullable: true,
    description: "The research provider's artist: the stored link, else found once by name and stored (match `search`); null when none matches",
  })
  research(@Root() artist: Artist, @Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<ResearchArtist | null> {
    return artistResearchService(ctx).researchOf(viewer, artist);
  }
}
