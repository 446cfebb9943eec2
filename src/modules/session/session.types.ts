import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { SuccessStatus } from '../../graphql/common.types';

/** Who wrote a chat message; the names are the REST values. */
export enum ChatMessageRole {
  user = 'user',
  assistant = 'assistant',
  system = 'system',
}
registerEnumType(ChatMessageRole, { name: 'ChatMessageRole', description: 'user, assistant or system' });

@ObjectType('Session', { description: 'A working session of one account (private to it)' })
export class SessionType {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

@ObjectType('SessionChat', { description: 'A chat of a session, with its unread and streaming state' })
export class SessionChat {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  sessionId!: string;

  @Field()
  title!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  @Field({ description: 'The last assistant message is newer than the read marker (or the chat was never read)' })
  hasUnread!: boolean;

  @Field({ description: 'An assistant reply is streaming (activeStreamId is set)' })
  isStreaming!: boolean;

  @Field(() => String, { nullable: true, description: 'Model chosen for this chat; null means defaultModelId' })
  modelId!: string | null;

  @Field(() => String, { nullable: true })
  activeStreamId!: string | null;

  @Field(() => Date, { nullable: true })
  lastAssistantMessageAt!: Date | null;
}

@ObjectType('ChatMessage', { description: 'A message of a chat' })
export class ChatMessageType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  chatId!: string;

  @Field(() => ChatMessageRole)
  role!: ChatMessageRole;

  @Field()
  content!: string;

  @Field()
  createdAt!: Date;
}

@ObjectType({ description: 'Answer of POST /api/sessions' })
export class SessionResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => SessionType)
  session!: SessionType;
}

@ObjectType({ description: 'Answer of GET /api/sessions' })
export class SessionsResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [SessionType], { description: "The caller's sessions, newest first" })
  sessions!: SessionType[];
}

@ObjectType({ description: 'Answer of GET /api/sessions/{sessionId}/chats' })
export class SessionChatsResult {
  @Field(() => [SessionChat], { description: 'Every chat of the session, by createdAt ascending' })
  chats!: SessionChat[];

  @Field({ description: 'The default model id used for clients without a preference' })
  defaultModelId!: string;
}

@ObjectType({ description: 'Answer of POST /api/sessions/{sessionId}/chats and .../read' })
export class SessionChatResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => SessionChat)
  chat!: SessionChat;
}

@ObjectType({ description: 'Answer of POST /api/sessions/{sessionId}/chats/{chatId}/messages' })
export class ChatMessageResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => ChatMessageType)
  message!: ChatMessageType;

  @Field(() => SessionChat, { description: 'The chat after the message' })
  chat!: SessionChat;
}
