/**
 * Bounds on lists that grow with writes (issue 30). Each per-parent cap is enforced when a write
 * would pass it (a 400 naming the field) and again as the SQL LIMIT of the list's read, and the
 * graph declares it on the list's field (`@Extensions(maxItems(n))`) so the cost model weighs the
 * list by it. Settings (CATALOG_MAX_ARTISTS_PER_SONG) may lower a cap, never raise it past these.
 */
export const LIST_BOUNDS = {
  /** Items of one page (`XPage.items`) when the page field is given no `limit`: every page's default (its maximum is 100). */
  pageItems: 20,
  /** Artists credited on one catalog song (Song.credits, Song.artists). */
  creditsPerSong: 50,
  /** Catalogs linked to one account (Query.catalogs, GET /api/catalogs). */
  catalogsPerAccount: 100,
  /** Accounts linked to one catalog (Catalog.accounts). */
  accountsPerCatalog: 50,
  /** Catalogs Artist.catalogs and Song.catalogs return at most (their `limit` argument's maximum; its default is 20). */
  catalogsPerList: 100,
  /** Social profiles of one artist (paged: Artist.socials, GET /api/artists/{id}/socials). */
  socialsPerArtist: 500,
  /** Sessions of one account (Query.sessions). */
  sessionsPerAccount: 500,
  /** Chats of one session (Session.chats, GET /api/sessions/{id}/chats). */
  chatsPerSession: 200,
  /**
   * Items of a list nested in a provider's answer (a track's artists, collaborators, labels,
   * distributors, genres, links and source ids; a collaborator's roles; a platform artist's genres
   * and images): the first ones as the provider orders them.
   */
  providerItems: 100,
  /** Genres Query.researchGenres answers (the provider's genre list, which is a fixed taxonomy), in the provider's order. */
  researchGenres: 1000,
  /** API keys Query.apiKeys answers, newest first, revoked ones included (unrevoked keys are capped at 25 by the key service). */
  apiKeysListed: 100,
} as const;

/**
 * Field extension declaring the most items a list field answers when the operation gives it no
 * `limit`: its hard bound, or, for a field with a `limit` argument, that argument's default. The
 * cost model (src/graphql/cost.ts) weighs the list by its `limit` when given, else by this.
 */
export const maxItems = (n: number) => ({ maxItems: n }) as const;

/** Field extension of a mutation answering one item per member of its input's array `member` (`addCatalogSongs`: one song per posted song). */
export const itemsPerInput = (member: string, max: number) => ({ maxItems: max, itemsPerInput: member }) as const;
