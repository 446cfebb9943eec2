import { LIST_BOUNDS } from '../../common/bounds';
import type { PlatformNames } from '../../providers/platforms';
import {
  ResearchPlaylist,
  ResearchTrack,
  CuratorProfile,
  DiscoveredArtist,
  ResearchArtistProfile,
  ResearchGenre,
  TrackInfo,
} from './research.types';

/*
 * Provider payloads → contract shapes. Payloads are stored as received, so mapping happens on the
 * way out and a stored answer and a fresh one look the same.
 */

type Obj = Record<string, unknown>;

const INT_MAX = 2 ** 31 - 1;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A list nested in a provider's item: its first LIST_BOUNDS.providerItems entries (the bound its field declares). */
const few = (v: unknown): unknown[] => list(v).slice(0, LIST_BOUNDS.providerItems);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
/** A GraphQL Int (32-bit) or null. */
export const int = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? Math.max(-INT_MAX, Math.min(INT_MAX, Math.round(n))) : null;
};
const first = (...values: unknown[]) => values.find((v) => v !== undefined && v !== null);

/** The list inside an answer that is either the list itself or `{data: [...]}`. */
export const items = (payload: unknown): Obj[] => list(Array.isArray(payload) ? payload : obj(payload).data).filter(isObj);

export function toTrackInfo(raw: unknown, names: PlatformNames): TrackInfo {
  const t = obj(raw);
  return {
    stats_track_id: str(first(t.songstats_track_id, t.stats_track_id)),
    title: str(t.title),
    avatar: str(t.avatar),
    site_url: str(t.site_url),
    release_date: str(t.release_date),
    artists: few(t.artists).filter(isObj).map((a) => ({ name: str(a.name) ?? '' })),
    is_remix: typeof t.is_remix === 'boolean' ? t.is_remix : null,
    collaborators: few(t.collaborators)
      .filter(isObj)
      .map((c) => ({ name: str(c.name) ?? '', roles: few(c.roles).map(str).filter((r): r is string => r !== null) })),
    labels: few(t.labels).filter(isObj),
    distributors: few(t.distributors).filter(isObj).map((d) => ({ name: str(d.name) ?? '' })),
    genres: few(t.genres).map(str).filter((g): g is string => g !== null),
    links: few(t.links)
      .filter(isObj)
      .map((l) => ({ source: names.neutral(str(l.source) ?? ''), external_id: str(l.external_id), url: str(l.url), isrc: str(l.isrc) })),
  };
}

export function toDiscoveredArtist(a: Obj): DiscoveredArtist {
  return {
    name: str(a.name) ?? '',
    id: int(first(a.cm_artist, a.id)) ?? 0,
    sp_monthly_listeners: int(a.sp_monthly_listeners),
    sp_followers: int(a.sp_followers),
    tiktok_followers: int(a.tiktok_followers),
    ins_followers: int(a.ins_followers),
    country: str(first(a.code2, a.country)),
  };
}

export function toCurator(raw: unknown, platform: string, id: string, capturedAt: Date): CuratorProfile {
  const c = obj(raw);
  const stats = obj(c.cm_statistics);
  const followers = (key: string) => int(first(c[key], stats[key]));
  const social = first(c.social_urls, c.spotify_social_urls, c.urls);
  const synced = first(c.last_updated, c.modified_at, c.updated_at, c.last_synced_at);
  return {
    id: str(first(c.id, c.cm_curator, c.curator_cm_id)) ?? id,
    platform,
    platform_curator_id: str(first(c.curator_id, c.user_id, c.owner_id, c.platform_curator_id)),
    name: str(first(c.name, c.curator_name)),
    image_url: str(c.image_url),
    description: str(c.description),
    followers: int(first(c.followers, c.num_followers)),
    instagram_followers: followers('instagram_followers'),
    facebook_followers: followers('facebook_followers'),
    twitter_followers: followers('twitter_followers'),
    youtube_subscribers: followers('youtube_subscribers'),
    soundcloud_followers: followers('soundcloud_followers'),
    tiktok_followers: followers('tiktok_followers'),
    cm_statistics: isObj(c.cm_statistics) ? c.cm_statistics : null,
    last_synced_at: synced === undefined ? null : isoOrNull(synced),
    suspicion_score: typeof c.suspicion_score === 'number' ? c.suspicion_score : null,
    social_urls: isObj(social) ? social : null,
    captured_at: capturedAt,
  };
}

/** GET /api/artist/{id}: figures live under cm_statistics (some answers also carry them at the top). */
export function toArtistProfile(raw: unknown, id: string, served: { capturedAt: Date; fromStore: boolean }): ResearchArtistProfile {
  const a = obj(raw);
  const stats = obj(a.cm_statistics);
  const figure = (...names: string[]) => int(first(...names.map((n) => stats[n]), ...names.map((n) => a[n])));
  return {
    id: str(first(a.id, a.cm_artist)) ?? id,
    name: str(a.name),
    image_url: str(a.image_url),
    country: str(first(a.code2, a.country)),
    sp_monthly_listeners: figure('sp_monthly_listeners'),
    sp_followers: figure('sp_followers'),
    sp_popularity: figure('sp_popularity'),
    tiktok_followers: figure('tiktok_followers'),
    ins_followers: figure('ins_followers'),
    youtube_subscribers: figure('ycs_subscribers', 'youtube_subscribers'),
    cm_statistics: isObj(a.cm_statistics) ? a.cm_statistics : null,
    data_source: served.fromStore ? 'stored' : 'provider',
    captured_at: served.capturedAt,
  };
}

function isoOrNull(v: unknown): string | null {
  const d = new Date(typeof v === 'number' || typeof v === 'string' ? v : NaN);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function toGenre(g: Obj): ResearchGenre | null {
  const id = int(first(g.id, g.tag_id));
  const name = str(first(g.name, g.tag_name));
  return id === null || name === null ? null : { id, name };
}

export function toArtistTrack(t: Obj): ResearchTrack {
  const albums = list(first(t.album_names, t.albums, t.album));
  const firstAlbum = albums[0];
  return {
    id: str(first(t.cm_track, t.id)) ?? '',
    name: str(first(t.name, t.title)) ?? '',
    isrc: str(t.isrc),
    artist_names: list(t.artist_names).length
      ? few(t.artist_names).map(str).filter((n): n is string => n !== null)
      : few(t.artists).filter(isObj).map((a) => str(a.name) ?? ''),
    album_name: isObj(firstAlbum) ? str(firstAlbum.name) : str(firstAlbum),
    release_date: str(first(list(t.release_dates)[0], t.release_date)),
    image_url: str(t.image_url),
  };
}

export function toArtistPlaylist(item: Obj, platform: string): ResearchPlaylist {
  const p = isObj(item.playlist) ? item.playlist : item;
  const t = obj(item.track);
  return {
    id: str(first(p.playlist_id, p.id)) ?? '',
    name: str(p.name) ?? '',
    platform,
    curator_id: str(first(p.curator_cm_id, p.curator_id)),
    curator_name: str(p.curator_name),
    followers: int(p.followers),
    track_name: str(t.name),
    isrc: str(t.isrc),
    position: int(first(p.position, item.position)),
    added_at: str(first(p.added_at, item.added_at, p.period_start)),
  };
}

/** Search results with platform-keyed members (playlists, curators) renamed to neutral names. */
export function neutralSearchResults(payload: unknown, curatorNames: PlatformNames, names: PlatformNames): Obj {
  const out: Obj = {};
  for (const [kind, value] of Object.entries(obj(payload))) {
    out[kind] = isObj(value) ? names.neutralKeys(curatorNames.neutralKeys(value)) : value;
  }
  return out;
}

/** platform_a search: `external_urls` of every item keyed by the neutral name. */
export function neutralPlatformSearch(payload: unknown, names: PlatformNames, types: string[]): Obj {
  const answer = obj(payload);
  const out: Obj = {};
  for (const type of types) {
    const container = answer[`${type}s`];
    if (!isObj(container)) continue;
    out[`${type}s`] = {
      ...container,
      items: list(container.items).map((item) =>
        isObj(item) && isObj(item.external_urls) ? { ...item, external_urls: names.neutralKeys(item.external_urls) } : item,
      ),
    };
  }
  return out;
}

export function toPlatformArtistsPage(container: unknown) {
  const c = obj(container);
  return {
    href: str(c.href) ?? '',
    limit: int(c.limit) ?? 0,
    next: str(c.next),
    offset: int(c.offset) ?? 0,
    previous: str(c.previous),
    total: int(c.total) ?? 0,
    items: list(c.items)
      .filter(isObj)
      .map((a) => ({
        external_urls: { platform_a: str(obj(a.external_urls).platform_a) },
        followers: { href: str(obj(a.followers).href), total: int(obj(a.followers).total) ?? 0 },
        genres: few(a.genres).map(str).filter((g): g is string => g !== null),
        href: str(a.href) ?? '',
        id: str(a.id) ?? '',
        images: few(a.images)
          .filter(isObj)
          .map((i) => ({ url: str(i.url) ?? '', height: int(i.height), width: int(i.width) })),
        name: str(a.name) ?? '',
        popularity: int(a.popularity) ?? 0,
        type: str(a.type) ?? 'artist',
        uri: str(a.uri) ?? '',
      })),
  };
}
