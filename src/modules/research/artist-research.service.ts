import DataLoader from 'dataloader';
import { z } from 'zod';
import { requireViewer } from '../../auth/access';
import { validate, uuid } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { pgArray } from '../../db/sql';
import { Artist, artistService } from '../artist';
import { isObj } from './research.mappers';
import { ResearchService } from './research.service';
import type { ArtistResearchLink, ArtistResearchRecord } from './artist-research.types';
import type { ResearchArtist } from './research.types';

const researchId = z
  .string({ message: 'is required: a research artist id (digits), or null to clear the link' })
  .regex(/^[0-9]{1,20}$/, { message: 'must be a research artist id (digits only)' })
  .nullable();

export const linkArtistResearchInput = z.object({
  id: uuid().describe('the artist account'),
  research_id: researchId.describe('research artist id from GET /api/research/discover or GET /api/research; null clears the link'),
});
const twinInput = z.object({ artist_id: uuid(), research_id: researchId });

/** Candidates the search by name considers. */
const SEARCH_LIMIT = 10;

type LinkRow = { artist_id: string; research_id: string | null; research_match: string; matched_at: Date };

const perRequest = new WeakMap<Context, DataLoader<string, LinkRow | null>>();
const resolving = new WeakMap<Context, Map<string, Promise<string | null>>>();

/** Stored links by artist id: one statement for every artist of a request. */
function linkLoader(ctx: Context): DataLoader<string, LinkRow | null> {
  let loader = perRequest.get(ctx);
  if (!loader) {
    loader = new DataLoader<string, LinkRow | null>(async (ids) => {
      const rows = await ctx.em.getConnection().execute<LinkRow[]>(
        `select artist_id, research_id, research_match, matched_at from artist_research_links where artist_id = any(?::uuid[])`,
        [pgArray([...ids])],
      );
      const byId = new Map(rows.map((r) => [r.artist_id, { ...r, matched_at: new Date(r.matched_at) }]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    perRequest.set(ctx, loader);
  }
  return loader;
}

const normalName = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The research provider's artist behind a roster artist: a stored link (explicit, or found once
 * by name and stored with match 'search', "nothing found" included). Reads and writes follow
 * artist reach: an artist the caller cannot reach has no link for it, and is never searched.
 */
export class ArtistResearchService {
  constructor(private readonly ctx: Context) {}

  /**
   * PATCH /api/artists/{id}: sets (or with null clears) the link explicitly. REST drops a null
   * before it gets here (the route requires the key), so an absent research_id means null.
   */
  async link(args: { id: unknown; research_id?: unknown }): Promise<ArtistResearchRecord> {
    requireViewer(this.ctx.viewer);
    const input = validate(linkArtistResearchInput, { id: args.id, research_id: args.research_id ?? null });
    return this.setLink(input.id, input.research_id);
  }

  /** The GraphQL twin, with one input type. */
  async linkInput(input: unknown): Promise<ArtistResearchRecord> {
    requireViewer(this.ctx.viewer);
    const parsed = validate(twinInput, input, 'input');
    return this.setLink(parsed.artist_id, parsed.research_id);
  }

  private async setLink(artistId: string, researchIdValue: string | null): Promise<ArtistResearchRecord> {
    const artist = await artistService(this.ctx).requireArtist(requireViewer(this.ctx.viewer), artistId);
    const [row] = await this.ctx.em.getConnection().execute<LinkRow[]>(
      `insert into artist_research_links (artist_id, research_id, research_match, matched_at) values (?, ?, 'explicit', now())
       on conflict (artist_id) do update set research_id = excluded.research_id, research_match = excluded.research_match, matched_at = excluded.matched_at
       returning artist_id, research_id, research_match, matched_at`,
      [artist.id, researchIdValue],
    );
    linkLoader(this.ctx).clear(artist.id);
    resolving.get(this.ctx)?.delete(artist.id);
    return { id: artist.id, name: artist.name, research_id: row.research_id, research_match: row.research_match, research_matched_at: new Date(row.matched_at) };
  }

  /** Artist.research_link: null when not reachable; asking for it links by search like Artist.research. */
  async linkOf(artist: Artist): Promise<ArtistResearchLink | null> {
    if (!(await artistService(this.ctx).canReach(requireViewer(this.ctx.viewer), artist.id))) return null;
    await this.resolve(artist);
    const row = await linkLoader(this.ctx).load(artist.id);
    return row ? { research_id: row.research_id, match: row.research_match, matched_at: row.matched_at } : null;
  }

  /** Artist.research: the linked research artist, searching by name once when no link is stored. */
  async researchOf(artist: Artist): Promise<ResearchArtist | null> {
    if (!(await artistService(this.ctx).canReach(requireViewer(this.ctx.viewer), artist.id))) return null;
    const researchId = await this.resolve(artist);
    return researchId ? { id: researchId } : null;
  }

  /** The linked research id, stored first if need be; one search per artist and request however many fields ask. */
  private resolve(artist: Artist): Promise<string | null> {
    let pending = resolving.get(this.ctx);
    if (!pending) resolving.set(this.ctx, (pending = new Map()));
    let found = pending.get(artist.id);
    if (!found) {
      found = this.linkOrSearch(artist);
      pending.set(artist.id, found);
    }
    return found;
  }

  private async linkOrSearch(artist: Artist): Promise<string | null> {
    const stored = await linkLoader(this.ctx).load(artist.id);
    if (stored) return stored.research_id;
    const found = await this.searchByName(artist.name);
    // A link set meanwhile (explicit or another request's search) wins over this one.
    const [row] = await this.ctx.em.getConnection().execute<LinkRow[]>(
      `insert into artist_research_links (artist_id, research_id, research_match, matched_at) values (?, ?, 'search', now())
       on conflict (artist_id) do nothing returning artist_id, research_id, research_match, matched_at`,
      [artist.id, found],
    );
    linkLoader(this.ctx).clear(artist.id);
    return row ? row.research_id : ((await linkLoader(this.ctx).load(artist.id))?.research_id ?? null);
  }

  /** The provider's best artist for a name: an exact (case- and space-insensitive) match, else its first. */
  private async searchByName(name: string): Promise<string | null> {
    const results = await new ResearchService(this.ctx).search({ q: name.slice(0, 200), type: 'artists', limit: SEARCH_LIMIT });
    const candidates = (Array.isArray(results.artists) ? results.artists : [])
      .filter(isObj)
      .map((a) => ({ id: String(a.id ?? ''), name: typeof a.name === 'string' ? a.name : '' }))
      .filter((a) => /^[0-9]{1,20}$/.test(a.id));
    const best = candidates.find((a) => normalName(a.name) === normalName(name)) ?? candidates[0];
    return best?.id ?? null;
  }
}
