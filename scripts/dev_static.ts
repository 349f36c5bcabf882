/**
 * Serves the Admin Inbox's static files at `/admin/`, as a static host would
 * when deployed, plus a `config.js` pointing the page at this dev server.
 *
 * @module
 */

const ROOT = new URL("../web/admin_inbox/", import.meta.url);
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  json: "application/json",
};

/** Answers `/admin/…`, or null when the path is not the page's. */
export async function serveAdminPage(request: Request, baseUrl: string): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  if (pathname === "/admin") return Response.redirect(`${baseUrl}/admin/`, 301);
  const match = /^\/admin\/([a-z0-9_.-]*)$/.exec(pathname);
  if (!match) return null;
  const file = match[1] || "index.html";
  if (file === "config.js") {
    return new Response(
      `window.EASYMO_CONFIG = ${JSON.stringify({ supabaseUrl: baseUrl, anonKey: "local-dev" })};\n`,
      { headers: { "content-type": TYPES.js, "cache-control": "no-store" } },
    );
  }
  if (file.startsWith(".") || file.endsWith("_test.ts") || file.endsWith(".ts")) return null;
  try {
    const bytes = await Deno.readFile(new URL(file, ROOT));
    return new Response(bytes, {
      headers: {
        "content-type": TYPES[file.split(".").pop() ?? ""] ?? "application/octet-stream",
        "x-content-type-options": "nosniff",
        "content-security-policy":
          "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
      },
    });
  } catch {
    return null;
  }
}
