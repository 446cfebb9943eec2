import { Arg, Authorized, Ctx, Extensions, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { requireViewer } from '../../auth/access';
import { validate } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { PROVIDER_CALL } from '../../graphql/cost';
import { SuccessStatus } from '../../graphql/common.types';
import { Artist } from '../artist';
import { artistResearchService } from './research.context';
import { ArtistResearchLink, ArtistResearchResult, LinkArtistResearchInput } from './artist-research.types';
import { linkArtistResearchInput, linkArtistResearchTwinInput } from './research.inputs';
import { ResearchArtist } from './research.types';

@Resolver()
export class ArtistResearchMutationResolver {
  @Authorized()
  @Mutation(() => ArtistResearchResult, { description: "Links an artist to the research provider's artist (PATCH /api/artists/{id}); research_id null clears it" })
  async updateArtist(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'The artist account' }) id: string,
    @Arg('research_id', () => String, { nullable: true, description: 'Research artist id (digits); null (or absent) clears the link' }) research_id?: string | null,
  ): Promise<ArtistResearchResult> {
    const viewer = requireViewer(ctx.viewer);
    // REST drops a null before it gets here (the route requires the key), so an absent research_id means null.
    const input = validate(linkArtistResearchInput, { id, research_id: research_id ?? null });
    return { status: SuccessStatus.success, artist: await artistResearchService(ctx).link(viewer, input) };
  }

  @Authorized()
  @Mutation(() => ArtistResearchResult, { description: "Links an artist to the research provider's artist, or with research_id null to none" })
  async linkArtistResearch(@Ctx() ctx: Context, @Arg('input', () => LinkArtistResearchInput) input: LinkArtistResearchInput): Promise<ArtistResearchResult> {
    const viewer = requireViewer(ctx.viewer);
    return { status: SuccessStatus.success, artist: await artistResearchService(ctx).linkInput(viewer, validate(linkArtistResearchTwinInput, { ...input }, 'input')) };
  }
}

@Resolver(() => Artist)
export class ArtistResearchResolver {
  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => ArtistResearchLink, {
    nullable: true,
    description: 'How the artist is linked to the research provider (linking by search first, as `research`); null when not reachable',
  })
  research_link(@Root() artist: Artist, @Ctx() ctx: Context): Promise<ArtistResearchLink | null> {
    return artistResearchService(ctx).linkOf(requireViewer(ctx.viewer), artist);
  }

  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => ResearchArtist, {
    nullable: true,
    description: "The research provider's artist: the stored link, else found once by name and stored (match `search`); null when none matches",
  })
  research(@Root() artist: Artist, @Ctx() ctx: Context): Promise<ResearchArtist | null> {
    return artistResearchService(ctx).researchOf(requireViewer(ctx.viewer), artist);
  }
}
