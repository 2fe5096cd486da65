// Import-cycle check run by `npm run lint`. A cycle makes load order decide
// which module sees the other half-initialised, and ties features that should
// be independent; the check keeps web/, functions/ and shared/ acyclic.
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
