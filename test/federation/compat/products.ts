import 'reflect-metadata';
import { DirectiveLocation, GraphQLDirective, GraphQLSchema } from 'graphql';
import { Arg, Directive, Field, Float, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { buildFederatedSchema, buildPlainSchema, ReferenceResolvers } from '../../../src/graphql/schema';

/**
 * The `products` subgraph of Apollo's federation compatibility suite (its products.graphql and
 * data), written the way this service writes its schema: type-graphql classes with @Directive,
 * built by buildPlainSchema and turned into a subgraph by buildFederatedSchema.
 */

/** Federation 2.3 (the suite accepts 2.0–2.3) plus the custom directive composed with @composeDirective. */
export const PRODUCTS_LINK = `extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@composeDirective", "@extends", "@external", "@key", "@inaccessible", "@interfaceObject", "@override", "@provides", "@requires", "@shareable", "@tag"])
  @link(url: "https://myspecs.dev/myCustomDirective/v1.0", import: ["@custom"])
  @composeDirective(name: "@custom")`;

const customDirective = new GraphQLDirective({ name: 'custom', locations: [DirectiveLocation.OBJECT] });

@ObjectType()
class ProductVariation {
  @Field(() => ID)
  id!: string;
}

@ObjectType()
class CaseStudy {
  @Field(() => ID)
  caseNumber!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@ObjectType()
@Directive('@key(fields: "study { caseNumber }")')
class ProductResearch {
  @Field(() => CaseStudy)
  study!: CaseStudy;

  @Field(() => String, { nullable: true })
  outcome?: string | null;
}

@ObjectType()
@Directive('@shareable')
class ProductDimension {
  @Field(() => String, { nullable: true })
  size?: string | null;

  @Field(() => Float, { nullable: true })
  weight?: number | null;

  @Field(() => String, { nullable: true })
  @Directive('@inaccessible')
  unit?: string | null;
}

@ObjectType()
@Directive('@extends')
@Directive('@key(fields: "email")')
class User {
  @Field(() => Int, { nullable: true })
  @Directive('@requires(fields: "totalProductsCreated yearsOfEmployment")')
  averageProductsCreatedPerYear?: number | null;

  @Field(() => ID)
  @Directive('@external')
  email!: string;

  @Field(() => String, { nullable: true })
  @Directive('@override(from: "users")')
  name?: string | null;

  @Field(() => Int, { nullable: true })
  @Directive('@external')
  totalProductsCreated?: number | null;

  @Field(() => Int)
  @Directive('@external')
  yearsOfEmployment!: number;
}

@ObjectType()
@Directive('@custom')
@Directive('@key(fields: "id")')
@Directive('@key(fields: "sku package")')
@Directive('@key(fields: "sku variation { id }")')
class Product {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  sku?: string | null;

  @Field(() => String, { nullable: true })
  package?: string | null;

  @Field(() => ProductVariation, { nullable: true })
  variation?: ProductVariation | null;

  @Field(() => ProductDimension, { nullable: true })
  dimensions?: ProductDimension | null;

  @Field(() => User, { nullable: true })
  @Directive('@provides(fields: "totalProductsCreated")')
  createdBy?: Partial<User> | null;

  @Field(() => String, { nullable: true })
  @Directive('@tag(name: "internal")')
  notes?: string | null;

  @Field(() => [ProductResearch])
  research!: ProductResearch[];
}

@ObjectType()
@Directive('@key(fields: "sku package")')
class DeprecatedProduct {
  @Field(() => String)
  sku!: string;

  @Field(() => String)
  package!: string;

  @Field(() => String, { nullable: true })
  reason?: string | null;

  @Field(() => User, { nullable: true })
  createdBy?: Partial<User> | null;
}

@ObjectType()
@Directive('@interfaceObject')
@Directive('@key(fields: "id")')
class Inventory {
  @Field(() => ID)
  id!: string;

  @Field(() => [DeprecatedProduct])
  deprecatedProducts!: DeprecatedProduct[];
}

// The suite's data.
const dimensions = { size: 'small', weight: 1, unit: 'kg' };
const user = { email: 'support@apollographql.com', name: 'Jane Smith', totalProductsCreated: 1337, yearsOfEmployment: 10 };
const research: ProductResearch[] = [
  { study: { caseNumber: '1234', description: 'Federation Study' }, outcome: null },
  { study: { caseNumber: '1235', description: 'Studio Study' }, outcome: null },
];
const deprecatedProduct: DeprecatedProduct = {
  sku: 'apollo-federation-v1',
  package: '@apollo/federation-v1',
  reason: 'Migrate to Federation V2',
  createdBy: user,
};
const products: Product[] = [
  {
    id: 'apollo-federation',
    sku: 'federation',
    package: '@apollo/federation',
    variation: { id: 'OSS' },
    dimensions,
    createdBy: user,
    notes: 'This is a test product',
    research: [research[0]!],
  },
  {
    id: 'apollo-studio',
    sku: 'studio',
    package: '',
    variation: { id: 'platform' },
    dimensions,
    createdBy: user,
    notes: 'This is a note',
    research: [research[1]!],
  },
];
const inventory: Inventory = { id: 'apollo-oss', deprecatedProducts: [deprecatedProduct] };

@Resolver()
class ProductsResolver {
  @Query(() => Product, { nullable: true })
  product(@Arg('id', () => ID) id: string): Product | undefined {
    return products.find((p) => p.id === id);
  }

  @Query(() => DeprecatedProduct, { nullable: true, deprecationReason: 'Use product query instead' })
  deprecatedProduct(@Arg('sku', () => String) sku: string, @Arg('package', () => String) pkg: string): DeprecatedProduct | undefined {
    return deprecatedProduct.sku === sku && deprecatedProduct.package === pkg ? deprecatedProduct : undefined;
  }
}

type Ref = Record<string, unknown>;

const references: ReferenceResolvers = {
  Product: {
    __resolveReference: (ref: Ref) => {
      if (ref.id) return products.find((p) => p.id === ref.id) ?? null;
      const variation = ref.variation as { id?: string } | undefined;
      if (ref.sku && variation?.id) return products.find((p) => p.sku === ref.sku && p.variation?.id === variation.id) ?? null;
      if (ref.sku && ref.package !== undefined) return products.find((p) => p.sku === ref.sku && p.package === ref.package) ?? null;
      return null;
    },
  },
  DeprecatedProduct: {
    __resolveReference: (ref: Ref) => (ref.sku === deprecatedProduct.sku && ref.package === deprecatedProduct.package ? deprecatedProduct : null),
  },
  ProductResearch: {
    __resolveReference: (ref: Ref) => research.find((r) => r.study.caseNumber === (ref.study as { caseNumber?: string } | undefined)?.caseNumber) ?? null,
  },
  User: {
    __resolveReference: (ref: Ref) => {
      if (ref.email !== user.email) return null;
      const total = typeof ref.totalProductsCreated === 'number' ? ref.totalProductsCreated : user.totalProductsCreated;
      const years = typeof ref.yearsOfEmployment === 'number' ? ref.yearsOfEmployment : user.yearsOfEmployment;
      return { ...user, ...ref, averageProductsCreatedPerYear: years ? Math.round(total / years) : null };
    },
  },
  Inventory: {
    __resolveReference: (ref: Ref) => (ref.id === inventory.id ? inventory : null),
  },
};

/** The suite's `products` subgraph schema, through this service's own schema helpers. */
export async function buildProductsSchema(): Promise<GraphQLSchema> {
  const plain = await buildPlainSchema({ resolvers: [ProductsResolver], orphanedTypes: [Inventory, ProductResearch, User], directives: [customDirective] });
  // These fixtures have no router in front of them: the suite queries _service/_entities directly.
  return buildFederatedSchema(plain, references, { link: PRODUCTS_LINK, routerOnly: false });
}
