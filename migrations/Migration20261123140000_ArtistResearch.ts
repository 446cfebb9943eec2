import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 15: the research provider's artist behind a roster artist, set explicitly or found once by
 * name (research_id null with match 'search' records "searched, nothing found").
 */
export class Migration20261123140000_ArtistResearch extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "artist_research_links" ("artist_id" uuid not null, "research_id" text null, "research_match" text not null, "matched_at" timestamptz not null, constraint "artist_research_links_pkey" primary key ("artist_id"), constraint "artist_research_links_match_check" check ("research_match" in ('explicit', 'search')));`,
    );
    this.addSql(`alter table "artist_research_links" add constraint "artist_research_links_artist_id_foreign" foreign key ("artist_id") references "accounts" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "artist_research_links" cascade;');
  }
}
