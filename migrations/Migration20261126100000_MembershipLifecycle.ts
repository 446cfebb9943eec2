import { Migration } from '@mikro-orm/migrations';

/**
 * Issues 24 and 30: what a membership granted ends with it, and an address is only matched once
 * it was proven.
 * - An invitation made by a member hangs on that member's membership (`inviter_membership_id`,
 *   cascade): removed, left or deleted with the organization, the invitations he made go with it.
 *   Invitations whose inviter is no longer a member (or was deleted) are dropped now.
 * - A catalog link made through a membership (a member linking the organization's catalog to his
 *   own account, or his catalog to the organization) hangs on it (`account_catalogs.membership_id`,
 *   cascade). Existing links cannot say who made them; a link of an organization's catalog to one
 *   of its current members, made after the organization's own, is taken as made through that
 *   membership.
 * - A catalog left with no linked account is deleted, whatever removed its last link (a cascade
 *   included), as DELETE /api/catalogs always did.
 * - `accounts.email_verified_at`: when the address was proven (a mailed code, or an identity
 *   provider's verified e-mail). `agent+` signups have none; other existing addresses were proven.
 */
export class Migration20261126100000_MembershipLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "organization_invitations" add column "inviter_membership_id" uuid null;`);
    this.addSql(`update "organization_invitations" i set "inviter_membership_id" = m."id" from "memberships" m
      where m."organization_id" = i."organization_id" and m."member_id" = i."invited_by_id";`);
    this.addSql(`delete from "organization_invitations" where "inviter_membership_id" is null and "invited_by_id" is distinct from "organization_id";`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_inviter_membership_id_foreign" foreign key ("inviter_membership_id") references "memberships" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "organization_invitations_inviter_membership_idx" on "organization_invitations" ("inviter_membership_id");`);

    this.addSql(`alter table "account_catalogs" add column "membership_id" uuid null;`);
    this.addSql(`update "account_catalogs" ac set "membership_id" = (
        select m."id" from "account_catalogs" org_link join "memberships" m on m."organization_id" = org_link."account_id" and m."member_id" = ac."account_id"
         where org_link."catalog_id" = ac."catalog_id" and org_link."created_at" < ac."created_at" order by org_link."created_at" limit 1)
      where exists (select 1 from "account_catalogs" org_link join "memberships" m on m."organization_id" = org_link."account_id" and m."member_id" = ac."account_id"
         where org_link."catalog_id" = ac."catalog_id" and org_link."created_at" < ac."created_at");`);
    this.addSql(`alter table "account_catalogs" add constraint "account_catalogs_membership_id_foreign" foreign key ("membership_id") references "memberships" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "account_catalogs_membership_idx" on "account_catalogs" ("membership_id");`);
    this.addSql(`create or replace function "drop_unlinked_catalog"() returns trigger language plpgsql as $$
begin
  -- Locks the catalog as DELETE /api/catalogs does, so two removals of its last links cannot both leave it behind.
  perform 1 from "catalogs" where "id" = OLD."catalog_id" for update;
  delete from "catalogs" c where c."id" = OLD."catalog_id" and not exists (select 1 from "account_catalogs" ac where ac."catalog_id" = OLD."catalog_id");
  return null;
end $$;`);
    this.addSql(`create trigger "account_catalogs_drop_unlinked" after delete on "account_catalogs" for each row execute function "drop_unlinked_catalog"();`);

    this.addSql(`alter table "accounts" add column "email_verified_at" timestamptz null;`);
    this.addSql(`update "accounts" set "email_verified_at" = "created_at" where "email" is not null and split_part("email", '@', 1) not like 'agent+%';`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "accounts" drop column if exists "email_verified_at";');
    this.addSql('drop trigger if exists "account_catalogs_drop_unlinked" on "account_catalogs";');
    this.addSql('drop function if exists "drop_unlinked_catalog"();');
    this.addSql('alter table "account_catalogs" drop column if exists "membership_id";');
    this.addSql('alter table "organization_invitations" drop column if exists "inviter_membership_id";');
  }
}
