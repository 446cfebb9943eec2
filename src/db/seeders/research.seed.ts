import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_TRACK_OPTIONS, keys } from '../../modules/research/research.keys';
import { pgArray } from '../sql';
import { DEMO } from './demo.data';

/** Provider artist ids of the demo artists (answers of discover, search, tracks, playlists). */
export const DEMO_RESEARCH = {
  artists: [
    { id: 4100021, account: DEMO.luna, name: 'Luna Waves', country: 'GB', listeners: 812_400, followers: 96_300, tiktok: 120_500, instagram: 48_200 },
    { id: 4100022, account: DEMO.owls, name: 'The Midnight Owls', country: 'US', listeners: 243_900, followers: 31_800, tiktok: 12_100, instagram: 15_800 },
    { id: 4100023, account: DEMO.kai, name: 'Kai Rivers', country: 'DE', listeners: 1_530_000, followers: 204_000, tiktok: 61_000, instagram: 230_400 },
  ],
  tracks: [
    { isrc: 'GBNWR2400001', name: 'Tidal Lights', album: 'Shoreline', artists: [4100021], released: '2024-03-01' },
    { isrc: 'GBNWR2400002', name: 'Paper Moons', album: 'Shoreline', artists: [4100021], released: '2024-03-01' },
    { isrc: 'GBNWR2400003', name: 'Salt & Static', album: 'Shoreline', artists: [4100021, 4100023], released: '2024-03-01' },
    { isrc: 'USNWR2400004', name: 'Owl Hours', album: 'After Dark', artists: [4100022], released: '2024-06-14' },
    { isrc: 'USNWR2400005', name: 'Neon Feathers', album: 'After Dark', artists: [4100022], released: '2024-06-14' },
    { isrc: 'DEKAI2400006', name: 'Spree Nights', album: null, artists: [4100023], released: '2024-09-20' },
    { isrc: 'DEKAI2400007', name: 'Concrete Bloom', album: null, artists: [4100023], released: '2024-11-08' },
  ],
  curators: [
    { platform: 'platform_a', id: '1001', name: 'Indie Shores', followers: 184_000, platformId: 'indieshores' },
    { platform: 'platform_a', id: '1002', name: 'Late Night Lo-Fi', followers: 52_300, platformId: 'latenightlofi' },
    { platform: 'platform_b', id: '2001', name: 'Berlin Underground', followers: 71_000, platformId: 'pl.berlin-underground' },
    { platform: 'platform_c', id: '3001', name: 'Dream Pop Daily', followers: 33_900, platformId: '9182736' },
  ],
  genres: [
    { id: 1, name: 'pop' },
    { id: 2, name: 'rock' },
    { id: 3, name: 'electronic' },
    { id: 4, name: 'hip-hop' },
    { id: 5, name: 'indie' },
    { id: 6, name: 'dream pop' },
    { id: 7, name: 'techno' },
  ],
} as const;

const SOURCES = ['platform_a', 'platform_b', 'platform_c', 'platform_d'] as const;
const UPSTREAM: Record<string, string> = { platform_a: 'spotify', platform_b: 'apple_music', platform_c: 'deezer', platform_d: 'youtube' };

/** The track statistics of the demo's track `ti` on source `si`, as the provider answers them. */
function statsOf(ti: number, si: number) {
  const base = (ti + 1) * 100_000 + (si + 1) * 17_000;
  return {
    streams_total: base * 12,
    popularity_current: 40 + ((ti * 7 + si * 5) % 50),
    playlists_current: 20 + ti * 3 + si,
    playlists_total: 60 + ti * 5 + si * 2,
    playlist_reach_current: base * 2,
    playlist_reach_total: base * 5,
    charts_current: si % 2,
    charts_total: 2 + ti,
    playlists_editorial_current: si === 0 ? 2 : 0,
    playlists_editorial_total: si === 0 ? 4 : 1,
  };
}

/**
 * Stored research answers for the demo data set, so every research route answers offline: the
 * payloads have the providers' own shapes, exactly as a provider answer would be stored.
 */
export async function seedResearch(em: EntityManager, now: Date): Promise<void> {
  const rows: { kind: string; key: string; source: string; payload: unknown }[] = [];
  const add = (kind: string, key: string, source: string, payload: unknown) => rows.push({ kind, key, source, payload });
  const d = DEMO_RESEARCH;
  const name = (id: number) => d.artists.find((a) => a.id === id)!.name;

  d.tracks.forEach((t, ti) => {
    SOURCES.forEach((source, si) => {
      add('track_stats', keys.trackStats('isrc', t.isrc, source, DEFAULT_TRACK_OPTIONS), 'track_stats', statsOf(ti, si));
    });
    add('track_info', keys.trackInfo('isrc', t.isrc, DEFAULT_TRACK_OPTIONS), 'track_stats', {
      track_info: {
        songstats_track_id: `demo${String(ti + 1).padStart(4, '0')}`,
        title: t.name,
        release_date: t.released,
        artists: t.artists.map((a) => ({ name: name(a) })),
        links: SOURCES.map((s) => ({ source: UPSTREAM[s], external_id: `${s}-${t.isrc}`, url: `https://example.com/${s}/${t.isrc}`, isrc: t.isrc })),
      },
      source_ids: [...Object.values(UPSTREAM), 'shazam'],
    });
  });

  const discovered = d.artists.map((a) => ({
    name: a.name, cm_artist: a.id, sp_monthly_listeners: a.listeners, sp_followers: a.followers, tiktok_followers: a.tiktok, ins_followers: a.instagram, code2: a.country,
  }));
  add('discover', keys.discover({ limit: 20 }), 'music_intel', [...discovered].sort((x, y) => y.sp_monthly_listeners - x.sp_monthly_listeners));
  for (const a of discovered) add('discover', keys.discover({ country: a.code2, limit: 20 }), 'music_intel', [a]);

  for (const c of d.curators) {
    add('curator', keys.curator(c.platform, c.id), 'music_intel', {
      id: Number(c.id), name: c.name, curator_id: c.platformId, image_url: `https://images.example.com/curators/${c.id}.png`,
      description: `${c.name}: a demo playlist curator.`, followers: c.followers,
      instagram_followers: Math.round(c.followers / 4), facebook_followers: null, twitter_followers: Math.round(c.followers / 10),
      youtube_subscribers: null, soundcloud_followers: null, tiktok_followers: Math.round(c.followers / 3),
      cm_statistics: { playlist_reach: c.followers * 3, editorial_playlists: 0, num_playlists: 12, weekly_diff_followers: 420 },
      last_updated: now.toISOString(), suspicion_score: 0.08,
      social_urls: { instagram: `https://instagram.com/${c.platformId}` },
    });
  }
  add('genres', keys.genres(), 'music_intel', d.genres);

  for (const a of d.artists) {
    const tracks = d.tracks.filter((t) => (t.artists as readonly number[]).includes(a.id));
    add('artist_tracks', keys.artistTracks(String(a.id), 20, 0), 'music_intel', tracks.map((t, i) => ({
      cm_track: a.id * 10 + i, name: t.name, isrc: t.isrc, artist_names: t.artists.map(name),
      album_names: t.album ? [t.album] : [], release_dates: [t.released], image_url: `https://images.example.com/tracks/${t.isrc}.png`,
    })));
    const curator = d.curators.filter((c) => c.platform === 'platform_a')[a.id % 2];
    add('artist_playlists', keys.artistPlaylists(String(a.id), 'platform_a', 'current', 20, 0), 'music_intel', tracks.slice(0, 2).map((t, i) => ({
      playlist: { playlist_id: `demo-pl-${a.id}-${i}`, name: `${curator.name} #${i + 1}`, curator_id: Number(curator.id), curator_name: curator.name, followers: curator.followers, position: 3 + i * 7, added_at: t.released },
      track: { name: t.name, isrc: t.isrc },
    })));
    const searchArtist = { id: a.id, name: a.name, image_url: `https://images.example.com/${a.id}.png`, sp_monthly_listeners: a.listeners };
    add('search', keys.search({ q: a.name, type: 'artists', beta: false, limit: 10, offset: 0 }), 'music_intel', { artists: [searchArtist] });
    add('search', keys.search({ q: a.name, type: 'all', beta: false, limit: 10, offset: 0 }), 'music_intel', {
      artists: [searchArtist],
      tracks: tracks.map((t) => ({ name: t.name, isrc: t.isrc, artist_names: t.artists.map(name) })),
    });
    add('platform_search', keys.platformSearch({ q: a.name, types: ['artist'], limit: 20, offset: 0 }), 'platform_a', {
      artists: {
        href: `https://api.spotify.com/v1/search?offset=0&limit=20&query=${encodeURIComponent(a.name)}&type=artist`,
        items: [{
          external_urls: { spotify: `https://open.spotify.com/artist/demo${a.id}` }, followers: { href: null, total: a.followers },
          genres: ['indie'], href: `https://api.spotify.com/v1/artists/demo${a.id}`, id: `demo${a.id}`,
          images: [{ url: `https://images.example.com/${a.id}.png`, height: 640, width: 640 }], name: a.name,
          popularity: 40 + (a.id % 30), type: 'artist', uri: `spotify:artist:demo${a.id}`,
        }],
        limit: 20, next: null, offset: 0, previous: null, total: 1,
      },
    });
  }
  add('search', keys.search({ q: 'indie', type: 'curators', beta: true, limit: 10, offset: 0 }), 'music_intel', {
    curators: { spotify: d.curators.filter((c) => c.platform === 'platform_a').map((c) => ({ id: Number(c.id), name: c.name, followers: c.followers })) },
  });
  // Added after the rows above: stored answer ids follow row order, and a seeded database keeps its rows.
  for (const a of d.artists) {
    add('artist', keys.artist(String(a.id)), 'music_intel', {
      id: a.id, name: a.name, image_url: `https://images.example.com/${a.id}.png`, code2: a.country,
      cm_statistics: {
        sp_monthly_listeners: a.listeners, sp_followers: a.followers, sp_popularity: Math.min(100, Math.round(Math.log10(a.listeners + 10) * 14)),
        tiktok_followers: a.tiktok, ins_followers: a.instagram, ycs_subscribers: Math.round(a.instagram * 0.4), timestamp: now.toISOString(),
      },
    });
  }

  // The README's research profile query asks for these exact requests (stored answers are keyed by the
  // request): an artist's first 10 tracks, its first 5 playlist placements, and its tracks' statistics
  // on every source with their playlists. They answer on plain `npm start`, with no provider configured.
  const PROFILE_OPTIONS = { ...DEFAULT_TRACK_OPTIONS, with_playlists: true };
  for (const a of d.artists) {
    const stored = (kind: string, key: string) => rows.find((r) => r.kind === kind && r.key === key)!.payload as unknown[];
    add('artist_tracks', keys.artistTracks(String(a.id), 10, 0), 'music_intel', stored('artist_tracks', keys.artistTracks(String(a.id), 20, 0)).slice(0, 10));
    add('artist_playlists', keys.artistPlaylists(String(a.id), 'platform_a', 'current', 5, 0), 'music_intel',
      stored('artist_playlists', keys.artistPlaylists(String(a.id), 'platform_a', 'current', 20, 0)).slice(0, 5));
  }
  d.tracks.forEach((t, ti) => {
    SOURCES.forEach((source, si) => {
      const placed = d.curators.filter((c) => c.platform === source);
      add('track_stats', keys.trackStats('isrc', t.isrc, source, PROFILE_OPTIONS), 'track_stats', {
        ...statsOf(ti, si),
        playlists: placed.map((c, ci) => ({
          name: `${c.name} #${ti + 1}`, external_id: `demo-pl-${c.id}-${ti}`, followers: c.followers, curator_name: c.name,
          position: 3 + ((ti + ci) * 7) % 40, added_at: t.released, current: true,
        })),
      });
    });
  });

  // One statement for all rows: the demo seed runs for every integration test file.
  await em.execute(
    `insert into research_answers (id, created_at, updated_at, kind, key, source, payload, captured_at)
     select r.id::uuid, ?, ?, r.kind, r.key, r.source, r.payload::jsonb, ?
       from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[]) as r(id, kind, key, source, payload)
     on conflict do nothing`,
    [
      now,
      now,
      now,
      pgArray(rows.map((_, i) => `00000000-0000-4000-a000-${String(i + 1).padStart(12, '0')}`)),
      pgArray(rows.map((r) => r.kind)),
      pgArray(rows.map((r) => r.key)),
      pgArray(rows.map((r) => r.source)),
      pgArray(rows.map((r) => JSON.stringify(r.payload))),
    ],
  );

  // The demo artists are linked to their research artists, so Artist.research answers without a search.
  // A link already stored (set by a client, or found by an earlier search) is kept.
  await em.execute(
    `insert into artist_research_links (artist_id, research_id, research_match, matched_at)
     select l.artist_id::uuid, l.research_id, 'explicit', ? from unnest(?::text[], ?::text[]) as l(artist_id, research_id)
     on conflict (artist_id) do nothing`,
    [now, pgArray(d.artists.map((a) => a.account)), pgArray(d.artists.map((a) => String(a.id)))],
  );
}
