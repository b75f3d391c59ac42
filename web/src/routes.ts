/**
 * The app's paths, as the router matches them, and the file each one's prerendered HTML is in.
 * Plain data and one matcher, with no React: the router's page table (pages.tsx), the build's
 * prerender (web/prerender.ts), the hosts' rewrite rules it writes (`_redirects`) and the service
 * worker (sw/sw.ts, which opens a page offline from its own file) all read this one list.
 * A static path comes before a pattern that would also match it ("/games/new" before
 * "/games/:id"): the first match wins.
 */
export const PAGE_PATHS = [
  "/",
  "/games",
  "/games/new",
  "/games/:id",
  "/games/:id/replay",
  "/games/:id/analysis",
  "/history",
  "/leaderboard",
  "/players/:address",
  "/rules",
  "/rules/:ruleSet",
  "/practice",
] as const;

export type PagePath = (typeof PAGE_PATHS)[number];

/** The page for a path that no route matches: "Nothing here", served with status 404. */
export const NOT_FOUND_FILE = "404.html";

/**
 * The file a path's prerendered HTML is in: "/" is index.html, "/games/new" games/new.html, and a
 * pattern's parameter is named with an underscore ("/games/:id" is games/_id.html, the page as it
 * is drawn for any game before its data is read).
 */
export function pageFile(path: string): string {
  if (path === "/") return "index.html";
  return `${path
    .slice(1)
    .split("/")
    .map((segment) => (segment.startsWith(":") ? `_${segment.slice(1)}` : segment))
    .join("/")}.html`;
}

/**
 * The first of the app's paths that a URL's pathname matches: each ":name" is one segment, the
 * rest compared without regard to case, as the router compares them.
 */
export function matchPage(pathname: string): PagePath | undefined {
  const parts = pathname.replace(/\/+$/, "").split("/").slice(1);
  return PAGE_PATHS.find((path) => {
    const pattern = path === "/" ? [] : path.split("/").slice(1);
    return (
      pattern.length === parts.length &&
      pattern.every((p, i) => (p.startsWith(":") ? parts[i] !== "" : p === parts[i].toLowerCase()))
    );
  });
}
