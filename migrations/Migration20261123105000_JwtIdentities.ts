import { Migration } from '@mikro-orm/migrations';

/**
 * Identity-provider identities: a token's (issuer, subject) bound to one account. Replaces
 * accounts.external_subject ("iss|sub", one per account), whose rows move over.
 */
export class Migration20261123105000_JwtIdentities extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "account_identities" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "account_id" uuid not null,
      "issuer" text not null,
      "subject" text not null,
      constraint "account_identities_pkey" primary key ("id")
    );`);
    this.addSql(`alter table "account_identities" add constraint "account_identities_issuer_subject_unique" unique ("issuer", "subject");`);
    this.addSql(`create index "account_identities_account_idx" on "account_identities" ("account_id");`);
    this.addSql(`alter table "account_identities" add constraint "account_identities_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);
    // The old value is "<iss>|<sub>"; issuers are URLs, so the first "|" ends the issuer.
    this.addSql(`insert into "account_identities" ("id", "created_at", "updated_at", "account_id", "issuer", "subject")
      select gen_random_uuid(), now(), now(), "id", split_part("external_subject", '|', 1), substr("external_subject", strpos("external_subject", '|') + 1)
        from "accounts" where strpos(coalesce("external_subject", ''), '|') > 0;`);
    this.addSql(`alter table "accounts" drop constraint "accounts_external_subject_unique";`);
    this.addSql(`alter table "accounts" drop column "external_subject";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "accounts" add column "external_subject" text null;`);
    this.addSql(`alter table "accounts" add constraint "accounts_external_subject_unique" unique ("external_subject");`);
    this.addSql(`update "accounts" a set "external_subject" = i."issuer" || '|' || i."subject"
      from (select distinct on ("account_id") "account_id", "issuer", "subject" from "account_identities" order by "account_id", "created_at") i
     where i."account_id" = a."id";`);
    this.addSql(`drop table "account_identities";`);
  }
}
