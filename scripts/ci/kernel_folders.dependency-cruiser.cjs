/**
 * The kernel's folders as a graph (scripts/ci/check_layers.sh, second pass):
 * no cycle between them, counting `import type` too. A cycle between two
 * folders needs no cycle between modules (auth/caller.ts → pipeline/invoke.ts
 * while pipeline/platform.ts → auth/caller.ts), so the module rule in
 * .dependency-cruiser.cjs cannot see it. Tests are left out: a test may
 * reach across (a pipeline test signs a token with auth's helpers).
 */
const base = require("../../.dependency-cruiser.cjs");

const KERNEL_FOLDER = "^shared/(contract|registry|pipeline|db|auth|export|runtime|http|storage)$";

module.exports = {
  forbidden: [
    {
      name: "no-circular-kernel-folders",
      comment: "A kernel folder never reaches itself again through other folders' imports. " +
        "Move what both sides need to the lower folder.",
      severity: "error",
      scope: "folder",
      from: { path: KERNEL_FOLDER },
      to: { circular: true },
    },
  ],
  options: {
    ...base.options,
    exclude: { path: ["^(node_modules|\\.data)/", "_test\\.ts$"] },
  },
};
