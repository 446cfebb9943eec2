import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 11: adding someone to an organization invites them; the invitation grants no reach until
 * the invited account accepts it (then it becomes a row of `memberships`).
 */
export class Migration20261123130000_Invitations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "organization_invitations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "account_id" uuid not null, "invited_by_id" uuid null, constraint "organization_invitations_pkey" primary key ("id"));`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_org_account_unique" unique ("organization_id", "account_id");`);
    this.addSql(`create index "organization_invitations_account_idx" on "organization_invitations" ("account_id");`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_organization_id_foreign" foreign key ("organization_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_invited_by_id_foreign" foreign key ("invited_by_id") references "accounts" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "organization_invitations" cascade;');
  }
}
