import { Migration } from '@mikro-orm/migrations';

/** Issue 16: values every instance must share and that outlive a restart (a generated link-signing key). */
export class Migration20261123150000_Settings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "settings" ("name" varchar(100) not null, "value" text not null, "created_at" timestamptz not null default now(), constraint "settings_pkey" primary key ("name"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "settings" cascade;');
  }
}
