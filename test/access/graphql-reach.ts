import { keys } from '../../src/modules/research/research.keys';
import type { CaseName, Situation } from './registry';
import { made } from './support';

/**
 * GRAPHQL REACH MATRIX (issue 11): the rows a natural key names (an ISRC, an id in an entity
 * reference, a profile URL) × every access case of the REST matrix. access-matrix.int.test.ts
 * runs every entry of READS and WRITES below for every case.
 *
 * Each case names the owner of the rows it asks for: Alice herself (own and credential cases),
 * Bob (same organization: reachable), Carol (another organization: hidden; Dave, the admin, sees
 * her rows), organization B (the non-member case: hidden). Rows are made once per owner, by a
 * member acting for it: a catalog linked to the owner holding a song with an ISRC of its own and
 * confidential lyrics, crediting an artist on the roster of the owner's organization, which has a
 * social profile.
 */
export type Owner = 'alice' | 'bob' | 'carol' | 'orgB';

export interface OwnedRows {
  owner: Owner;
  /** Credentials of the member who made the rows (and reads them back). */
  ownerHeaders: Record<string, string>;
  catalogId: string;
  catalogName: string;
  isrc: string;
  songName: string;
  lyrics: string;
  artistId: string;
  artistName: string;
  profileUrl: string;
}

const OWNER_OF: Record<CaseName, Owner> = {
  'no credentials': 'alice',
  'malformed key': 'alice',
  'revoked key': 'alice',
  'expired JWT': 'alice',
  'wrong audience': 'alice',
  'wrong issuer': 'alice',
  'alg none': 'alice',
  'HS256-signed': 'alice',
  'no exp': 'alice',
  'both headers': 'alice',
  'own account': 'alice',
  'own account via JWT': 'alice',
  'same-org account_id': 'bob',
  'other-org account_id': 'carol',
  'admin account_id': 'carol',
  'non-member organization_id': 'orgB',
};

export const ownerOf = (name: CaseName): Owner => OWNER_OF[name];

/** Whether the case's caller reaches the owner's rows (credential cases are refused before that). */
export const reaches = (name: CaseName): boolean => ['own account', 'own account via JWT', 'same-org account_id', 'admin account_id'].includes(name);

const CODES: Record<Owner, string> = { alice: 'ALI', bob: 'BOB', carol: 'CAR', orgB: 'ORB' };

/** The owner's rows, made once per matrix run. */
export function rowsOf(s: Situation, owner: Owner): Promise<OwnedRows> {
  return s.once(`graphql-reach:rows:${owner}`, async () => {
    const { world } = s;
    const actor = { alice: world.alice, bob: world.bob, carol: world.carol, orgB: world.carol }[owner];
    const accountId = owner === 'orgB' ? world.orgB : actor.account.id;
    const organizationId = owner === 'carol' || owner === 'orgB' ? world.orgB : world.orgA;
    const http = () => s.t.http();
    const rows = {
      owner,
      ownerHeaders: actor.headers,
      catalogName: `Reach catalog ${owner}`,
      isrc: `QZ${CODES[owner]}2600001`,
      songName: `Reach song ${owner}`,
      lyrics: `unreleased lyrics of ${owner}`,
      artistName: `Reach artist ${owner}`,
      profileUrl: `https://social.example.test/reach-${owner}`,
    };
    const catalog = await http().post('/api/catalogs').set(actor.headers).send({ name: rows.catalogName, account_id: accountId });
    const catalogId = (await made<{ catalog: { id: string } }>('POST /api/catalogs', catalog)).catalog.id;
    const artist = await http().post('/api/artists').set(actor.headers).send({ name: rows.artistName, organization_id: organizationId });
    const artistId = (await made<{ artist: { id: string } }>('POST /api/artists', artist)).artist.id;
    const song = await http()
      .post('/api/catalogs/songs')
      .set(actor.headers)
      .send({ songs: [{ catalog_id: catalogId, isrc: rows.isrc, name: rows.songName, lyrics: rows.lyrics, artists: [rows.artistName] }] });
    const credited = (await made<{ songs: { artists: { id: string }[] }[] }>('POST /api/catalogs/songs', song)).songs[0].artists.map((a) => a.id);
    if (credited.join() !== artistId) throw new Error(`setup: the song of ${owner} credits ${credited.join()}, not ${artistId}`);
    const social = await http().post(`/api/artists/${artistId}/socials`).set(actor.headers).send({ profile_url: rows.profileUrl, username: `reach_${owner}`, follower_count: 7 });
    await made('POST /api/artists/:id/socials', social);
    return { ...rows, catalogId, artistId };
  });
}

export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
  /** Send the router's shared secret (_entities). */
  router?: boolean;
}

export interface ReachRead {
  request(rows: OwnedRows): GraphqlRequest;
  /** The answer's value for the row (null when absent). */
  pick(data: Record<string, unknown> | null | undefined): unknown;
  /** What a caller who reaches the row gets. */
  visible(rows: OwnedRows): unknown;
  /** What a caller who does not reach it gets: null (an entity, a list without it) and, for root fields, this error code. */
  hiddenCode?: 'NOT_FOUND' | 'FORBIDDEN';
  /** Data the read needs besides the owned rows (made once per owner). */
  prepare?(s: Situation, rows: OwnedRows): Promise<void>;
}

/** A research artist per owner whose one track carries the owner's ISRC (a stored provider answer: public data). */
const RESEARCH_ARTIST: Record<Owner, string> = { alice: '9800001', bob: '9800002', carol: '9800003', orgB: '9800004' };

const SONG_FIELDS = 'isrc name lyrics artists { id } catalogs { items { id } }';
const entity = (typename: string, key: Record<string, string>, fields: string): GraphqlRequest => ({
  query: `query($r: [_Any!]!) { _entities(representations: $r) { ... on ${typename} { ${fields} } } }`,
  variables: { r: [{ __typename: typename, ...key }] },
  router: true,
});
const first = (data: Record<string, unknown> | null | undefined) => (data?._entities as unknown[] | undefined)?.[0] ?? null;
const songOf = (r: OwnedRows) => ({ isrc: r.isrc, name: r.songName, lyrics: r.lyrics, artists: [{ id: r.artistId }], catalogs: { items: [{ id: r.catalogId }] } });

export const READS: Record<string, ReachRead> = {
  'Query.song(isrc)': {
    request: (r) => ({ query: `query($isrc: String!) { song(isrc: $isrc) { ${SONG_FIELDS} } }`, variables: { isrc: r.isrc.toLowerCase() } }),
    pick: (data) => data?.song ?? null,
    visible: songOf,
    hiddenCode: 'NOT_FOUND',
  },
  '_entities Song(isrc)': {
    request: (r) => entity('Song', { isrc: r.isrc }, SONG_FIELDS),
    pick: first,
    visible: songOf,
  },
  'Query.catalog(id)': {
    request: (r) => ({ query: 'query($id: ID!) { catalog(id: $id) { id songs { items { isrc lyrics } } } }', variables: { id: r.catalogId } }),
    pick: (data) => data?.catalog ?? null,
    visible: (r) => ({ id: r.catalogId, songs: { items: [{ isrc: r.isrc, lyrics: r.lyrics }] } }),
    hiddenCode: 'FORBIDDEN',
  },
  '_entities Catalog(id)': {
    request: (r) => entity('Catalog', { id: r.catalogId }, 'id name songs { items { isrc lyrics } }'),
    pick: first,
    visible: (r) => ({ id: r.catalogId, name: r.catalogName, songs: { items: [{ isrc: r.isrc, lyrics: r.lyrics }] } }),
  },
  'Query.artist(id)': {
    request: (r) => ({ query: 'query($id: ID!) { artist(id: $id) { id songs { items { isrc lyrics } } socials { items { profile_url: profileUrl } } } }', variables: { id: r.artistId } }),
    pick: (data) => data?.artist ?? null,
    visible: (r) => ({ id: r.artistId, songs: { items: [{ isrc: r.isrc, lyrics: r.lyrics }] }, socials: { items: [{ profile_url: r.profileUrl }] } }),
    hiddenCode: 'FORBIDDEN',
  },
  // Provider data names an ISRC; the link back to a catalog song must follow the caller's reach, never the ISRC alone.
  'ResearchTrack.song': {
    prepare: (s, r) =>
      s.once(`graphql-reach:research-track:${r.owner}`, async () => {
        const track = { cm_track: Number(RESEARCH_ARTIST[r.owner]) * 10, name: r.songName, isrc: r.isrc, artist_names: [r.artistName] };
        await s.t.orm.em.getConnection().execute(
          `insert into research_answers (id, created_at, updated_at, kind, key, source, payload, captured_at)
           values (gen_random_uuid(), now(), now(), 'artist_tracks', ?, 'music_intel', ?::jsonb, now()) on conflict (kind, key) do nothing`,
          [keys.artistTracks(RESEARCH_ARTIST[r.owner], 20, 0), JSON.stringify([track])],
        );
      }),
    request: (r) => ({
      query: 'query($id: ID!) { researchArtist(id: $id) { tracks { isrc song { isrc name lyrics } } } }',
      variables: { id: RESEARCH_ARTIST[r.owner] },
    }),
    pick: (data) => ((data?.researchArtist as { tracks?: { song: unknown }[] } | null)?.tracks?.[0]?.song ?? null),
    visible: (r) => ({ isrc: r.isrc, name: r.songName, lyrics: r.lyrics }),
  },
  '_entities Artist(id)': {
    request: (r) => entity('Artist', { id: r.artistId }, 'id name songs { items { isrc lyrics } } socials { items { profile_url: profileUrl follower_count: followerCount } }'),
    pick: first,
    visible: (r) => ({ id: r.artistId, name: r.artistName, songs: { items: [{ isrc: r.isrc, lyrics: r.lyrics }] }, socials: { items: [{ profile_url: r.profileUrl, follower_count: 7 }] } }),
  },
};

/**
 * Writes by natural key: the caller writes the owner's ISRC into a catalog of its own and the
 * owner's profile URL onto an artist of its own. Whoever the caller is (the owner included, and
 * the admin), the owner's rows must read exactly as before.
 */
export interface Scratch {
  catalogId: string;
  artistId: string;
}

/** A catalog and an artist of the caller's own, apart from any owned rows (made once per caller). */
export function scratchOf(s: Situation, headers: Record<string, string>): Promise<Scratch> {
  return s.once(`graphql-reach:scratch:${s.callerId}`, async () => {
    const catalog = await s.t.http().post('/api/catalogs').set(headers).send({ name: `Scratch ${s.unique}` });
    const artist = await s.t.http().post('/api/artists').set(headers).send({ name: `Scratch artist ${s.unique}` });
    return {
      catalogId: (await made<{ catalog: { id: string } }>('POST /api/catalogs', catalog)).catalog.id,
      artistId: (await made<{ artist: { id: string } }>('POST /api/artists', artist)).artist.id,
    };
  });
}
