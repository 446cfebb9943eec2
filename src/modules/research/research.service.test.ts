import DataLoader from 'dataloader';
import type { RateDecision } from '../../auth/rate-limit';
import { RateLimitExceeded } from '../../auth/rate-limit';
import type { Viewer } from '../../auth/viewer';
import { AccountKind } from '../../auth/viewer';
import { AppError } from '../../common/errors';
import type { ResearchKind } from '../../config/config';
import type { Providers } from '../../providers';
import { PlatformNames } from '../../providers/platforms';
import type { Artist } from '../artist';
import { ArtistResearchService, ArtistResearchStore } from './artist-research.service';
import { trackStatsInput } from './research.inputs';
import { keys } from './research.keys';
import { answerKey } from './research.loaders';
import type { AnswerRow, ResearchLinkRow, StoredAnswer } from './research.repository';
import { ResearchAnswerStore, ResearchService } from './research.service';

const viewer: Viewer = { accountId: 'a1', kind: AccountKind.person, name: 'Nora', email: null, organizationIds: [], isAdmin: false, via: 'api_key' };
const HOUR = 3600;
const ttlSeconds = { track_stats: HOUR, discover: HOUR, curator: HOUR, genres: HOUR, search: HOUR, artist: HOUR, artist_tracks: HOUR, artist_playlists: HOUR, platform_search: HOUR } as Record<ResearchKind, number>;

/** Stored answers in a map, read through a real DataLoader as the request's loader does. */
function fakeStore(stored: StoredAnswer[] = []) {
  const byKey = new Map(stored.map((a) => [answerKey(a.kind, a.key), a]));
  const saved: { rows: AnswerRow[]; capturedAt: Date }[] = [];
  const repo: ResearchAnswerStore = {
    saveAnswers: async (rows, capturedAt) => {
      saved.push({ rows: [...rows], capturedAt });
    },
  };
  const researchAnswer = new DataLoader<string, StoredAnswer | null>(async (ks) => ks.map((k) => byKey.get(k) ?? null));
  return { repo, loaders: { researchAnswer }, saved };
}

function service(store: ReturnType<typeof fakeStore>, providers: Partial<Providers>, consume = jest.fn<Promise<RateDecision[]>, []>()) {
  const warn = jest.fn();
  const research = new ResearchService(store.repo, store.loaders, {
    providers: { platformNames: new PlatformNames({ platform_a: 'upstream_a' }), curatorPlatformNames: new PlatformNames({}), ...providers } as Providers,
    settings: { ttlSeconds },
    rateLimiter: { consume },
    log: { warn } as never,
  });
  return { research, warn, consume };
}

const genresAnswer = (capturedAt: Date): StoredAnswer => ({ kind: 'genres', key: keys.genres(), source: 'music_intel', payload: [{ id: 1, name: 'stored' }], capturedAt });

describe('ResearchService: stored data first (no database)', () => {
  it('serves a fresh stored answer without asking the provider or writing', async () => {
    const store = fakeStore([genresAnswer(new Date())]);
    const genres = jest.fn();
    const { research } = service(store, { musicIntel: { configured: true, genres } as never });
    expect(await research.genres(viewer)).toEqual([{ id: 1, name: 'stored' }]);
    expect(genres).not.toHaveBeenCalled();
    expect(store.saved).toHaveLength(0);
  });

  it('asks the provider for a stale answer and stores what it says; serves the stale one when the provider fails', async () => {
    const stale = new Date(Date.now() - 2 * HOUR * 1000);
    const answered = fakeStore([genresAnswer(stale)]);
    const { research } = service(answered, { musicIntel: { configured: true, genres: async () => [{ id: 2, name: 'fresh' }] } as never });
    expect(await research.genres(viewer)).toEqual([{ id: 2, name: 'fresh' }]);
    expect(answered.saved.map((s) => s.rows.map((r) => r.kind))).toEqual([['genres']]);

    const failing = fakeStore([genresAnswer(stale)]);
    const down = service(failing, { musicIntel: { configured: true, genres: async () => Promise.reject(new AppError('PROVIDER_TIMEOUT', 'slow')) } as never });
    expect(await down.research.genres(viewer)).toEqual([{ id: 1, name: 'stored' }]);
    expect(down.warn).toHaveBeenCalledTimes(1);
    expect(failing.saved).toHaveLength(0);
  });

  it('names the missing setting when the provider is not configured and nothing is stored', async () => {
    const { research } = service(fakeStore(), { musicIntel: { configured: false } as never });
    await expect(research.genres(viewer)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('MUSIC_INTEL_REFRESH_TOKEN') });
  });

  it('charges the budget once for every call a track stats batch needs, and makes only the calls it paid for', async () => {
    const inputs = ['GBNWR2400001', 'GBNWR2400002'].map((isrc) => trackStatsInput.parse({ isrc, source: 'platform_a' }));
    const store = fakeStore();
    const trackStats = jest.fn(async () => ({ stats: [{ source: 'upstream_a', data: { streams: 7 } }], track_info: { title: 'T' } }));
    // A budget with one point left: the first call goes ahead, the second is refused.
    const consume = jest.fn(async () => [{ budget: 'research', allowed: false, limit: 10, remaining: 0, used: 11, resetS: 30 } as RateDecision]);
    const { research } = service(store, { trackStats: { configured: true, trackStats } as never }, consume);
    const [first, second] = await research.trackStatsBatch(viewer, inputs, 4);
    expect(consume).toHaveBeenCalledTimes(1);
    expect(consume).toHaveBeenCalledWith([{ budget: 'research', subject: 'acct:a1', points: 2 }]);
    expect(trackStats).toHaveBeenCalledTimes(1);
    expect(first).toMatchObject({ stats: [{ source: 'platform_a', data: { streams: 7 }, data_source: 'provider' }] });
    expect(second).toBeInstanceOf(RateLimitExceeded);
    // One write for the batch: the paid track's stats and its track info.
    expect(store.saved.map((s) => s.rows.map((r) => r.kind))).toEqual([['track_stats', 'track_info']]);
  });
});

describe('ArtistResearchService: links follow reach (no database)', () => {
  const nora: Artist = { id: 'artist-1', name: 'Nora  K' };

  function links(stored: ResearchLinkRow[], reachable: string[]) {
    const rows = new Map(stored.map((r) => [r.artist_id, r]));
    const repo: ArtistResearchStore = {
      setExplicitLink: async (artistId, researchId) => {
        const row = { artist_id: artistId, research_id: researchId, research_match: 'explicit', matched_at: new Date() };
        rows.set(artistId, row);
        return row;
      },
      storeSearchedLink: jest.fn(async (artistId: string, researchId: string | null) => {
        if (rows.has(artistId)) return null;
        const row = { artist_id: artistId, research_id: researchId, research_match: 'search', matched_at: new Date() };
        rows.set(artistId, row);
        return row;
      }),
    };
    const loaders = {
      researchLink: new DataLoader<string, ResearchLinkRow | null>(async (ids) => ids.map((id) => rows.get(id) ?? null)),
      researchLinkResolving: new Map<string, Promise<string | null>>(),
    };
    const artists = {
      canReach: async (_viewer: Viewer, id: string) => reachable.includes(id),
      requireArtist: async (_viewer: Viewer, id: string) => ({ id, name: nora.name, image: null, created_at: new Date(0) }),
    };
    const search = jest.fn(async () => ({ artists: [{ id: '41', name: 'Nora' }, { id: '42', name: 'nora k' }, { id: 'x', name: 'Nora  K' }] }));
    return { service: new ArtistResearchService(repo, loaders, artists, { search }), search, repo, rows };
  }

  it('answers null for an artist out of reach and never searches for it', async () => {
    const { service: s, search, repo } = links([], []);
    expect(await s.researchOf(viewer, nora)).toBeNull();
    expect(await s.linkOf(viewer, nora)).toBeNull();
    expect(search).not.toHaveBeenCalled();
    expect(repo.storeSearchedLink).not.toHaveBeenCalled();
  });

  it('searches once per artist however many fields ask, and stores the exact name match', async () => {
    const { service: s, search, repo } = links([], [nora.id]);
    const [research, link] = await Promise.all([s.researchOf(viewer, nora), s.linkOf(viewer, nora)]);
    expect(research).toEqual({ id: '42' });
    expect(link).toMatchObject({ research_id: '42', match: 'search' });
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith(viewer, { q: 'Nora  K', type: 'artists', beta: false, limit: 10, offset: 0 });
    expect(repo.storeSearchedLink).toHaveBeenCalledTimes(1);
  });

  it('keeps a stored link, explicit null included, without searching', async () => {
    const { service: s, search } = links([{ artist_id: nora.id, research_id: null, research_match: 'explicit', matched_at: new Date(0) }], [nora.id]);
    expect(await s.researchOf(viewer, nora)).toBeNull();
    expect(await s.linkOf(viewer, nora)).toEqual({ research_id: null, match: 'explicit', matched_at: new Date(0) });
    expect(search).not.toHaveBeenCalled();
  });

  it('forgets what the request resolved once the link is set explicitly', async () => {
    const { service: s } = links([], [nora.id]);
    expect(await s.researchOf(viewer, nora)).toEqual({ id: '42' });
    const linked = await s.link(viewer, { id: nora.id, research_id: '77' });
    expect(linked).toMatchObject({ id: nora.id, name: nora.name, stored_link: { research_id: '77', research_match: 'explicit' } });
    expect(await s.storedLinkOf(viewer, linked)).toMatchObject({ research_id: '77', research_match: 'explicit' });
    expect(await s.researchOf(viewer, nora)).toEqual({ id: '77' });
  });

  it('reads the stored link as it is for the flat fields: never searches, null out of reach or when none is stored', async () => {
    const { service: s, search, repo } = links([], [nora.id]);
    expect(await s.storedLinkOf(viewer, nora)).toBeNull();
    const other: Artist = { id: 'artist-2', name: 'Kai' };
    const { service: unreachable } = links([{ artist_id: other.id, research_id: '5', research_match: 'explicit', matched_at: new Date(0) }], []);
    expect(await unreachable.storedLinkOf(viewer, other)).toBeNull();
    expect(search).not.toHaveBeenCalled();
    expect(repo.storeSearchedLink).not.toHaveBeenCalled();
  });
});
