#!/usr/bin/env node
// The published entry point runs the compiled CLI (built by `npm run build`, run on install by `prepare`).
import '../dist/cli/main.js';
