// Import checks run by `npm run lint`:
//  - no import cycle: a cycle makes load order decide which module sees the other half-initialised;
//  - no two feature folders importing each other (functions/<feature>/, web/src/features/<feature>/):
//    ownership then zigzags between them (bank → bankWebhook → bank was one). A feature may use
//    another one way; what both need goes to lib/ or shared/, or an entry point composes them
//    (functions/api.ts, functions/notifier.ts) and passes one to the other.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const ROOT = __dirname;
const FEATURE_ROOTS = ['functions', 'web/src/features'];
/** Folders under those roots that are no feature: what every feature may use. */
const NOT_FEATURES = new Set(['functions/lib']);

/**
 * Two-way pairs older than this rule, each left to its owner to untangle; the rule refuses any
 * other, and these as soon as they are removed from here.
 */
const KNOWN_TWO_WAY = [
  ['functions/auth', 'functions/users'],
  ['functions/autoCheck', 'functions/systemConfig'],
  ['functions/checks', 'functions/notifications'],
];

/** The feature folder of a repository path, or undefined. */
function featureOf(path) {
  for (const root of FEATURE_ROOTS) {
    const m = new RegExp(`^${root}/([^/]+)/`).exec(path);
    if (m && !NOT_FEATURES.has(`${root}/${m[1]}`)) return `${root}/${m[1]}`;
  }
  return undefined;
}

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx)$/.test(name)) yield path;
  }
}

/**
 * Feature → features it imports, from the relative import specifiers of every source (static,
 * dynamic and re-exports; `@/…` web imports resolve under web/src). Only used to find which pairs
 * go both ways: dependency-cruiser itself then checks every import of those pairs.
 */
function featureImports() {
  const edges = new Map();
  const specifier = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
  for (const root of FEATURE_ROOTS) {
    for (const file of sources(join(ROOT, root))) {
      const from = featureOf(relative(ROOT, file));
      if (!from) continue;
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(specifier)) {
        const target = spec.startsWith('.')
          ? relative(ROOT, resolve(dirname(file), spec))
          : spec.startsWith('@/')
            ? `web/src/${spec.slice(2)}`
            : undefined;
        const to = target && featureOf(`${target}/`);
        if (!to || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from).add(to);
      }
    }
  }
  return edges;
}

const literal = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const known = new Set(KNOWN_TWO_WAY.flatMap(([a, b]) => [`${a}>${b}`, `${b}>${a}`]));

function twoWayRules() {
  const edges = featureImports();
  const rules = [];
  for (const [from, tos] of edges) {
    for (const to of tos) {
      if (!edges.get(to)?.has(from) || known.has(`${from}>${to}`)) continue;
      rules.push({
        name: 'no-two-way-features',
        severity: 'error',
        comment: `${from} and ${to} import each other: keep one direction (see the comment at the top of .dependency-cruiser.cjs).`,
        from: { path: `^${literal(from)}/` },
        to: { path: `^${literal(to)}/` },
      });
    }
  }
  return rules;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move the shared part to a module both sides import.',
      from: {},
      to: { circular: true },
    },
    ...twoWayRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|cdk\\.out)/' },
    // web/ resolves '@/…' and '@shared/…' through its own tsconfig paths.
    tsConfig: { fileName: require('node:path').join(__dirname, 'web/tsconfig.json') },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
