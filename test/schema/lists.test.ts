import { buildSchema, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPlainSchema, printPlainSchema } from '../../src/graphql/schema';
import { resolvers } from '../../src/modules';
import { FixedLists, listProblems } from './lists';

/**
 * Plain lists of the graph, each with why it is not a page: a fixed set, a provider's answer of one
 * request, a list capped at write that a REST shape carries whole, or a mutation's answer. Each
 * declares its bound (maxItems). Keys name fields in camelCase.
 */
const FIXED: FixedLists = {
  // fixed sets
  'Query.compositions': 'the compositions the service can render: a fixed set',
  'AccountUsage.periods': 'one entry per period of the asked range, at most USAGE_PERIODS_MAX (168 hours or 93 days): the range is refused past it',
  'Query.researchGenres': "the provider's genre taxonomy (a fixed set), at most LIST_BOUNDS.researchGenres",
  'TrackStats.stats': 'one entry per requested source, each a known platform',
  // one provider request's answer, sized by its own limit
  'Query.discover': "one provider request's answer, at most its limit",
  'Query.researchTracks': "one provider request's answer, at most its limit",
  'Query.researchPlaylists': "one provider request's answer, at most its limit",
  'ResearchArtist.tracks': "one provider request's answer, at most its limit",
  'ResearchArtist.playlists': "one provider request's answer, at most its limit",
  'PlatformArtistResults.items': "platform_a's own result container: one request's answer, at most its limit",
  // lists nested in a provider's item: its first LIST_BOUNDS.providerItems
  'PlatformArtist.genres': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'PlatformArtist.images': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackInfo.artists': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackInfo.collaborators': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackInfo.labels': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackInfo.distributors': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackInfo.genres': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackInfo.links': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackCollaborator.roles': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'TrackStats.sourceIds': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  'ResearchTrack.artistNames': "a provider item's attribute list, its first LIST_BOUNDS.providerItems",
  // attributes capped at write
  'AgentTemplate.tags': 'capped at write (TAGS_MAX)',
  'AgentTemplate.sharedEmails': 'capped at write (SHARED_EMAILS_MAX)',
  'WebhookEndpoint.events': 'capped at write: each of the five render_run event types at most once',
  // capped at write, and carried whole by a REST shape (a page would change the REST answer)
  'Song.credits': 'capped at write (LIST_BOUNDS.creditsPerSong); the REST CatalogSong shape carries it whole as artists',
  'Song.artists': 'capped at write (LIST_BOUNDS.creditsPerSong), the same credits as Song.credits',
  'Session.chats': 'capped at write (LIST_BOUNDS.chatsPerSession); the REST SessionChatsResult shape carries it whole',
  'AccountProfile.organizations': 'the REST AccountProfile shape (GET /api/accounts/me) carries it whole',
  'AccountProfile.invitations': 'capped at write (INVITATIONS_MAX_PER_ACCOUNT); the REST AccountProfile shape carries it whole',
  // mutation answers
  'Mutation.addCatalogSongs': 'one song per posted song (itemsPerInput)',
  'Mutation.removeCatalogSongs': 'a mutation answer of the REST contract (DELETE /api/catalogs/songs)',
  'Mutation.removeCatalogs': 'a mutation answer of the REST contract (DELETE /api/catalogs)',
  'OrganizationMembership.members': 'a mutation answer of the REST contract (organization members)',
  'OrganizationMembership.invitations': 'a mutation answer of the REST contract, capped at write (INVITATIONS_MAX_PER_ORGANIZATION)',
  'MembershipRevocation.invitations': 'a mutation answer of the REST contract',
  'MembershipRevocation.catalogLinks': 'a mutation answer of the REST contract',
  'OrganizationDeletion.members': 'a mutation answer of the REST contract',
  'OrganizationDeletion.invitations': 'a mutation answer of the REST contract',
  'OrganizationDeletion.catalogLinks': 'a mutation answer of the REST contract',
  'OrganizationDeletion.deletedCatalogs': 'a mutation answer of the REST contract',
  // root lists of the REST contract, not yet pages (see the report of issue 27)
};

/**
 * Plain lists with no declared bound yet, each with why: nothing caps them where they are written
 * or read. This list may only shrink (a bounded entry is reported as stale).
 */
const UNBOUNDED: FixedLists = {
  'AccountProfile.organizations': 'an account may belong to any number of organizations',
  'AccountProfile.invitations': 'INVITATIONS_MAX_PER_ACCOUNT may be set up to 10000, so no static bound holds',
  'OrganizationMembership.members': 'an organization may have any number of members',
  'OrganizationMembership.invitations': 'INVITATIONS_MAX_PER_ORGANIZATION may be set up to 100000, so no static bound holds',
  'MembershipRevocation.invitations': 'the invitations one removal revokes: as many as the organization holds',
  'MembershipRevocation.catalogLinks': 'the catalog links one removal revokes: as many as the member holds through the organization',
  'OrganizationDeletion.members': 'an organization may have any number of members',
  'OrganizationDeletion.invitations': 'INVITATIONS_MAX_PER_ORGANIZATION may be set up to 100000',
  'OrganizationDeletion.catalogLinks': 'every catalog link of the organization',
  'OrganizationDeletion.deletedCatalogs': 'every catalog only the organization held',
  'Mutation.removeCatalogSongs': 'answers every song left in the catalogs named, and a catalog has no song cap',
  'Mutation.removeCatalogs': 'answers every catalog still linked to the accounts named (up to 500 accounts of 100 catalogs)',
};

describe('the lists of the graph (issue 27)', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildPlainSchema({ resolvers });
  });

  it('are pages of the one shape with both paging styles, or fixed lists that declare a bound and say why', () => {
    expect(listProblems(schema, FIXED, UNBOUNDED)).toEqual([]);
  });

  it('holds for the emitted schema as it is committed (schema/schema.graphql)', () => {
    // The committed SDL is the one this code emits (schema-drift.test.ts); its page types keep the shape too.
    const committed = readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8');
    expect(committed).toBe(printPlainSchema(schema));
    const pageProblems = listProblems(buildSchema(committed), {}).filter((p) => !p.includes('plain list') && !p.includes('no declared bound'));
    expect(pageProblems).toEqual([]);
  });

  it('names every page type with the one shape: items, pagination and pageInfo', () => {
    const pages = Object.values(schema.getTypeMap()).filter((t) => t.name.endsWith('Page'));
    expect(pages.map((t) => t.name).sort()).toEqual(['AccountCatalogPage', 'AgentTemplatePage', 'ApiKeyPage', 'ArtistPage', 'CatalogAccountPage', 'CatalogPage', 'OrganizationPage', 'RenderRunPage', 'SessionPage', 'SocialProfilePage', 'SongPage', 'WebhookDeliveryPage', 'WebhookEndpointPage']);
  });

  describe('fails', () => {
    const item = new GraphQLObjectType({ name: 'Item', fields: { id: { type: GraphQLString } } });
    const pagination = new GraphQLObjectType({ name: 'Pagination', fields: { totalCount: { type: GraphQLInt } } });
    const pageInfo = new GraphQLObjectType({ name: 'PageInfo', fields: { endCursor: { type: GraphQLString } } });
    const items = { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item))) };
    const goodPage = new GraphQLObjectType({ name: 'ItemPage', fields: { items, pagination: { type: pagination }, pageInfo: { type: new GraphQLNonNull(pageInfo) } } });
    const paging = { limit: { type: GraphQLInt }, page: { type: GraphQLInt }, first: { type: GraphQLInt }, after: { type: GraphQLString } };
    const schemaOf = (fields: Record<string, unknown>) => new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: fields as never }) });

    it('passes a page of the shape taking both paging styles, and a bounded fixed list', () => {
      const ok = schemaOf({ items: { type: goodPage, args: paging }, tags: { type: new GraphQLList(GraphQLString), extensions: { maxItems: 5 } } });
      expect(listProblems(ok, { 'Query.tags': 'a fixed set' })).toEqual([]);
    });

    it('on a plain list with no bound, or one not listed as fixed', () => {
      const bad = schemaOf({ names: { type: new GraphQLList(GraphQLString) }, tags: { type: new GraphQLList(GraphQLString), extensions: { maxItems: 5 } } });
      expect(listProblems(bad, {})).toEqual([
        'Query.names is a list with no declared bound (maxItems)',
        'Query.names is a plain list: make it a page, or list it as fixed with the reason',
        'Query.tags is a plain list: make it a page, or list it as fixed with the reason',
      ]);
    });

    it('on a page without cursor paging, a page type of another shape, and a stale fixed entry', () => {
      const offsetOnly = schemaOf({ items: { type: goodPage, args: { limit: paging.limit, page: paging.page } } });
      expect(listProblems(offsetOnly, { 'Query.gone': 'was here' })).toEqual([
        'Query.items answers a page but takes no first',
        'Query.items answers a page but takes no after',
        'Query.gone is listed as a fixed list but is no plain list of the schema',
      ]);
      const otherShape = new GraphQLObjectType({ name: 'OtherPage', fields: { items, limit: { type: GraphQLInt }, next: { type: GraphQLString } } });
      expect(listProblems(schemaOf({ other: { type: otherShape, args: paging } }), {})).toEqual(['OtherPage is a page type but has the fields items, limit, next, not exactly items, pagination, pageInfo']);
      const noInfo = new GraphQLObjectType({ name: 'BarePage', fields: { items, pagination: { type: pagination }, pageInfo: { type: pageInfo } } });
      expect(listProblems(schemaOf({ bare: { type: noInfo, args: paging } }), {})).toEqual(['BarePage.pageInfo is PageInfo, not PageInfo!']);
    });

    it('on an unbounded entry that declares a bound now', () => {
      const bounded = schemaOf({ tags: { type: new GraphQLList(GraphQLString), extensions: { maxItems: 5 } } });
      expect(listProblems(bounded, { 'Query.tags': 'fixed' }, { 'Query.tags': 'was unbounded' })).toEqual(['Query.tags declares a bound now: remove it from the unbounded lists']);
    });
  });
});
