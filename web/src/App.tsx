import { lazy, Suspense, useEffect, useRef, type ComponentType } from "react";
import { Link, NavLink, Route, Routes, useLocation } from "react-router";
import { HomePage } from "@/features/home/components/HomePage.tsx";
import { LobbyPage } from "@/features/lobby/components/LobbyPage.tsx";
import { NetworkBanner } from "@/features/wallet/components/NetworkBanner.tsx";
import { WalletButton } from "@/features/wallet/components/WalletButton.tsx";
import { useHallWatcher } from "@/chain/hall.ts";
import { useIndexCatchUp } from "@/data/indexerStatus.ts";
import { AlertToggles } from "@/ui/AlertToggles.tsx";
import { RematchNotice } from "@/ui/RematchNotice.tsx";

/** Pages other than home and the lobby load on first visit. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const CreateGamePage = page(
  () => import("@/features/lobby/components/CreateGamePage.tsx"),
  "CreateGamePage",
);
const GamePage = page(() => import("@/features/table/components/GamePage.tsx"), "GamePage");
const ReplayPage = page(() => import("@/features/history/components/ReplayPage.tsx"), "ReplayPage");
const HistoryPage = page(
  () => import("@/features/history/components/HistoryPage.tsx"),
  "HistoryPage",
);
const LeaderboardPage = page(
  () => import("@/features/leaderboard/components/LeaderboardPage.tsx"),
  "LeaderboardPage",
);
const RulesPage = page(() => import("@/features/rules/components/RulesPage.tsx"), "RulesPage");
const PracticePage = page(
  () => import("@/features/practice/components/PracticePage.tsx"),
  "PracticePage",
);

const NAV = [
  { to: "/games", label: "Play" },
  { to: "/practice", label: "Practice" },
  { to: "/leaderboard", label: "Leaderboard" },
  { to: "/history", label: "History" },
  { to: "/rules/yahtzee", label: "Rules" },
];

function NotFound() {
  return (
    <section className="page">
      <h1>Nothing here</h1>
      <p>
        That page doesn't exist. <Link to="/games">Back to the tables</Link>.
      </p>
    </section>
  );
}

/** Moves focus to the page's heading after navigation, so screen readers start at the new page. */
function useFocusOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>("main h1");
    if (heading && document.activeElement === document.body) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [pathname]);
}

export function App() {
  useHallWatcher();
  useIndexCatchUp();
  useFocusOnNavigate();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="header">
        <Link to="/" className="brand" aria-label="Dicehall home">
          <span className="brand__mark" aria-hidden="true">
            ⚄
          </span>
          <span className="brand__name">Dicehall</span>
        </Link>
        <nav className="nav" aria-label="Main">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className="nav__link">
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="header__wallet">
          <AlertToggles />
          <WalletButton />
        </div>
      </header>
      <NetworkBanner />
      <RematchNotice />
      <main id="main" className="main">
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Routes>
            <Route path="/" element={<HomePage />} />
            <Route path="/games" element={<LobbyPage />} />
            <Route path="/games/new" element={<CreateGamePage />} />
            <Route path="/games/:id" element={<GamePage />} />
            <Route path="/games/:id/replay" element={<ReplayPage />} />
            <Route path="/history" element={<HistoryPage />} />
            <Route path="/leaderboard" element={<LeaderboardPage />} />
            <Route path="/rules" element={<RulesPage />} />
            <Route path="/rules/:ruleSet" element={<RulesPage />} />
            <Route path="/practice" element={<PracticePage />} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </main>
      <footer className="footer">
        <p>
          Dice from Pyth Entropy, rules enforced on chain.{" "}
          <Link to="/rules/yahtzee">How to play</Link>
        </p>
      </footer>
    </div>
  );
}
