/**
 * The layering rules (docs/architecture.md, "What each folder may import"),
 * checked by scripts/ci/check_layers.sh.
 *
 * kernel:       shared/{contract,registry,pipeline,db,auth,export,runtime,http,storage}
 * capabilities: shared/capabilities/<name> (what several packs share: ordering,
 *               document reading and PDF documents, formats, messaging…)
 * above them:   shared/channels, shared/agent, shared/tools, shared/packs
 * root:         shared/platform (the composition root), then supabase/functions,
 *               which import the root and the kernel, never a pack
 * testing/:     loopback fakes, fixtures, the scenario harness (tests only)
 */
const KERNEL = "^shared/(contract|registry|pipeline|db|auth|export|runtime|http|storage)/";
const TEST_FILE = "_test\\.ts$";
const CAPABILITY = "^shared/capabilities/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module reaches itself again through its imports.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "kernel-imports-no-domain",
      comment:
        "The kernel imports nothing above it: no capability, channel, agent, tool, pack or platform.",
      severity: "error",
      from: { path: KERNEL, pathNot: TEST_FILE },
      to: { path: "^shared/(capabilities|channels|agent|tools|packs|platform)/" },
    },
    {
      name: "capabilities-import-only-the-kernel",
      comment: "A capability is shared by packs and speaks no channel: it imports the kernel and " +
        "other capabilities only.",
      severity: "error",
      from: { path: CAPABILITY, pathNot: TEST_FILE },
      to: { path: "^shared/", pathNot: [KERNEL, CAPABILITY] },
    },
    {
      name: "packs-import-only-kernel-and-capabilities",
      comment: "A pack imports the kernel, the capabilities, the platform's own tools (whose " +
        "output schemas its flows read) and itself: never a channel, the agent, the platform " +
        "or another pack (messages go through the messaging port).",
      severity: "error",
      from: { path: "^shared/packs/([^/]+)/", pathNot: TEST_FILE },
      to: {
        path: "^shared/",
        pathNot: [KERNEL, CAPABILITY, "^shared/tools/", "^shared/packs/$1/"],
      },
    },
    {
      name: "pack-imports-no-other-pack",
      comment: "A pack never imports another pack; what two share moves into a capability.",
      severity: "error",
      from: { path: "^shared/packs/([^/]+)/" },
      to: { path: "^shared/packs/", pathNot: "^shared/packs/$1/" },
    },
    {
      name: "only-the-root-lists-packs",
      comment: "The pack list is imported by the composition root alone (and by tests and tools).",
      severity: "error",
      from: { path: "^shared/", pathNot: ["^shared/platform/", TEST_FILE] },
      to: { path: "^shared/packs/mod\\.ts$" },
    },
    {
      name: "only-the-root-wires-packs",
      comment:
        "Channels, agent and tools hold packs only as the root hands them in (Platform.packs).",
      severity: "error",
      from: { path: "^shared/", pathNot: ["^shared/platform/", "^shared/packs/", TEST_FILE] },
      to: { path: "^shared/packs/" },
    },
    {
      name: "below-the-root",
      comment: "Channels, agent, tools and packs are wired by the root, never import it.",
      severity: "error",
      from: { path: "^shared/", pathNot: ["^shared/platform/", TEST_FILE] },
      to: { path: "^shared/platform/" },
    },
    {
      name: "functions-import-no-pack-internals",
      comment:
        "A function imports the composition root and the kernel, never a pack: what it needs " +
        "of one is served by the root (createPackFunction) or called as a tool by name.",
      severity: "error",
      from: { path: "^supabase/functions/", pathNot: TEST_FILE },
      to: { path: "^shared/packs/" },
    },
    {
      name: "no-functions-from-shared",
      comment: "shared/ never reaches into a function's folder.",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^supabase/functions/" },
    },
    {
      name: "production-never-reaches-testing",
      comment: "Only tests (and the CLIs under scripts/ and bench/) use testing/.",
      severity: "error",
      from: { path: "^(shared|supabase/functions)/", pathNot: TEST_FILE },
      to: { path: "^testing/" },
    },
  ],
  options: {
    tsConfig: { fileName: "scripts/ci/depcruise.tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.data)/" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
