#!/usr/bin/env node
/**
 * Composes the supergraph the router serves from this subgraph's schema (schema/subgraph.graphql)
 * with @apollo/composition (a dev dependency, the same library `rover supergraph compose` runs).
 *
 *   node deploy/router/compose-supergraph.js [routing URL] > deploy/router/supergraph.graphql
 *
 * The routing URL is where the router reaches the subgraph: the load balancer in front of the API
 * instances (compose: http://lb:8080/graphql; Kubernetes: the Service, http://mas-api/graphql).
 * Add further subgraphs to the list below as they join the graph.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { composeServices } = require('@apollo/composition');
const { parse } = require('graphql');

function composeSupergraph(url) {
  const sdl = readFileSync(join(__dirname, '..', '..', 'schema', 'subgraph.graphql'), 'utf8');
  const result = composeServices([{ name: 'music', typeDefs: parse(sdl), url }]);
  if (result.errors) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return `${result.supergraphSdl.trimEnd()}\n`;
}

module.exports = { composeSupergraph, DEFAULT_ROUTING_URL: 'http://lb:8080/graphql' };

if (require.main === module) {
  process.stdout.write(composeSupergraph(process.argv[2] ?? module.exports.DEFAULT_ROUTING_URL));
}
