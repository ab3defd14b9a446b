/**
 * The architecture, checked: `npx depcruise src` (and test/architecture.test.ts, part of `npm test`).
 * Folders of src/ are layers, lowest first; a module may import its own folder and lower layers only,
 * and nothing may import in a circle (type-only imports included: a circle of types is still a
 * circle a reader has to untangle). Folders on one row are siblings and may not import each other.
 */
const LAYERS = [
  ['config'],
  ['core'],
  ['store'],
  ['ui'],
  ['http'],
  ['auth'],
  ['resources', 'events'],
  ['webhooks', 'json-server'],
  ['app'],
  ['cli'],
  ['test-support'],
];

const folder = (names) => `^src/(${names.join('|')})/`;

const layerRules = LAYERS.flatMap((row, rank) => {
  const above = LAYERS.slice(rank + 1).flat();
  return row.map((name) => ({
    name: `${name}-imports-inward`,
    comment: `src/${name}/ may import only ${LAYERS.slice(0, rank).flat().join(', ') || 'nothing else in src/'} (and itself)`,
    severity: 'error',
    from: { path: folder([name]) },
    to: { path: folder([...above, ...row.filter((n) => n !== name)]) },
  }));
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules must not import each other in a circle, not even through types',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
