import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 14: every change that alters who a credential acts as (a key revoked or deleted, a
 * membership made or removed, an account renamed, re-addressed or deleted, an identity unbound)
 * announces the account on the `viewer_changes` channel when it commits, so every instance drops
 * its cached viewer at once. Triggers, not service code: no write path can forget to announce.
 */
export class Migration20261124100000_ViewerChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "announce_viewer_change"() returns trigger language plpgsql as $$
declare
  col text := TG_ARGV[0];
  old_id text;
  new_id text;
begin
  if TG_OP <> 'INSERT' then old_id := to_jsonb(OLD) ->> col; end if;
  if TG_OP <> 'DELETE' then new_id := to_jsonb(NEW) ->> col; end if;
  if old_id is not null then perform pg_notify('viewer_changes', old_id); end if;
  if new_id is not null and new_id is distinct from old_id then perform pg_notify('viewer_changes', new_id); end if;
  return null;
end $$;`);
    this.addSql(`create trigger "api_keys_viewer_change" after update of "revoked_at", "account_id" or delete on "api_keys" for each row execute function "announce_viewer_change"('account_id');`);
    this.addSql(`create trigger "memberships_viewer_change" after insert or update or delete on "memberships" for each row execute function "announce_viewer_change"('member_id');`);
    this.addSql(`create trigger "accounts_viewer_change" after update of "name", "email", "kind" or delete on "accounts" for each row execute function "announce_viewer_change"('id');`);
    this.addSql(`create trigger "account_identities_viewer_change" after update or delete on "account_identities" for each row execute function "announce_viewer_change"('account_id');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "account_identities_viewer_change" on "account_identities";');
    this.addSql('drop trigger if exists "accounts_viewer_change" on "accounts";');
    this.addSql('drop trigger if exists "memberships_viewer_change" on "memberships";');
    this.addSql('drop trigger if exists "api_keys_viewer_change" on "api_keys";');
    this.addSql('drop function if exists "announce_viewer_change"();');
  }
}
