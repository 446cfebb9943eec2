import type { Viewer } from '../../auth/viewer';
import { validate } from '../../common/validation';
import type { Artist, ArtistService } from '../artist';
import type { ArtistResearchLink, LinkedArtist } from './artist-research.types';
import { ArtistResearchLinkInput, researchSearchInput } from './research.inputs';
import type { ResearchLoaders } from './research.loaders';
import { isObj } from './research.mappers';
import type { ResearchLinkRow, ResearchRepository } from './research.repository';
import type { ResearchService } from './research.service';
import type { ResearchArtist } from './research.types';

/** Candidates the search by name considers. */
const SEARCH_LIMIT = 10;

const normalName = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** The storage the links need: the two writes, and the request's link loader and per-artist resolutions. */
export type ArtistResearchStore = Pick<ResearchRepository, 'setExplicitLink' | 'storeSearchedLink'>;
export type ArtistResearchLoaders = Pick<ResearchLoaders, 'researchLink' | 'researchLinkResolving'>;

/**
 * The research provider's artist behind a roster artist: a stored link (explicit, or found once
 * by name and stored with match 'search', "nothing found" included). Reads and writes follow
 * artist reach: an artist the caller cannot reach has no link for it, and is never searched.
 */
export class ArtistResearchService {
  constructor(
    private readonly repo: ArtistResearchStore,
    private readonly loaders: ArtistResearchLoaders,
    private readonly artists: Pick<ArtistService, 'requireArtist' | 'canReach'>,
    private readonly research: Pick<ResearchService, 'search'>,
  ) {}

  /**
   * Mutation.updateArtist (PATCH /api/artists/{id}): sets, or with null clears, the link explicitly;
   * answers the artist with the link it wrote. 404 for an unknown artist and 403 for one out of
   * reach come from the artist rules, before any write.
   */
  async link(viewer: Viewer, input: ArtistResearchLinkInput): Promise<LinkedArtist> {
    const artist = await this.artists.requireArtist(viewer, input.id);
    const row = await this.repo.setExplicitLink(artist.id, input.research_id);
    this.loaders.researchLink.clear(artist.id);
    this.loaders.researchLinkResolving.delete(artist.id);
    return { ...artist, stored_link: row };
  }

  /**
   * Artist.research_id, research_match and research_matched_at: the link stored for the artist as
   * it is (never searched for); null when none is stored or the caller cannot reach the artist.
   */
  async storedLinkOf(viewer: Viewer, artist: LinkedArtist): Promise<ResearchLinkRow | null> {
    if (artist.stored_link !== undefined) return artist.stored_link;
    if (!(await this.artists.canReach(viewer, artist.id))) return null;
    return this.loaders.researchLink.load(artist.id);
  }

  /** Artist.research_link: null when not reachable; asking for it links by search like Artist.research. */
  async linkOf(viewer: Viewer, artist: Artist): Promise<ArtistResearchLink | null> {
    if (!(await this.artists.canReach(viewer, artist.id))) return null;
    await this.resolve(viewer, artist);
    const row = await this.loaders.researchLink.load(artist.id);
    return row ? { research_id: row.research_id, match: row.research_match, matched_at: row.matched_at } : null;
  }

  /** Artist.research: the linked research artist, searching by name once when no link is stored. */
  async researchOf(viewer: Viewer, artist: Artist): Promise<ResearchArtist | null> {
    if (!(await this.artists.canReach(viewer, artist.id))) return null;
    const researchId = await this.resolve(viewer, artist);
    return researchId ? { id: researchId } : null;
  }

  /** The linked research id, stored first if need be; one search per artist and request however many fields ask. */
  private resolve(viewer: Viewer, artist: Artist): Promise<string | null> {
    const pending = this.loaders.researchLinkResolving;
    let found = pending.get(artist.id);
    if (!found) {
      found = this.linkOrSearch(viewer, artist);
      pending.set(artist.id, found);
    }
    return found;
  }

  private async linkOrSearch(viewer: Viewer, artist: Artist): Promise<string | null> {
    const stored = await this.loaders.researchLink.load(artist.id);
    if (stored) return stored.research_id;
    const found = await this.searchByName(viewer, artist.name);
    // A link set meanwhile (explicit or another request's search) wins over this one.
    const row = await this.repo.storeSearchedLink(artist.id, found);
    this.loaders.researchLink.clear(artist.id);
    return row ? row.research_id : ((await this.loaders.researchLink.load(artist.id))?.research_id ?? null);
  }

  /** The provider's best artist for a name: an exact (case- and space-insensitive) match, else its first. */
  private async searchByName(viewer: Viewer, name: string): Promise<string | null> {
    // The search request is built here, not by a client: parsed for its defaults and the normalized query.
    const results = await this.research.search(viewer, validate(researchSearchInput, { q: name.slice(0, 200), type: 'artists', limit: SEARCH_LIMIT }));
    const candidates = (Array.isArray(results.artists) ? results.artists : [])
      .filter(isObj)
      .map((a) => ({ id: String(a.id ?? ''), name: typeof a.name === 'string' ? a.name : '' }))
      .filter((a) => /^[0-9]{1,20}$/.test(a.id));
    const best = candidates.find((a) => normalName(a.name) === normalName(name)) ?? candidates[0];
    return best?.id ?? null;
  }
}
