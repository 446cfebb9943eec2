import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';
import { Account } from '../account';

/** A working session of one account; private to it. */
@Entity({ tableName: 'sessions' })
export class Session extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index({ name: 'sessions_account_idx' })
  account!: Account;

  @Property({ type: 'text' })
  title!: string;
}

@Entity({ tableName: 'chats' })
@Index({ name: 'chats_session_created_idx', properties: ['session', 'createdAt'] })
export class Chat extends BaseEntity {
  @ManyToOne(() => Session, { deleteRule: 'cascade' })
  session!: Session;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text', nullable: true })
  modelId: string | null = null;

  /** Set while an assistant reply is streaming. */
  @Property({ type: 'text', nullable: true })
  activeStreamId: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastAssistantMessageAt: Date | null = null;

  /** The session owner's read marker. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastReadAt: Date | null = null;
}

export enum MessageRole {
  USER = 'user',
  ASSISTANT = 'assistant',
  SYSTEM = 'system',
}

@Entity({ tableName: 'chat_messages' })
@Index({ name: 'chat_messages_chat_created_idx', properties: ['chat', 'createdAt'] })
export class ChatMessage extends BaseEntity {
  @ManyToOne(() => Chat, { deleteRule: 'cascade' })
  chat!: Chat;

  @Property({ type: 'text' })
  role!: MessageRole;

  @Property({ type: 'text' })
  content!: string;
}
