import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config';
import { apiKeyHint, hashApiKey } from '../../auth/api-keys';
import type { Orm } from '../orm';
import { pgArray } from '../sql';
import { DEMO, DEMO_KEYS } from './demo.data';
import { seedResearch } from './research.seed';

type Row = Record<string, unknown>;

const pgValue = (value: unknown) => (Array.isArray(value) ? pgArray(value) : value);

/**
 * Loads the demo data set; running it again changes nothing (every row has a fixed key and is
 * inserted with ON CONFLICT DO NOTHING). Returns true when the data set was not there before.
 */
export async function seedDemo(orm: Orm, config: Config): Promise<boolean> {
  const em = orm.em.fork() as EntityManager;
  return em.transactional(async (tx) => {
    // tx.execute runs on the transaction's connection (getConnection().execute would not).
    const existed = (await tx.execute('select 1 from accounts where id = ?', [config.auth.adminOrgId])).length > 0;
    const insert = async (table: string, rows: Row[], conflict = '') => {
      for (const row of rows) {
        const cols = Object.keys(row);
        await tx.execute(
          `insert into "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) values (${cols.map(() => '?').join(', ')}) on conflict ${conflict} do nothing`,
          cols.map((c) => pgValue(row[c])),
        );
      }
    };
    const now = new Date();
    const stamp = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);
    const account = (id: string, kind: string, name: string, email: string | null, image: string | null = null) => ({
      id, kind, name, email, image, email_verified_at: email ? now : null, created_at: now, updated_at: now,
    });

    await insert('accounts', [
      account(config.auth.adminOrgId, 'organization', 'Internal Admin', null),
      account(DEMO.northwind, 'organization', 'Northwind Records', null, 'https://images.example.com/northwind.png'),
      account(DEMO.southside, 'organization', 'Southside Management', null),
      account(DEMO.ada, 'person', 'Ada Admin', 'ada@demo.test', 'https://images.example.com/ada.png'),
      account(DEMO.nora, 'person', 'Nora North', 'nora@northwind.test', 'https://images.example.com/nora.png'),
      account(DEMO.liam, 'person', 'Liam Lane', 'liam@northwind.test'),
      account(DEMO.sam, 'person', 'Sam South', 'sam@southside.test'),
      account(DEMO.otto, 'person', 'Otto Solo', 'otto@solo.test'),
      account(DEMO.luna, 'artist', 'Luna Waves', null, 'https://images.example.com/luna.png'),
      account(DEMO.owls, 'artist', 'The Midnight Owls', null),
      account(DEMO.kai, 'artist', 'Kai Rivers', null),
    ]);
    const link = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
    await insert('memberships', [
      { id: link(1), organization_id: config.auth.adminOrgId, member_id: DEMO.ada, created_at: now, updated_at: now },
      { id: link(2), organization_id: DEMO.northwind, member_id: DEMO.nora, created_at: now, updated_at: now },
      { id: link(3), organization_id: DEMO.northwind, member_id: DEMO.liam, created_at: now, updated_at: now },
      { id: link(4), organization_id: DEMO.southside, member_id: DEMO.sam, created_at: now, updated_at: now },
    ]);
    await insert('api_keys', DEMO_KEYS.map((k) => ({
      id: k.id, account_id: k.accountId, name: `demo: ${k.label}`, hint: apiKeyHint(k.raw), hash: hashApiKey(k.raw), created_at: now, updated_at: now,
    })));
    await insert('roster_entries', [
      { id: link(11), owner_id: DEMO.northwind, artist_id: DEMO.luna, created_at: now, updated_at: now },
      { id: link(12), owner_id: DEMO.northwind, artist_id: DEMO.owls, created_at: now, updated_at: now },
      { id: link(13), owner_id: DEMO.southside, artist_id: DEMO.kai, created_at: now, updated_at: now },
    ]);

    const socials = [
      { n: 21, artist: DEMO.luna, url: 'https://instagram.com/lunawaves', username: 'lunawaves', followers: 48200, following: 310, region: 'GB', bio: 'Dream-pop from Brighton.' },
      { n: 22, artist: DEMO.luna, url: 'https://tiktok.com/@lunawaves', username: 'lunawaves', followers: 120500, following: 88, region: 'GB', bio: 'new single out now' },
      { n: 23, artist: DEMO.luna, url: 'https://x.com/lunawavesmusic', username: 'lunawavesmusic', followers: 9100, following: 402, region: 'GB', bio: null },
      { n: 24, artist: DEMO.owls, url: 'https://instagram.com/midnightowls', username: 'midnightowls', followers: 15800, following: 120, region: 'US', bio: 'Late-night indie rock.' },
      { n: 25, artist: DEMO.kai, url: 'https://instagram.com/kairivers', username: 'kairivers', followers: 230400, following: 512, region: 'DE', bio: 'Producer / DJ, Berlin.' },
      { n: 26, artist: DEMO.kai, url: 'https://youtube.com/@kairivers', username: 'kairivers', followers: 88000, following: 0, region: 'DE', bio: 'Live sets every Friday.' },
    ];
    await insert('socials', socials.map((s) => ({
      id: link(s.n), account_id: s.artist, profile_url: s.url, username: s.username, avatar: `https://images.example.com/${s.username}.png`, bio: s.bio,
      follower_count: s.followers, following_count: s.following, region: s.region, created_at: now, updated_at: now,
    })), '("account_id", "profile_url")');
    await insert('account_socials', socials.map((s, i) => ({
      id: link(31 + i), account_id: s.artist, social_id: link(s.n), created_at: stamp(60 - i), updated_at: now,
    })));

    await insert('catalogs', [
      { id: DEMO.catalogNorthwind, name: 'Northwind Masters', created_at: now, updated_at: now },
      { id: DEMO.catalogShared, name: 'Shared Sync Catalog', created_at: now, updated_at: now },
      { id: DEMO.catalogKai, name: 'Kai Rivers Singles', created_at: now, updated_at: now },
    ]);
    await insert('account_catalogs', [
      { id: link(41), account_id: DEMO.northwind, catalog_id: DEMO.catalogNorthwind, created_at: now, updated_at: now },
      { id: link(42), account_id: DEMO.nora, catalog_id: DEMO.catalogNorthwind, created_at: now, updated_at: now },
      { id: link(43), account_id: DEMO.northwind, catalog_id: DEMO.catalogShared, created_at: now, updated_at: now },
      { id: link(44), account_id: DEMO.southside, catalog_id: DEMO.catalogShared, created_at: now, updated_at: now },
      { id: link(45), account_id: DEMO.southside, catalog_id: DEMO.catalogKai, created_at: now, updated_at: now },
    ]);
    const songs = [
      { isrc: 'GBNWR2400001', name: 'Tidal Lights', album: 'Shoreline', artists: [DEMO.luna], catalogs: [DEMO.catalogNorthwind, DEMO.catalogShared] },
      { isrc: 'GBNWR2400002', name: 'Paper Moons', album: 'Shoreline', artists: [DEMO.luna], catalogs: [DEMO.catalogNorthwind] },
      { isrc: 'GBNWR2400003', name: 'Salt & Static', album: 'Shoreline', artists: [DEMO.luna, DEMO.kai], catalogs: [DEMO.catalogNorthwind, DEMO.catalogShared] },
      { isrc: 'USNWR2400004', name: 'Owl Hours', album: 'After Dark', artists: [DEMO.owls], catalogs: [DEMO.catalogNorthwind] },
      { isrc: 'USNWR2400005', name: 'Neon Feathers', album: 'After Dark', artists: [DEMO.owls], catalogs: [DEMO.catalogNorthwind] },
      { isrc: 'DEKAI2400006', name: 'Spree Nights', album: null, artists: [DEMO.kai], catalogs: [DEMO.catalogKai, DEMO.catalogShared] },
      { isrc: 'DEKAI2400007', name: 'Concrete Bloom', album: null, artists: [DEMO.kai], catalogs: [DEMO.catalogKai] },
    ];
    // Each catalog holding an ISRC has its own entry (values and credits); here they start alike.
    let n = 100;
    for (const s of songs) {
      for (const c of s.catalogs) {
        await insert('catalog_songs', [{
          id: link(n++), catalog_id: c, isrc: s.isrc, name: s.name, album: s.album, lyrics: `${s.name}\n(demo lyrics)`, created_at: now, updated_at: now,
        }]);
        // The entry is found by (catalog, ISRC): a database seeded before the ownership migration has other entry ids.
        for (const a of s.artists) {
          await tx.execute(
            `insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at)
             select ?, cs.id, ?, ?, ? from catalog_songs cs where cs.catalog_id = ? and cs.isrc = ? on conflict do nothing`,
            [link(n++), a, now, now, c, s.isrc],
          );
        }
      }
    }

    await insert('agent_templates', [
      { id: DEMO.templatePublic, creator_id: DEMO.ada, title: 'Playlist pitch writer', description: 'Drafts a pitch to playlist curators for a new release.', prompt: 'Write a concise pitch for {{track}} by {{artist}} aimed at {{curator}}.', tags: ['pitching', 'playlists'], is_private: false, favorites_count: 2, created_at: now, updated_at: now },
      { id: DEMO.templatePrivate, creator_id: DEMO.nora, title: 'Release plan drafter', description: 'Builds a six-week release plan.', prompt: 'Plan the release of {{title}} over six weeks.', tags: ['release', 'planning'], is_private: true, favorites_count: 1, created_at: now, updated_at: now },
      { id: DEMO.templateShared, creator_id: DEMO.sam, title: 'Tour routing helper', description: 'Suggests a tour route from listener data.', prompt: 'Suggest a 10-date routing for {{artist}} using listener cities.', tags: ['touring'], is_private: true, favorites_count: 0, created_at: now, updated_at: now },
    ]);
    await insert('template_shares', [{ id: link(201), template_id: DEMO.templateShared, email: 'nora@northwind.test', created_at: now, updated_at: now }]);
    await insert('template_favourites', [
      { id: link(211), template_id: DEMO.templatePublic, account_id: DEMO.nora, created_at: now, updated_at: now },
      { id: link(212), template_id: DEMO.templatePublic, account_id: DEMO.sam, created_at: now, updated_at: now },
      { id: link(213), template_id: DEMO.templatePrivate, account_id: DEMO.nora, created_at: now, updated_at: now },
    ]);

    await insert('sessions', [{ id: DEMO.sessionNora, account_id: DEMO.nora, title: 'Q1 release planning', created_at: stamp(120), updated_at: now }]);
    await insert('chats', [
      { id: DEMO.chatPlan, session_id: DEMO.sessionNora, title: 'Shoreline rollout', model_id: config.sessions.defaultModelId, active_stream_id: null, last_assistant_message_at: stamp(90), last_read_at: stamp(100), created_at: stamp(110), updated_at: stamp(90) },
      { id: DEMO.chatPitch, session_id: DEMO.sessionNora, title: 'Curator pitches', model_id: null, active_stream_id: null, last_assistant_message_at: stamp(30), last_read_at: stamp(20), created_at: stamp(40), updated_at: stamp(30) },
    ]);
    await insert('chat_messages', [
      { id: link(301), chat_id: DEMO.chatPlan, role: 'user', content: 'Plan the Shoreline release for March.', created_at: stamp(100), updated_at: stamp(100) },
      { id: link(302), chat_id: DEMO.chatPlan, role: 'assistant', content: 'Week 1: announce the single and pre-save...', created_at: stamp(90), updated_at: stamp(90) },
      { id: link(303), chat_id: DEMO.chatPitch, role: 'user', content: 'Draft a pitch for Tidal Lights.', created_at: stamp(35), updated_at: stamp(35) },
      { id: link(304), chat_id: DEMO.chatPitch, role: 'assistant', content: 'Tidal Lights is a shimmering dream-pop single...', created_at: stamp(30), updated_at: stamp(30) },
    ]);
    await seedResearch(tx as EntityManager, now);
    return !existed;
  });
}
