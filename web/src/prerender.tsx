import { prerender } from "react-dom/static";
import { StaticRouter } from "react-router";
import { createWagmiConfig } from "@/chain/wagmi.ts";
import { RULE_SETS } from "@dicehall/core/rules/ruleSets.ts";
import { preloadPage } from "./pages.tsx";
import { PAGE_PATHS, pageFile } from "./routes.ts";
import { PageTemplateProvider } from "@/ui/pageTemplate.ts";
import { Root, createQueryClient } from "./Root.tsx";

/**
 * The build's prerender (web/prerender.ts runs this in Node): the app at one path as a visitor
 * without a wallet first sees it, before any read of the chain or the index has answered (every
 * read shows its loading state), as HTML for the page's file. A phone shows it as soon as the
 * HTML and the stylesheet are in; the app's code then draws the same page in its place.
 */
export async function renderPage(path: string, template = false): Promise<string> {
  await preloadPage(path);
  const { prelude } = await prerender(
    <Root
      config={createWagmiConfig()}
      queryClient={createQueryClient()}
      router={(app) => (
        <StaticRouter location={path}>
          <PageTemplateProvider value={template}>{app}</PageTemplateProvider>
        </StaticRouter>
      )}
    />,
  );
  return new Response(prelude).text();
}

/**
 * The pages the build draws: the path, the file it goes in, and whether it stands for every path of
 * a pattern. Every page without a parameter; each rule set's rules (an unknown one's page is the
 * pattern's, which says so); for a game's or a player's pattern, one page for all (its loading
 * state: ui/pageTemplate.ts).
 */
export function prerenderPaths(): { path: string; file: string; template: boolean }[] {
  return PAGE_PATHS.flatMap((path) => {
    const file = pageFile(path);
    if (path === "/rules/:ruleSet")
      return [
        ...RULE_SETS.map((r) => ({
          path: `/rules/${r.key}`,
          file: pageFile(`/rules/${r.key}`),
          template: false,
        })),
        { path: "/rules/_ruleSet", file, template: false },
      ];
    // "/games/:id" is drawn at "/games/_id": the route matches, and the page knows it is the
    // template.
    if (path.includes(":"))
      return [{ path: `/${file.replace(/\.html$/, "")}`, file, template: true }];
    return [{ path, file, template: false }];
  });
}
