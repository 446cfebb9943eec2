import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 11, ownership of rows a tenant writes. Song data (name, album, lyrics, updated_at) and
 * credits move from the global `songs` / `song_artists` rows onto each catalog entry, so posting
 * an ISRC into one catalog never changes what another catalog shows; every entry holding an ISRC
 * gets today's global values and credits (credit times kept). Social profiles get an owning
 * artist account and are unique per artist and URL: a profile linked to several accounts today is
 * copied so each account keeps its own (same values, same link id).
 */
export class Migration20261123100000_Ownership extends Migration {
  override async up(): Promise<void> {
    // Songs → catalog entries.
    this.addSql(`alter table "catalog_songs" drop constraint "catalog_songs_song_isrc_foreign";`);
    this.addSql(`alter table "catalog_songs" rename column "song_isrc" to "isrc";`);
    this.addSql(`alter table "catalog_songs" rename constraint "catalog_songs_catalog_song_unique" to "catalog_songs_catalog_isrc_unique";`);
    this.addSql(`alter index "catalog_songs_song_idx" rename to "catalog_songs_isrc_idx";`);
    this.addSql(`alter table "catalog_songs" add column "name" text null, add column "album" text null, add column "lyrics" text null;`);
    this.addSql(`update "catalog_songs" cs set "name" = s."name", "album" = s."album", "lyrics" = s."lyrics", "updated_at" = s."updated_at" from "songs" s where s."isrc" = cs."isrc";`);
    this.addSql(`alter table "catalog_songs" alter column "name" set not null;`);
    this.addSql(`create table "catalog_song_artists" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "catalog_song_id" uuid not null, "artist_id" uuid not null, constraint "catalog_song_artists_pkey" primary key ("id"));`);
    this.addSql(`alter table "catalog_song_artists" add constraint "catalog_song_artists_entry_artist_unique" unique ("catalog_song_id", "artist_id");`);
    this.addSql(`create index "catalog_song_artists_artist_idx" on "catalog_song_artists" ("artist_id");`);
    this.addSql(`alter table "catalog_song_artists" add constraint "catalog_song_artists_catalog_song_id_foreign" foreign key ("catalog_song_id") references "catalog_songs" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "catalog_song_artists" add constraint "catalog_song_artists_artist_id_foreign" foreign key ("artist_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`insert into "catalog_song_artists" ("id", "created_at", "updated_at", "catalog_song_id", "artist_id")
      select gen_random_uuid(), sa."created_at", sa."updated_at", cs."id", sa."artist_id"
        from "catalog_songs" cs join "song_artists" sa on sa."song_isrc" = cs."isrc";`);
    // Songs no catalog holds belonged to no one and were shown nowhere but song(isrc).
    this.addSql(`drop table "song_artists";`);
    this.addSql(`drop table "songs";`);

    // Socials → owned by one artist account.
    this.addSql(`alter table "socials" drop constraint "socials_profile_url_unique";`);
    this.addSql(`with "extra" as materialized (
        select l."id" as "link_id", l."social_id", gen_random_uuid() as "new_id"
          from (select "id", "social_id", row_number() over (partition by "social_id" order by "created_at", "id") as "rn" from "account_socials") l
         where l."rn" > 1),
      "copied" as (
        insert into "socials" ("id", "created_at", "updated_at", "profile_url", "username", "avatar", "bio", "follower_count", "following_count", "region")
        select e."new_id", s."created_at", s."updated_at", s."profile_url", s."username", s."avatar", s."bio", s."follower_count", s."following_count", s."region"
          from "extra" e join "socials" s on s."id" = e."social_id")
      update "account_socials" l set "social_id" = e."new_id" from "extra" e where l."id" = e."link_id";`);
    this.addSql(`alter table "socials" add column "account_id" uuid null;`);
    this.addSql(`update "socials" s set "account_id" = l."account_id" from "account_socials" l where l."social_id" = s."id";`);
    this.addSql(`delete from "socials" where "account_id" is null;`);
    this.addSql(`alter table "socials" alter column "account_id" set not null;`);
    this.addSql(`alter table "socials" add constraint "socials_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "socials" add constraint "socials_account_profile_url_unique" unique ("account_id", "profile_url");`);
    this.addSql(`drop index "account_socials_social_idx";`);
    this.addSql(`alter table "account_socials" add constraint "account_socials_social_unique" unique ("social_id");`);
  }

  override async down(): Promise<void> {
    // Back to one global row per ISRC and URL: where entries differ, the most recently updated wins.
    this.addSql(`alter table "account_socials" drop constraint "account_socials_social_unique";`);
    this.addSql(`create index "account_socials_social_idx" on "account_socials" ("social_id");`);
    this.addSql(`with "keep" as (select distinct on ("profile_url") "profile_url", "id" from "socials" order by "profile_url", "updated_at" desc, "id")
      update "account_socials" l set "social_id" = k."id" from "socials" s join "keep" k on k."profile_url" = s."profile_url" where l."social_id" = s."id" and s."id" <> k."id";`);
    this.addSql(`delete from "socials" s where not exists (select 1 from "account_socials" l where l."social_id" = s."id");`);
    this.addSql(`alter table "socials" drop constraint "socials_account_profile_url_unique";`);
    this.addSql(`alter table "socials" drop column "account_id";`);
    this.addSql(`alter table "socials" add constraint "socials_profile_url_unique" unique ("profile_url");`);

    this.addSql(`create table "songs" ("isrc" text not null, "name" text not null, "album" text null, "lyrics" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "songs_pkey" primary key ("isrc"));`);
    this.addSql(`insert into "songs" select distinct on ("isrc") "isrc", "name", "album", "lyrics", "created_at", "updated_at" from "catalog_songs" order by "isrc", "updated_at" desc, "catalog_id";`);
    this.addSql(`create table "song_artists" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "song_isrc" text not null, "artist_id" uuid not null, constraint "song_artists_pkey" primary key ("id"));`);
    this.addSql(`insert into "song_artists" select gen_random_uuid(), min(a."created_at"), max(a."updated_at"), cs."isrc", a."artist_id" from "catalog_song_artists" a join "catalog_songs" cs on cs."id" = a."catalog_song_id" group by cs."isrc", a."artist_id";`);
    this.addSql(`create index "song_artists_artist_idx" on "song_artists" ("artist_id");`);
    this.addSql(`alter table "song_artists" add constraint "song_artists_song_artist_unique" unique ("song_isrc", "artist_id");`);
    this.addSql(`alter table "song_artists" add constraint "song_artists_song_isrc_foreign" foreign key ("song_isrc") references "songs" ("isrc") on update cascade on delete cascade;`);
    this.addSql(`alter table "song_artists" add constraint "song_artists_artist_id_foreign" foreign key ("artist_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`drop table "catalog_song_artists";`);
    this.addSql(`alter table "catalog_songs" drop column "name", drop column "album", drop column "lyrics";`);
    this.addSql(`alter index "catalog_songs_isrc_idx" rename to "catalog_songs_song_idx";`);
    this.addSql(`alter table "catalog_songs" rename constraint "catalog_songs_catalog_isrc_unique" to "catalog_songs_catalog_song_unique";`);
    this.addSql(`alter table "catalog_songs" rename column "isrc" to "song_isrc";`);
    this.addSql(`alter table "catalog_songs" add constraint "catalog_songs_song_isrc_foreign" foreign key ("song_isrc") references "songs" ("isrc") on update cascade on delete cascade;`);
  }
}
