import { DEMO_RESEARCH } from '../../db/seeders/research.seed';

/** Deterministic generated catalog behind the sandbox upstreams: same seed, same data, every run. */

export interface SandboxArtist {
  id: number;
  name: string;
  country: string;
  listeners: number;
  followers: number;
  tiktok: number;
  instagram: number;
  genreIds: number[];
  platformId: string;
  popularity: number;
}

export interface SandboxTrack {
  id: number;
  name: string;
  isrc: string;
  artistIds: number[];
  album: string | null;
  released: string;
  platformId: string;
  appleId: string;
  statsId: string;
  streams: number;
  popularity: number;
}

export interface SandboxCurator {
  id: number;
  name: string;
  platformId: string;
  followers: number;
  instagram: number;
  tiktok: number;
  suspicion: number;
}

export interface SandboxPlaylist {
  id: string;
  name: string;
  curatorId: number;
  followers: number;
  /** Track ids with their position and whether the track is still on the list. */
  entries: { trackId: number; position: number; addedAt: string; current: boolean }[];
}

export interface SandboxData {
  artists: SandboxArtist[];
  tracks: SandboxTrack[];
  curators: SandboxCurator[];
  playlists: SandboxPlaylist[];
  genres: { id: number; name: string }[];
  charts: { date: string; trackIds: number[] };
}

/** mulberry32: tiny, fast, and identical on every platform. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GENRES = [
  ...DEMO_RESEARCH.genres,
  ...['shoegaze', 'synthwave', 'lo-fi', 'house', 'r&b', 'soul', 'jazz', 'folk', 'country', 'metal', 'punk', 'k-pop', 'afrobeats', 'reggaeton', 'ambient', 'drum and bass', 'trap', 'grime', 'disco', 'funk', 'blues', 'classical', 'latin'].map(
    (name, i) => ({ id: DEMO_RESEARCH.genres.length + 1 + i, name }),
  ),
];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'SE', 'NL', 'CA', 'AU', 'JP', 'BR', 'MX', 'ES', 'IT', 'KR', 'NG'];
const FIRST = ['Nova', 'Mila', 'Theo', 'Aria', 'Jonas', 'Lena', 'Ezra', 'Ivy', 'Milo', 'Zara', 'Felix', 'Noor', 'Otis', 'Ruby', 'Silas', 'Yara', 'Hugo', 'Elsa', 'Remy', 'Iris'];
const LAST = ['Stone', 'Vale', 'Marsh', 'Holt', 'Quinn', 'Reyes', 'Lund', 'Okafor', 'Sato', 'Brandt', 'Costa', 'Fox', 'Hale', 'Moreau', 'Park', 'Weiss'];
const ADJ = ['Velvet', 'Silver', 'Neon', 'Hollow', 'Golden', 'Paper', 'Crystal', 'Electric', 'Quiet', 'Wild', 'Broken', 'Lunar', 'Static', 'Faded', 'Northern', 'Crimson'];
const NOUN = ['Tides', 'Foxes', 'Echoes', 'Satellites', 'Harbors', 'Ghosts', 'Rivers', 'Lanterns', 'Pines', 'Engines', 'Comets', 'Mirrors', 'Gardens', 'Wolves', 'Signals', 'Dunes'];
const WORD = ['Light', 'Summer', 'Midnight', 'Ocean', 'Fire', 'Glass', 'Heart', 'City', 'Dream', 'Shadow', 'Runaway', 'Gravity', 'Sugar', 'Thunder', 'Halo', 'Bloom', 'Drift', 'Signal', 'Horizon', 'Echo'];
const PLAYLIST = ['Fresh Finds', 'Chill Vibes', 'Morning Run', 'Deep Focus', 'Night Drive', 'Indie Mix', 'Weekend Party', 'Rainy Days', 'Workout Beats', 'Coffee House'];
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const SANDBOX_SEED = 20261123;
export const SANDBOX_ARTIST_COUNT = 300;

export function generateSandboxData(seed = SANDBOX_SEED): SandboxData {
  const rnd = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const id62 = () => Array.from({ length: 22 }, () => B62[Math.floor(rnd() * 62)]).join('');
  const date = (year: number) => `${year}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`;

  const artists: SandboxArtist[] = [];
  const names = new Set<string>();
  const addArtist = (id: number, name: string, country: string, listeners: number, followers: number, tiktok: number, instagram: number, genreIds: number[]) => {
    names.add(name.toLowerCase());
    artists.push({ id, name, country, listeners, followers, tiktok, instagram, genreIds, platformId: id62(), popularity: Math.min(100, Math.round(Math.log10(listeners + 10) * 14)) });
  };
  // The demo artists keep the ids and numbers the demo data set stores, so both tell one story.
  for (const a of DEMO_RESEARCH.artists) addArtist(a.id, a.name, a.country, a.listeners, a.followers, a.tiktok, a.instagram, [5, 6]);
  while (artists.length < SANDBOX_ARTIST_COUNT) {
    const name = rnd() < 0.5 ? `${pick(FIRST)} ${pick(LAST)}` : rnd() < 0.5 ? `The ${pick(ADJ)} ${pick(NOUN)}` : `${pick(ADJ)} ${pick(NOUN)}`;
    if (names.has(name.toLowerCase())) continue;
    const listeners = Math.round(10 ** (3 + rnd() * 4));
    addArtist(4200001 + artists.length, name, pick(COUNTRIES), listeners, Math.round(listeners * (0.05 + rnd() * 0.2)), Math.round(listeners * rnd() * 0.3), Math.round(listeners * rnd() * 0.2), [int(1, GENRES.length), int(1, GENRES.length)]);
  }

  const tracks: SandboxTrack[] = [];
  const addTrack = (t: Omit<SandboxTrack, 'id' | 'platformId' | 'appleId' | 'statsId' | 'streams' | 'popularity'>, lead: SandboxArtist) => {
    const id = 7000001 + tracks.length;
    const streams = Math.round(lead.listeners * (2 + rnd() * 40));
    tracks.push({ ...t, id, platformId: id62(), appleId: String(1_500_000_000 + id), statsId: `ss${id.toString(36)}`, streams, popularity: Math.max(1, Math.min(100, lead.popularity + int(-15, 10))) });
  };
  for (const t of DEMO_RESEARCH.tracks) {
    addTrack({ name: t.name, isrc: t.isrc, artistIds: [...t.artists], album: t.album, released: t.released }, artists.find((a) => a.id === t.artists[0])!);
  }
  for (const a of artists.slice(DEMO_RESEARCH.artists.length)) {
    const album = rnd() < 0.6 ? `${pick(ADJ)} ${pick(WORD)}` : null;
    const year = int(2015, 2026);
    const count = int(2, 6);
    for (let i = 0; i < count; i += 1) {
      const name = rnd() < 0.5 ? `${pick(WORD)} ${pick(WORD)}` : pick(WORD);
      const isrc = `${a.country}S${B62[10 + (a.id % 26)].toUpperCase()}${B62[10 + ((a.id >> 3) % 26)].toUpperCase()}${String(year % 100).padStart(2, '0')}${String(tracks.length).padStart(5, '0')}`;
      // Features come from generated artists only: the demo artists' track lists stay the demo's.
      const feature = rnd() < 0.15 ? [artists[int(DEMO_RESEARCH.artists.length, artists.length - 1)].id].filter((f) => f !== a.id) : [];
      addTrack({ name, isrc, artistIds: [a.id, ...feature], album, released: date(year) }, a);
    }
  }

  const curators: SandboxCurator[] = DEMO_RESEARCH.curators.map((c) => ({ id: Number(c.id), name: c.name, platformId: c.platformId, followers: c.followers, instagram: Math.round(c.followers / 8), tiktok: Math.round(c.followers / 5), suspicion: 0.1 }));
  while (curators.length < 60) {
    const name = `${pick(ADJ)} ${pick(PLAYLIST)}`;
    const followers = int(500, 400_000);
    curators.push({ id: 5001 + curators.length, name, platformId: id62().slice(0, 12).toLowerCase(), followers, instagram: int(0, followers), tiktok: int(0, followers), suspicion: Math.round(rnd() * 100) / 100 });
  }

  const playlists: SandboxPlaylist[] = [];
  for (let i = 0; i < 200; i += 1) {
    const curator = i < curators.length ? curators[i] : pick(curators);
    const size = int(5, 25);
    const entries: SandboxPlaylist['entries'] = [];
    for (let p = 1; p <= size; p += 1) entries.push({ trackId: tracks[int(0, tracks.length - 1)].id, position: p, addedAt: date(int(2023, 2026)), current: rnd() < 0.7 });
    playlists.push({ id: `pl${String(i + 1).padStart(4, '0')}${id62().slice(0, 8)}`, name: `${curator.name}: ${pick(PLAYLIST)}`, curatorId: curator.id, followers: Math.round(curator.followers * (0.1 + rnd())), entries });
  }
  // Every demo track sits on a demo curator's list, so composed queries show playlists with curators.
  for (const [i, t] of tracks.slice(0, DEMO_RESEARCH.tracks.length).entries()) {
    playlists[i % DEMO_RESEARCH.curators.length].entries.unshift({ trackId: t.id, position: 3 + i, addedAt: t.released, current: true });
  }

  const charts = { date: '2026-11-20', trackIds: [...tracks].sort((a, b) => b.streams - a.streams).slice(0, 50).map((t) => t.id) };
  return { artists, tracks, curators, playlists, genres: GENRES, charts };
}
