import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 31: a catalog entry keeps its credits as the songs page answers them.
 *
 * `catalog_songs.credits_json` is the entry's credits in credit order (credited time, then the
 * artist's name, then id), at most 50 (LIST_BOUNDS.creditsPerSong), as compact JSON objects
 * `{"id","name","timestamp"}` (timestamp: the credited time in whole epoch seconds), byte for byte
 * what JSON.stringify writes of them; `credit_count` is how many it holds. A songs page read them as
 * a subquery for each entry (about 60 % of the page's statement); it now reads the two columns.
 *
 * Triggers keep them, whatever writes (the API, a cascade, SQL by hand):
 * - insert, update or delete of credits (`catalog_song_artists`, once per statement, from its
 *   transition tables), truncate;
 * - a rename of a credited account (its name orders and fills the credits).
 *
 * Concurrency (READ COMMITTED): `refresh_song_credits` locks the entries first, by id, then reads
 * their credits in a statement of its own, so it sees the credits of every writer that held an
 * entry's lock before it: two transactions crediting one entry cannot lose each other's credit.
 * The lock is FOR NO KEY UPDATE, what the update takes anyway: FOR UPDATE would wait for the
 * FOR KEY SHARE each credit's foreign-key check holds on its entry, and two transactions crediting
 * one entry would deadlock.
 * A rename locks the account FOR UPDATE before it reads which entries credit it: that waits for a
 * transaction whose new credit of the account (its foreign-key check holds FOR KEY SHARE) is not
 * committed yet, and a credit made after waits for the rename, then reads the new name.
 */
export class Migration20261127100000_SongCredits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "catalog_songs" add column "credits_json" json not null default '[]', add column "credit_count" int not null default 0;`);
    this.addSql(`create or replace function "refresh_song_credits"(songs uuid[]) returns void language plpgsql as $$
begin
  perform 1 from "catalog_songs" where "id" = any(songs) order by "id" for no key update;
  update "catalog_songs" cs set "credits_json" = c."credits", "credit_count" = json_array_length(c."credits")
    from (select s."id",
                 ('[' || coalesce((select string_agg(row_to_json(v)::text, ',' order by k."created_at", k."name", k."id")
                                     from (select a."id", a."name", csa."created_at", floor(extract(epoch from csa."created_at"))::int as "timestamp"
                                             from "catalog_song_artists" csa join "accounts" a on a."id" = csa."artist_id"
                                            where csa."catalog_song_id" = s."id"
                                            order by csa."created_at", a."name", a."id" limit 50) k
                                    cross join lateral (select k."id", k."name", k."timestamp") v), '') || ']')::json as "credits"
            from (select distinct unnest(songs) as "id") s) c
   where cs."id" = c."id";
end $$;`);
    this.addSql(`create or replace function "catalog_song_artists_refresh_credits"() returns trigger language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform "refresh_song_credits"(array(select "catalog_song_id" from "new_credits"));
  elsif TG_OP = 'DELETE' then
    perform "refresh_song_credits"(array(select "catalog_song_id" from "old_credits"));
  elsif TG_OP = 'UPDATE' then
    perform "refresh_song_credits"(array(select "catalog_song_id" from "old_credits" union select "catalog_song_id" from "new_credits"));
  else
    update "catalog_songs" set "credits_json" = '[]', "credit_count" = 0 where "credit_count" <> 0;
  end if;
  return null;
end $$;`);
    this.addSql(`create trigger "catalog_song_artists_insert_credits" after insert on "catalog_song_artists"
      referencing new table as "new_credits" for each statement execute function "catalog_song_artists_refresh_credits"();`);
    this.addSql(`create trigger "catalog_song_artists_update_credits" after update on "catalog_song_artists"
      referencing old table as "old_credits" new table as "new_credits" for each statement execute function "catalog_song_artists_refresh_credits"();`);
    this.addSql(`create trigger "catalog_song_artists_delete_credits" after delete on "catalog_song_artists"
      referencing old table as "old_credits" for each statement execute function "catalog_song_artists_refresh_credits"();`);
    this.addSql(`create trigger "catalog_song_artists_truncate_credits" after truncate on "catalog_song_artists"
      for each statement execute function "catalog_song_artists_refresh_credits"();`);
    this.addSql(`create or replace function "accounts_refresh_credits"() returns trigger language plpgsql as $$
begin
  perform 1 from "accounts" where "id" = NEW."id" for update;
  perform "refresh_song_credits"(array(select "catalog_song_id" from "catalog_song_artists" where "artist_id" = NEW."id"));
  return null;
end $$;`);
    this.addSql(`create trigger "accounts_refresh_credits" after update of "name" on "accounts"
      for each row when (OLD."name" is distinct from NEW."name") execute function "accounts_refresh_credits"();`);
    this.addSql(`select "refresh_song_credits"(array(select distinct "catalog_song_id" from "catalog_song_artists"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "accounts_refresh_credits" on "accounts";');
    this.addSql('drop function if exists "accounts_refresh_credits"();');
    for (const op of ['insert', 'update', 'delete', 'truncate']) this.addSql(`drop trigger if exists "catalog_song_artists_${op}_credits" on "catalog_song_artists";`);
    this.addSql('drop function if exists "catalog_song_artists_refresh_credits"();');
    this.addSql('drop function if exists "refresh_song_credits"(uuid[]);');
    this.addSql('alter table "catalog_songs" drop column if exists "credits_json", drop column if exists "credit_count";');
  }
}
