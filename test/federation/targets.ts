import { DEMO } from '../../src/db/seeders/demo.data';
import { as } from '../demo';

/**
 * The entity types of this service that the test subgraph ("notes") extends, in ONE place. To
 * retarget the composition tests (e.g. to Artist @key(id) and Song @key(isrc)), edit this list:
 * the notes subgraph's SDL, data and the queries of the tests are all built from it.
 */
export interface FederationTarget {
  /** Entity type name in schema/subgraph.graphql (it must carry @key(fields: "<key>")). */
  typeName: string;
  /** Its single key field and that field's GraphQL type. */
  key: string;
  keyType: 'ID!' | 'String!';
  /** Fields this service resolves for the entity (asked for across the subgraph boundary). */
  fields: string;
  /** Credentials of a caller who may see `visible` but not `hidden`. */
  caller: Record<string, string>;
  visible: string;
  hidden: string;
  /** What this service answers for `visible` (checked through the gateway). */
  expected: Record<string, unknown>;
  /**
   * A root query of this service (through the gateway) whose answer holds `visible` as this
   * type, and the path to it (a list or one object) in its answer: the notes subgraph then adds
   * its fields.
   */
  rootQuery: string;
  rootListPath: string[];
}

export const TARGETS: FederationTarget[] = [
  {
    typeName: 'Artist',
    key: 'id',
    keyType: 'ID!',
    fields: 'id name',
    caller: as.nora,
    visible: DEMO.luna,
    // Kai Rivers is on Southside's roster, which Nora cannot reach.
    hidden: DEMO.kai,
    expected: { id: DEMO.luna, name: 'Luna Waves' },
    rootQuery: '{ artists { items { id name notes { text } } } }',
    rootListPath: ['artists', 'items'],
  },
  {
    typeName: 'Song',
    key: 'isrc',
    keyType: 'String!',
    fields: 'isrc name',
    caller: as.nora,
    visible: 'GBNWR2400002',
    // Concrete Bloom is only in Kai Rivers Singles (Southside), which Nora cannot reach.
    hidden: 'DEKAI2400007',
    expected: { isrc: 'GBNWR2400002', name: 'Paper Moons' },
    rootQuery: '{ song(isrc: "GBNWR2400002") { isrc name notes { text } } }',
    rootListPath: ['song'],
  },
  {
    typeName: 'Catalog',
    key: 'id',
    keyType: 'ID!',
    fields: 'id name',
    caller: as.nora,
    visible: DEMO.catalogNorthwind,
    hidden: DEMO.catalogKai,
    expected: { id: DEMO.catalogNorthwind, name: 'Northwind Masters' },
    rootQuery: '{ catalogs { items { id name notes { text } } } }',
    rootListPath: ['catalogs', 'items'],
  },
  {
    typeName: 'Organization',
    key: 'id',
    keyType: 'ID!',
    fields: 'id name',
    caller: as.nora,
    visible: DEMO.northwind,
    hidden: DEMO.southside,
    expected: { id: DEMO.northwind, name: 'Northwind Records' },
    rootQuery: '{ organizations { items { id name notes { text } } } }',
    rootListPath: ['organizations', 'items'],
  },
  {
    typeName: 'AgentTemplate',
    key: 'id',
    keyType: 'ID!',
    fields: 'id title',
    caller: as.otto,
    visible: DEMO.templatePublic,
    hidden: DEMO.templatePrivate,
    expected: { id: DEMO.templatePublic, title: 'Playlist pitch writer' },
    rootQuery: '{ agentTemplates { items { id title notes { text } } } }',
    rootListPath: ['agentTemplates', 'items'],
  },
];
