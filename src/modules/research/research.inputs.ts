import { z } from 'zod';
import { uuid, validate } from '../../common/validation';
import { CURATOR_PLATFORMS, PLATFORMS } from '../../providers/platforms';

const trimmed = (field: string) => z.string().trim().min(1, { message: `${field} must not be empty` });
const int = () => z.number().int({ message: 'must be an integer' });
const bounded = (min: number, max: number, def: number) =>
  int().min(min, { message: `must be at least ${min}` }).max(max, { message: `must be at most ${max}` }).default(def);
const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, { message: 'must be a 2-letter ISO country code' })
  .transform((v) => v.toUpperCase());
const numericId = (what: string) => z.string().regex(/^[0-9]+$/, { message: `must be a numeric ${what} id (digits only)` });

/** `platform_a,platform_c` or `all`: each entry a known source. */
const sourceList = z
  .string()
  .transform((v, ctx) => {
    const items = v.split(',').map((s) => s.trim()).filter(Boolean);
    if (items.length === 0) {
      ctx.addIssue({ code: 'custom', message: `must be all or a comma-separated list of ${PLATFORMS.join(', ')}` });
      return z.NEVER;
    }
    if (items.includes('all')) {
      if (items.length > 1) {
        ctx.addIssue({ code: 'custom', message: 'all cannot be combined with other sources' });
        return z.NEVER;
      }
      return [...PLATFORMS];
    }
    const unknown = items.filter((s) => !(PLATFORMS as readonly string[]).includes(s));
    if (unknown.length) {
      ctx.addIssue({ code: 'custom', message: `unknown source ${unknown.join(', ')}; use all or ${PLATFORMS.join(', ')}` });
      return z.NEVER;
    }
    return [...new Set(items)];
  })
  .describe('comma-separated sources (platform_a, platform_b, platform_c, platform_d) or all');

export const trackStatsInput = z
  .object({
    isrc: z
      .string()
      .transform((v) => v.replace(/-/g, '').toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/, { message: 'must be an ISRC (12 characters, e.g. GBNWR2400001)' }))
      .optional()
      .describe('track ISRC'),
    stats_track_id: trimmed('stats_track_id').optional().describe('the stats track id of a research track, as the research tracks list gives it'),
    platform_a_track_id: z.string().regex(/^[A-Za-z0-9]{1,64}$/, { message: 'must be a platform_a track id' }).optional().describe('the track id on platform_a (1-64 letters and digits)'),
    platform_b_track_id: z.string().regex(/^[0-9]{1,20}$/, { message: 'must be a numeric platform_b track id' }).optional().describe('the track id on platform_b (1-20 digits)'),
    source: sourceList,
    with_playlists: z.boolean().default(false).describe('include per-source playlists[] in data (default false)'),
    with_charts: z.boolean().default(false).describe('include per-source charts[] in data (default false)'),
    with_stations: z.boolean().default(false).describe('include radio stations[] data where available (default false)'),
    with_videos: z.boolean().default(false).describe('include video data where available (default false)'),
    with_links: z.boolean().default(false).describe('include external links in the track info (default false)'),
    only_current: z.boolean().default(false).describe('only current counters (default false)'),
    limit: bounded(1, 100, 20).describe('max items in toggled arrays, 1-100, default 20'),
    offset: int().min(0, { message: 'must be at least 0' }).default(0).describe('offset in toggled arrays, default 0'),
  })
  .superRefine((v, ctx) => {
    const given = (['isrc', 'stats_track_id', 'platform_a_track_id', 'platform_b_track_id'] as const).filter((k) => v[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length === 0 ? ['isrc'] : [given[1]],
        message:
          given.length === 0
            ? 'one track identifier is required: isrc, stats_track_id, platform_a_track_id or platform_b_track_id'
            : `give exactly one track identifier, not ${given.join(' and ')}`,
      });
    }
  });
export type TrackStatsInput = z.output<typeof trackStatsInput>;

/** Sort fields the discover list accepts (provider column names). */
export const DISCOVER_SORTS = [
  'sp_monthly_listeners',
  'sp_followers',
  'tiktok_followers',
  'ins_followers',
  'cm_artist_rank',
  'weekly_diff.sp_monthly_listeners',
  'weekly_diff.sp_followers',
  'weekly_diff.tiktok_followers',
  'weekly_diff.ins_followers',
  'monthly_diff.sp_monthly_listeners',
  'monthly_diff.sp_followers',
  'weekly_diff_percent.sp_monthly_listeners',
  'monthly_diff_percent.sp_monthly_listeners',
] as const;

export const discoverInput = z
  .object({
    country: country.optional().describe('ISO country code, exactly 2 letters'),
    genre: int().min(1, { message: 'must be a genre id from GET /api/research/genres' }).optional().describe('genre id'),
    sp_monthly_listeners_min: int().min(0, { message: 'must be at least 0' }).optional().describe('at least this many monthly listeners on platform_a'),
    sp_monthly_listeners_max: int().min(0, { message: 'must be at least 0' }).optional().describe('at most this many monthly listeners on platform_a'),
    sort: z.enum(DISCOVER_SORTS, { message: `must be one of: ${DISCOVER_SORTS.join(', ')}` }).optional().describe('sort field, e.g. weekly_diff.sp_monthly_listeners'),
    limit: bounded(1, 100, 20).describe('artists to answer, 1-100, default 20'),
  })
  .superRefine((v, ctx) => {
    if (v.sp_monthly_listeners_min !== undefined && v.sp_monthly_listeners_max !== undefined && v.sp_monthly_listeners_min > v.sp_monthly_listeners_max) {
      ctx.addIssue({ code: 'custom', path: ['sp_monthly_listeners_min'], message: 'must not be greater than sp_monthly_listeners_max' });
    }
  });
export type DiscoverInput = z.output<typeof discoverInput>;

export const curatorInput = z.object({
  platform: z.enum(CURATOR_PLATFORMS, { message: `must be one of: ${CURATOR_PLATFORMS.join(', ')}` }).describe('streaming platform'),
  id: numericId('curator').describe('curator id, digits only'),
});
export type CuratorInput = z.output<typeof curatorInput>;

export const PLATFORM_SEARCH_TYPES = ['album', 'artist', 'playlist', 'track', 'show', 'episode', 'audiobook'] as const;

const typeList = <T extends string>(allowed: readonly T[]) =>
  z
    .string()
    .transform((v, ctx) => {
      const items = [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];
      const unknown = items.filter((s) => !(allowed as readonly string[]).includes(s));
      if (items.length === 0 || unknown.length) {
        ctx.addIssue({ code: 'custom', message: `${unknown.length ? `unknown type ${unknown.join(', ')}; ` : ''}use a comma-separated list of ${allowed.join(', ')}` });
        return z.NEVER;
      }
      return items as T[];
    });

export const platformSearchInput = z.object({
  q: trimmed('q').pipe(z.string().max(500, { message: 'must be at most 500 characters' })).describe('search keywords with optional field filters'),
  type: typeList(PLATFORM_SEARCH_TYPES).describe(`comma-separated item types: ${PLATFORM_SEARCH_TYPES.join(', ')}`),
  market: z
    .string()
    .regex(/^([A-Za-z]{2}|from_token)$/, { message: 'must be a 2-letter ISO country code or from_token' })
    .transform((v) => (v === 'from_token' ? v : v.toUpperCase()))
    .optional()
    .describe('ISO 3166-1 alpha-2 code or from_token'),
  limit: bounded(1, 50, 20).describe('items per type, 1-50, default 20'),
  offset: int().min(0, { message: 'must be at least 0' }).max(10000, { message: 'must be at most 10000' }).default(0).describe('index of the first item, 0-10000, default 0'),
});
export type PlatformSearchInput = z.output<typeof platformSearchInput>;

export const RESEARCH_SEARCH_TYPES = ['all', 'artists', 'tracks', 'albums', 'playlists', 'curators', 'stations', 'cities', 'songwriters', 'labels'] as const;

export const researchSearchInput = z.object({
  q: trimmed('q').pipe(z.string().max(200, { message: 'must be at most 200 characters' })).describe('search keywords, or a provider URL'),
  type: z.enum(RESEARCH_SEARCH_TYPES, { message: `must be one of: ${RESEARCH_SEARCH_TYPES.join(', ')}` }).describe('what to search'),
  beta: z.boolean().default(false).describe('use the provider\'s newer search (needed for curators)'),
  limit: bounded(1, 100, 10).describe('matches per kind, 1-100, default 10'),
  offset: int().min(0, { message: 'must be at least 0' }).default(0).describe('index of the first match, default 0'),
});
export type ResearchSearchInput = z.output<typeof researchSearchInput>;

export const artistInput = z.object({
  artist: numericId('artist').describe('a research artist id, as discover and research search list them'),
});
export type ArtistInput = z.output<typeof artistInput>;

export const artistTracksInput = z.object({
  artist: numericId('artist').describe('a research artist id, as discover and research search list them'),
  limit: bounded(1, 100, 20).describe('tracks to answer, 1-100, default 20'),
  offset: int().min(0, { message: 'must be at least 0' }).default(0).describe('index of the first track, default 0'),
});
export type ArtistTracksInput = z.output<typeof artistTracksInput>;

export const PLAYLIST_STATUSES = ['current', 'past'] as const;
export const artistPlaylistsInput = z.object({
  artist: numericId('artist').describe('a research artist id, as discover and research search list them'),
  platform: z.enum(CURATOR_PLATFORMS, { message: `must be one of: ${CURATOR_PLATFORMS.join(', ')}` }).default('platform_a').describe('platform_a (default), platform_b or platform_c'),
  status: z.enum(PLAYLIST_STATUSES, { message: 'must be current or past' }).default('current').describe('current (default) or past placements'),
  limit: bounded(1, 100, 20).describe('placements to answer, 1-100, default 20'),
  offset: int().min(0, { message: 'must be at least 0' }).default(0).describe('index of the first placement, default 0'),
});
export type ArtistPlaylistsInput = z.output<typeof artistPlaylistsInput>;

const researchId = z
  .string({ message: 'is required: a research artist id (digits), or null to clear the link' })
  .regex(/^[0-9]{1,20}$/, { message: 'must be a research artist id (digits only)' })
  .nullable();

/** PATCH /api/artists/{id} (Mutation.updateArtist). */
export const linkArtistResearchInput = z.object({
  id: uuid().describe('the artist account'),
  research_id: researchId.describe('research artist id (digits) from discover or the research search; null clears the link (and no search replaces it)'),
});
export type ArtistResearchLinkInput = z.output<typeof linkArtistResearchInput>;

/** `updateArtist`'s input: REST drops a null before it gets here (the route requires the key), so an absent researchId means null (link none). */
export const parseLinkArtistResearch = (input: Record<string, unknown>): ArtistResearchLinkInput =>
  validate(linkArtistResearchInput, { ...input, researchId: input.researchId ?? null });
