import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook delivery attempts in an account's usage (README: Usage and limits): counted by the
 * delivery worker in the transaction that records each attempt, per account and hour, beside the
 * figures the API instances flush. The delivery log keeps only the newest deliveries, so the usage
 * figure cannot be read from it.
 */
export class Migration20261126160000_UsageWebhookDeliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "account_usage" add column "webhook_deliveries" bigint not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "account_usage" drop column "webhook_deliveries";`);
  }
}
