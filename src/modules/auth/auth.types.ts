import { Field, ID, ObjectType } from 'type-graphql';
import { SuccessStatus } from '../../graphql/common.types';

@ObjectType('ApiKey', { description: 'A personal API key, without its secret' })
export class ApiKeyInfo {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field({ description: 'First characters of the key, to tell keys apart' })
  hint!: string;

  @Field()
  created_at!: Date;

  @Field(() => Date, { nullable: true, description: 'Last authenticated use (updated at most once a minute)' })
  last_used_at!: Date | null;

  @Field()
  revoked!: boolean;

  @Field(() => Date, { nullable: true })
  revoked_at!: Date | null;
}

@ObjectType('NewApiKey', { description: 'The key just created' })
export class NewApiKey {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  created_at!: Date;
}

@ObjectType({ description: 'Answer of GET /api/keys' })
export class ApiKeysResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [ApiKeyInfo])
  keys!: ApiKeyInfo[];
}

@ObjectType({ description: 'Answer of POST /api/keys' })
export class CreateApiKeyResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => NewApiKey)
  key!: NewApiKey;

  @Field({ description: 'The secret key: shown this once, never again' })
  api_key!: string;
}

@ObjectType({ description: 'Answer of DELETE /api/keys/{id}' })
export class RevokeApiKeyResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => ApiKeyInfo)
  key!: ApiKeyInfo;
}

@ObjectType({ description: 'Answer of POST /api/agents/signup and POST /api/agents/verify' })
export class OnboardingResult {
  @Field(() => ID, { nullable: true, description: 'The account, once it has a key' })
  account_id!: string | null;

  @Field(() => String, { nullable: true, description: 'The first API key (shown once), or null while a code is pending' })
  api_key!: string | null;

  @Field()
  message!: string;
}
