import { dirname, join } from 'node:path';

/** Directory of an installed npm package (its package.json is exported by each one used here). */
export function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

export interface Asset {
  file: string;
  type: string;
}

/**
 * The files the docs pages load, by URL name, all from npm packages: nothing comes from a CDN,
 * so both pages work offline. Only these names are served.
 */
export function swaggerAssets(): Record<string, Asset> {
  const dir = packageDir('swagger-ui-dist');
  return {
    'swagger-ui.css': { file: join(dir, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
    'swagger-ui-bundle.js': { file: join(dir, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
    'swagger-ui-standalone-preset.js': { file: join(dir, 'swagger-ui-standalone-preset.js'), type: 'text/javascript; charset=utf-8' },
    'favicon-32x32.png': { file: join(dir, 'favicon-32x32.png'), type: 'image/png' },
  };
}

export function graphiqlAssets(): Record<string, Asset> {
  const react = packageDir('react');
  const reactDom = packageDir('react-dom');
  const graphiql = packageDir('graphiql');
  return {
    'react.production.min.js': { file: join(react, 'umd', 'react.production.min.js'), type: 'text/javascript; charset=utf-8' },
    'react-dom.production.min.js': { file: join(reactDom, 'umd', 'react-dom.production.min.js'), type: 'text/javascript; charset=utf-8' },
    'graphiql.min.js': { file: join(graphiql, 'dist', 'index.umd.js'), type: 'text/javascript; charset=utf-8' },
    'graphiql.min.css': { file: join(graphiql, 'dist', 'style.css'), type: 'text/css; charset=utf-8' },
    // graphql-ws's browser build: GraphiQL's subscriptions (and the dashboard's) go over it.
    'graphql-ws.min.js': { file: join(packageDir('graphql-ws'), 'umd', 'graphql-ws.min.js'), type: 'text/javascript; charset=utf-8' },
  };
}
