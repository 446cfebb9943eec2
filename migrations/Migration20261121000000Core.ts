import { Migration } from '@mikro-orm/migrations';

/** Accounts, memberships, API keys, artists and socials, catalogs and songs, agent templates, sessions and chats. */
export class Migration20261121000000Core extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create type "account_kind" as enum ('person', 'artist', 'organization');`);
    this.addSql(`create table "accounts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kind" "account_kind" not null, "name" text not null, "email" text null, "image" text null, "external_subject" text null, constraint "accounts_pkey" primary key ("id"));`);
    this.addSql(`alter table "accounts" add constraint "accounts_email_unique" unique ("email");`);
    this.addSql(`alter table "accounts" add constraint "accounts_external_subject_unique" unique ("external_subject");`);
    this.addSql(`create table "agent_templates" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "creator_id" uuid not null, "title" text not null, "description" text not null, "prompt" text not null, "tags" text[] not null, "is_private" boolean not null default false, "favorites_count" int not null default 0, constraint "agent_templates_pkey" primary key ("id"));`);
    this.addSql(`create index "agent_templates_public_idx" on "agent_templates" ("title") where "is_private" = false;`);
    this.addSql(`alter table "agent_templates" add constraint "agent_templates_creator_title_unique" unique ("creator_id", "title");`);
    this.addSql(`create table "api_keys" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" uuid not null, "name" text not null, "hint" text not null, "hash" text not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`create index "api_keys_account_idx" on "api_keys" ("account_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_hash_unique" unique ("hash");`);
    this.addSql(`create table "catalogs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" text not null, constraint "catalogs_pkey" primary key ("id"));`);
    this.addSql(`create table "account_catalogs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" uuid not null, "catalog_id" uuid not null, constraint "account_catalogs_pkey" primary key ("id"));`);
    this.addSql(`create index "account_catalogs_catalog_idx" on "account_catalogs" ("catalog_id");`);
    this.addSql(`alter table "account_catalogs" add constraint "account_catalogs_account_catalog_unique" unique ("account_id", "catalog_id");`);
    this.addSql(`create table "memberships" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "member_id" uuid not null, constraint "memberships_pkey" primary key ("id"));`);
    this.addSql(`create index "memberships_member_idx" on "memberships" ("member_id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_org_member_unique" unique ("organization_id", "member_id");`);
    this.addSql(`create table "roster_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "owner_id" uuid not null, "artist_id" uuid not null, constraint "roster_entries_pkey" primary key ("id"));`);
    this.addSql(`create index "roster_artist_idx" on "roster_entries" ("artist_id");`);
    this.addSql(`alter table "roster_entries" add constraint "roster_owner_artist_unique" unique ("owner_id", "artist_id");`);
    this.addSql(`create table "sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" uuid not null, "title" text not null, constraint "sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "sessions_account_idx" on "sessions" ("account_id");`);
    this.addSql(`create table "chats" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "session_id" uuid not null, "title" text not null, "model_id" text null, "active_stream_id" text null, "last_assistant_message_at" timestamptz null, "last_read_at" timestamptz null, constraint "chats_pkey" primary key ("id"));`);
    this.addSql(`create index "chats_session_created_idx" on "chats" ("session_id", "created_at");`);
    this.addSql(`create table "chat_messages" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "chat_id" uuid not null, "role" text not null, "content" text not null, constraint "chat_messages_pkey" primary key ("id"));`);
    this.addSql(`create index "chat_messages_chat_created_idx" on "chat_messages" ("chat_id", "created_at");`);
    this.addSql(`create table "socials" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "profile_url" text not null, "username" text not null, "avatar" text null, "bio" text null, "follower_count" int null, "following_count" int null, "region" text null, constraint "socials_pkey" primary key ("id"));`);
    this.addSql(`alter table "socials" add constraint "socials_profile_url_unique" unique ("profile_url");`);
    this.addSql(`create table "account_socials" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" uuid not null, "social_id" uuid not null, constraint "account_socials_pkey" primary key ("id"));`);
    this.addSql(`create index "account_socials_social_idx" on "account_socials" ("social_id");`);
    this.addSql(`alter table "account_socials" add constraint "account_socials_account_social_unique" unique ("account_id", "social_id");`);
    this.addSql(`create table "songs" ("isrc" text not null, "name" text not null, "album" text null, "lyrics" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "songs_pkey" primary key ("isrc"));`);
    this.addSql(`create table "catalog_songs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "catalog_id" uuid not null, "song_isrc" text not null, constraint "catalog_songs_pkey" primary key ("id"));`);
    this.addSql(`create index "catalog_songs_song_idx" on "catalog_songs" ("song_isrc");`);
    this.addSql(`alter table "catalog_songs" add constraint "catalog_songs_catalog_song_unique" unique ("catalog_id", "song_isrc");`);
    this.addSql(`create table "song_artists" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "song_isrc" text not null, "artist_id" uuid not null, constraint "song_artists_pkey" primary key ("id"));`);
    this.addSql(`create index "song_artists_artist_idx" on "song_artists" ("artist_id");`);
    this.addSql(`alter table "song_artists" add constraint "song_artists_song_artist_unique" unique ("song_isrc", "artist_id");`);
    this.addSql(`create table "template_favourites" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "template_id" uuid not null, "account_id" uuid not null, constraint "template_favourites_pkey" primary key ("id"));`);
    this.addSql(`create index "template_favourites_account_idx" on "template_favourites" ("account_id");`);
    this.addSql(`alter table "template_favourites" add constraint "template_favourites_template_account_unique" unique ("template_id", "account_id");`);
    this.addSql(`create table "template_shares" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "template_id" uuid not null, "email" text not null, constraint "template_shares_pkey" primary key ("id"));`);
    this.addSql(`create index "template_shares_email_idx" on "template_shares" ("email");`);
    this.addSql(`alter table "template_shares" add constraint "template_shares_template_email_unique" unique ("template_id", "email");`);
    this.addSql(`alter table "agent_templates" add constraint "agent_templates_creator_id_foreign" foreign key ("creator_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "account_catalogs" add constraint "account_catalogs_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "account_catalogs" add constraint "account_catalogs_catalog_id_foreign" foreign key ("catalog_id") references "catalogs" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "memberships" add constraint "memberships_organization_id_foreign" foreign key ("organization_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "memberships" add constraint "memberships_member_id_foreign" foreign key ("member_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "roster_entries" add constraint "roster_entries_owner_id_foreign" foreign key ("owner_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "roster_entries" add constraint "roster_entries_artist_id_foreign" foreign key ("artist_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sessions" add constraint "sessions_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "chats" add constraint "chats_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "chat_messages" add constraint "chat_messages_chat_id_foreign" foreign key ("chat_id") references "chats" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "account_socials" add constraint "account_socials_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "account_socials" add constraint "account_socials_social_id_foreign" foreign key ("social_id") references "socials" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "catalog_songs" add constraint "catalog_songs_catalog_id_foreign" foreign key ("catalog_id") references "catalogs" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "catalog_songs" add constraint "catalog_songs_song_isrc_foreign" foreign key ("song_isrc") references "songs" ("isrc") on update cascade on delete cascade;`);
    this.addSql(`alter table "song_artists" add constraint "song_artists_song_isrc_foreign" foreign key ("song_isrc") references "songs" ("isrc") on update cascade on delete cascade;`);
    this.addSql(`alter table "song_artists" add constraint "song_artists_artist_id_foreign" foreign key ("artist_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "template_favourites" add constraint "template_favourites_template_id_foreign" foreign key ("template_id") references "agent_templates" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "template_favourites" add constraint "template_favourites_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "template_shares" add constraint "template_shares_template_id_foreign" foreign key ("template_id") references "agent_templates" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'chat_messages', 'chats', 'sessions', 'template_favourites', 'template_shares', 'agent_templates',
      'catalog_songs', 'song_artists', 'songs', 'account_catalogs', 'catalogs', 'account_socials', 'socials',
      'roster_entries', 'api_keys', 'memberships', 'accounts',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql('drop type if exists "account_kind";');
  }
}
