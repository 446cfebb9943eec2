import { Migration } from '@mikro-orm/migrations';

/** Stored provider answers (research data), one row per kind and normalized request key. */
export class Migration20261121040000_ResearchAnswers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "research_answers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kind" text not null, "key" text not null, "source" text not null, "payload" jsonb not null, "captured_at" timestamptz not null, constraint "research_answers_pkey" primary key ("id"));`);
    this.addSql(`alter table "research_answers" add constraint "research_answers_kind_key_unique" unique ("kind", "key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "research_answers" cascade;`);
  }
}
