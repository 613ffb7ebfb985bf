/**
 * Layering of the workspace, checked by `npm test` (test/architecture/dependency-rules.test.ts):
 *   protocol → agent → contracts → platform → database → auth → telemetry → json-rpc → grpc → core (libs/s2sp) → agents → gateway → apps
 * A package imports only packages below it, and only through their entry (src/index.ts).
 */
const LAYERS = [
  'protocol',
  'agent',
  'contracts',
  'platform',
  'database',
  'auth',
  'telemetry',
  'json-rpc',
  'grpc',
  's2sp',
  'agents',
  'gateway',
];

/** A lib must not import the libs of the layers above it. */
function upwardRules() {
  return LAYERS.slice(0, -1).map((layer, index) => ({
    name: `below-${layer}`,
    comment: `libs/${layer} sits below ${LAYERS.slice(index + 1).join(', ')}: it must not import them.`,
    severity: 'error',
    from: { path: `^libs/${layer}/` },
    to: { path: `^libs/(${LAYERS.slice(index + 1).join('|')})/` },
  }));
}

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'A cycle of imports.', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'lib-imports-app',
      comment: 'Libraries are below the apps: they must not import from apps/.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'app-imports-app',
      comment: 'An app is deployed on its own: it must not import another app.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'deep-import-from-app',
      comment: 'Import a package through its entry (its name, e.g. @s2sp/core), never a file inside it.',
      severity: 'error',
      from: { path: '^apps/' },
      to: { path: '^libs/[^/]+/src/.+', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'deep-import-from-lib',
      comment:
        'Import another package through its entry (its name, e.g. @s2sp/platform, or its internal entry, ' +
        '@s2sp/platform/internal), never a file inside it.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/.+', pathNot: ['^libs/$1/', '^libs/[^/]+/src/(index|internal)\\.ts$'] },
    },
    {
      name: 'core-without-grpc',
      comment:
        'An app with S2spModule alone installs no gRPC: @s2sp/core and the packages it depends on ' +
        'import neither @s2sp/contracts, @s2sp/grpc nor @grpc/*.',
      severity: 'error',
      from: { path: '^libs/(s2sp|platform|database|auth|telemetry)/' },
      to: { path: ['^libs/(contracts|grpc)/', '(^|/)@grpc/'] },
    },
    {
      name: 'agent-side-without-nest',
      comment:
        'An agent built with any framework uses @s2sp/agent: it and @s2sp/protocol import no Nest package ' +
        'and no other @s2sp package.',
      severity: 'error',
      from: { path: '^libs/(protocol|agent)/' },
      to: { path: ['(^|/)@nestjs/', '^libs/(?!protocol/|agent/)[^/]+/'] },
    },
    ...upwardRules(),
  ],
  options: {
    exclude: { path: '(^|/)(dist|node_modules)/' },
    doNotFollow: { path: ['node_modules', '/generated/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
