import { Migration } from '@mikro-orm/migrations';

/** E-mail verification codes (hashed, single use) and signup attempts (per-address and per-IP limits). */
export class Migration20261121010000_Onboarding extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "verification_codes" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "email" text not null, "code_hash" text not null, "expires_at" timestamptz not null, "attempts" int not null default 0, "used_at" timestamptz null, constraint "verification_codes_pkey" primary key ("id"));`);
    this.addSql(`create index "verification_codes_email_idx" on "verification_codes" ("email", "created_at");`);
    this.addSql(`create table "signup_attempts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "ip" text not null, "email" text not null, constraint "signup_attempts_pkey" primary key ("id"));`);
    this.addSql(`create index "signup_attempts_ip_idx" on "signup_attempts" ("ip", "created_at");`);
    this.addSql(`create index "signup_attempts_email_idx" on "signup_attempts" ("email", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "verification_codes" cascade;');
    this.addSql('drop table if exists "signup_attempts" cascade;');
  }
}
