import { lazy, Suspense, type ComponentType } from "react";
import { HomePage } from "@/features/home/components/HomePage.tsx";
import { PAGE_PATHS, matchPage, type PagePath } from "./routes.ts";

/**
 * The app's pages, one table for the router, the first load and the build's prerender. Pages
 * other than home load on first visit (the lobby too: its session-key code is heavy). The page a
 * visitor lands on is fetched before the app's first render (`preloadPage`), so the first render
 * draws that page at once, as the prerendered HTML showed it, instead of a "Loading…" between
 * the two.
 */
interface PageEntry {
  Component: ComponentType;
  /** Fetches the page's code; once done, Component renders without suspending. */
  preload: () => Promise<void>;
}

function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): PageEntry {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const fetchPage = () => (loading ??= load().then((m) => (loaded = m[name])));
  const Lazy = lazy(async () => ({ default: await fetchPage() }));
  // A page whose code is in renders as itself, with no Suspense boundary: the page landed on is
  // hydrated with the rest of the app in one pass. (A boundary around it would be hydrated in a
  // pass of its own, after the app's effects have run; an update from them, the wallet
  // reconnecting, say, would make React draw the page afresh beside its hidden prerendered copy.)
  function Page() {
    const Loaded = loaded;
    return Loaded ? (
      <Loaded />
    ) : (
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <Lazy />
      </Suspense>
    );
  }
  return { Component: Page, preload: () => fetchPage().then(() => undefined) };
}

function ready(Component: ComponentType): PageEntry {
  return { Component, preload: () => Promise.resolve() };
}

const ENTRIES: Record<PagePath, PageEntry> = {
  "/": ready(HomePage),
  "/games": page(() => import("@/features/lobby/components/LobbyPage.tsx"), "LobbyPage"),
  "/games/new": page(
    () => import("@/features/lobby/components/CreateGamePage.tsx"),
    "CreateGamePage",
  ),
  "/games/:id": page(() => import("@/features/table/components/GamePage.tsx"), "GamePage"),
  "/games/:id/replay": page(
    () => import("@/features/history/components/ReplayPage.tsx"),
    "ReplayPage",
  ),
  "/games/:id/analysis": page(
    () => import("@/features/analysis/components/AnalysisPage.tsx"),
    "AnalysisPage",
  ),
  "/history": page(() => import("@/features/history/components/HistoryPage.tsx"), "HistoryPage"),
  "/leaderboard": page(
    () => import("@/features/leaderboard/components/LeaderboardPage.tsx"),
    "LeaderboardPage",
  ),
  "/players/:address": page(
    () => import("@/features/players/components/PlayerPage.tsx"),
    "PlayerPage",
  ),
  "/rules": page(() => import("@/features/rules/components/RulesPage.tsx"), "RulesPage"),
  "/rules/:ruleSet": page(() => import("@/features/rules/components/RulesPage.tsx"), "RulesPage"),
  "/practice": page(
    () => import("@/features/practice/components/PracticePage.tsx"),
    "PracticePage",
  ),
};

/** Every page, in routes.ts's order, with its component. */
export const PAGES = PAGE_PATHS.map((path) => ({ path, ...ENTRIES[path] }));

/** The page a path shows, if any. */
export function pageFor(pathname: string): PageEntry | undefined {
  const path = matchPage(pathname);
  return path && ENTRIES[path];
}

/** Fetches the code of the page at this path (none for an unknown path: the router's 404). */
export function preloadPage(pathname: string): Promise<void> {
  return pageFor(pathname)?.preload() ?? Promise.resolve();
}
