#!/usr/bin/env bash
# The layering check: dependency-cruiser over the TypeScript of shared/,
# supabase/functions/, testing/, scripts/, bench/ and web/ with the rules in
# .dependency-cruiser.cjs (no cycles; the kernel imports no channel, agent,
# tool, pack or platform; a pack never imports another pack; a function never
# imports a pack (only the root and the kernel); production code
# never reaches testing/); then, without tests, the kernel's folders as a
# graph: no cycle between them, type imports included
# (scripts/ci/kernel_folders.dependency-cruiser.cjs). Fails on any violation.
set -euo pipefail
cd "$(dirname "$0")/../.."

# dependency-cruiser 17 is the last line that runs on Node 20; it parses
# TypeScript with the compiler it finds beside it. One npx for both passes:
# each npx resolves the two packages again (~2.5 CPU-s).
npx -y -p dependency-cruiser@17.4.3 -p typescript@5.9.3 -c '
  depcruise --config .dependency-cruiser.cjs --output-type err \
    shared supabase/functions testing scripts bench web &&
    depcruise --config scripts/ci/kernel_folders.dependency-cruiser.cjs --output-type err shared'
