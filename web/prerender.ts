// The build's prerender (a Vite plugin): every page of the app drawn to HTML at build time, as a
// visitor without a wallet first sees it (src/prerender.tsx draws it, routes.ts names the files),
// so a phone shows the page as soon as the HTML and the stylesheet are in, before any of the app's
// code has come down. The app's code then loads after that first paint and draws the same page in
// its place. Also written: `_redirects` (the rewrites a static host needs: a game's or a player's
// page is its pattern's file, an unknown path the 404 page) and the preview server's same rules.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, join, resolve } from "node:path";
import { createServer, type AliasOptions, type Plugin, type ResolvedConfig } from "vite";
import { readRedirects, resolvePage } from "../scripts/lib/staticServer.ts";
import { NOT_FOUND_FILE, PAGE_PATHS, pageFile } from "./src/routes.ts";

/** What src/prerender.tsx gives the build. */
interface PrerenderModule {
  renderPage(path: string, template?: boolean): Promise<string>;
  prerenderPaths(): { path: string; file: string; template: boolean }[];
}

/**
 * The built index.html loads the app's entry as a module script, and modulepreloads its imports.
 * On a fast line all of it comes down before the first paint, and a phone's browser then counts
 * it as the first paint's work (Lighthouse's simulation of a slow phone does too, whatever its
 * priority): so the entry is added only once the browser reports the page's first contentful
 * paint, and there are no preloads (the entry's imports are asked for as soon as it is in). A tab
 * opened in the background paints nothing until shown: there the code loads at once.
 */
export function loadAfterFirstPaint(html: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
  if (!entry) throw new Error("prerender: the built index.html has no module entry script");
  // Until the app runs, a form sent (Enter in a field) is held: the browser would reload the page
  // with the form in the address, and lose what was typed, instead of the app doing it.
  const boot =
    `<script>document.addEventListener("submit",function(e){` +
    `if(document.documentElement.dataset.app!=="running")e.preventDefault()},true);` +
    `(function(){var done=false;function load(){if(done)return;done=true;` +
    `var s=document.createElement("script");s.type="module";s.crossOrigin="";` +
    `s.src=${JSON.stringify(entry[1])};document.head.appendChild(s)}` +
    `if(document.visibilityState!=="visible"||!window.PerformanceObserver)return load();` +
    `try{new PerformanceObserver(function(l,o){o.disconnect();setTimeout(load,0)})` +
    `.observe({type:"paint",buffered:true})}catch(e){return load()}` +
    `setTimeout(load,3000)})()</script>`;
  return html
    .replace(entry[0], "")
    .replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, "")
    .replace("</body>", `    ${boot}\n  </body>`);
}

/**
 * The page's HTML inside the app's root element, marked for main.tsx: a page's own HTML is taken
 * over as it is (hydrated); a pattern's page, drawn for no game or player of its own, is replaced.
 */
function fill(template: string, body: string, kind: "page" | "template"): string {
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error(`prerender: no ${root} in index.html`);
  return template.replace(root, `<div id="root" data-prerendered="${kind}">${body}</div>`);
}

/** `_redirects` (Netlify's and Cloudflare Pages' format): a pattern's pages, then the 404. */
export function redirectsFile(): string {
  const lines = PAGE_PATHS.filter((p) => p.includes(":"))
    // A longer pattern first: /games/:id/replay before /games/:id.
    .sort((a, b) => b.split("/").length - a.split("/").length)
    .map((p) => `${p} /${pageFile(p)} 200`);
  return `${[...lines, `/* /${NOT_FOUND_FILE} 404`].join("\n")}\n`;
}

export function prerenderPages(options: { alias: AliasOptions }): Plugin {
  let config: ResolvedConfig;
  return {
    name: "dicehall:prerender",
    // The build, and the preview server that serves it (Vite resolves a preview as "serve").
    apply: (_config, env) => env.command === "build" || env.isPreview === true,
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: { order: "post", handler: (html) => loadAfterFirstPaint(html) },
    // Before vite-plugin-pwa's closeBundle, which precaches the files written here.
    closeBundle: {
      sequential: true,
      order: "pre",
      async handler() {
        if (config.build.ssr) return;
        const outDir = resolve(config.root, config.build.outDir);
        const template = readFileSync(join(outDir, "index.html"), "utf8");
        const server = await createServer({
          configFile: false,
          root: config.root,
          mode: config.mode,
          envDir: config.envDir,
          resolve: { alias: options.alias },
          logLevel: "error",
          appType: "custom",
          server: { middlewareMode: true, hmr: false, ws: false },
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const app = (await server.ssrLoadModule("/src/prerender.tsx")) as PrerenderModule;
          const pages = [
            ...app.prerenderPaths(),
            { path: "/nothing-here", file: NOT_FOUND_FILE, template: false },
          ];
          for (const { path, file, template: isTemplate } of pages) {
            const out = join(outDir, file);
            mkdirSync(dirname(out), { recursive: true });
            writeFileSync(
              out,
              fill(
                template,
                await app.renderPage(path, isTemplate),
                isTemplate ? "template" : "page",
              ),
            );
          }
          writeFileSync(join(outDir, "_redirects"), redirectsFile());
        } finally {
          await server.close();
        }
      },
    },
    configurePreviewServer(server) {
      const outDir = resolve(config.root, config.build.outDir);
      // The build's own `_redirects`, read as the bench's static host reads it (one resolver).
      const rules = readRedirects(outDir);
      // Page requests only (no file extension); assets go on to the preview's own static files.
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        const pathname = new URL(req.url ?? "/", "http://x").pathname;
        const accept = String(req.headers.accept ?? "");
        if (!/\.[a-z0-9]+$/i.test(pathname) && accept.includes("text/html")) {
          const { file, status } = resolvePage(outDir, decodeURIComponent(pathname), rules);
          res.statusCode = status;
          res.setHeader("content-type", "text/html; charset=utf-8");
          res.setHeader("cache-control", "no-cache");
          res.end(readFileSync(file));
          return;
        }
        next();
      });
    },
  };
}
