import { lazy, Suspense, useEffect, useRef, type ComponentType, type ReactNode } from "react";
import { Link, Route, Routes, useLocation } from "react-router";
import { useConnection } from "wagmi";
import { HomePage } from "@/features/home/components/HomePage.tsx";
import { NetworkBanner } from "@/features/wallet/components/NetworkBanner.tsx";
import { WalletButton } from "@/features/wallet/components/WalletButton.tsx";
import { useHallWatcher } from "@/chain/hall.ts";
import { useIndexCatchUp } from "@/data/indexerStatus.ts";
import { AlertToggles } from "@/ui/AlertToggles.tsx";
import { navActive, type NavSection } from "@/ui/navActive.ts";
import { OfflineNotice } from "@/ui/OfflineNotice.tsx";
import { RematchNotice } from "@/ui/RematchNotice.tsx";
import { TurnAlerts } from "@/ui/TurnAlerts.tsx";

/** Pages other than home load on first visit (the lobby too: its session-key code is heavy). */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

// A connected player's session keys at work on every page: their code (the key's secp256k1 among
// it) loads once a wallet is connected, never in the first load.
const SessionKeys = page(() => import("@/ui/SessionKeys.tsx"), "SessionKeys");
const AskAgain = page(() => import("@/ui/AskAgain.tsx"), "AskAgain");

function WhenConnected({ children }: { children: ReactNode }) {
  const { address } = useConnection();
  return address ? <Suspense fallback={null}>{children}</Suspense> : null;
}

const LobbyPage = page(() => import("@/features/lobby/components/LobbyPage.tsx"), "LobbyPage");
const CreateGamePage = page(
  () => import("@/features/lobby/components/CreateGamePage.tsx"),
  "CreateGamePage",
);
const GamePage = page(() => import("@/features/table/components/GamePage.tsx"), "GamePage");
const ReplayPage = page(() => import("@/features/history/components/ReplayPage.tsx"), "ReplayPage");
const AnalysisPage = page(
  () => import("@/features/analysis/components/AnalysisPage.tsx"),
  "AnalysisPage",
);
const HistoryPage = page(
  () => import("@/features/history/components/HistoryPage.tsx"),
  "HistoryPage",
);
const LeaderboardPage = page(
  () => import("@/features/leaderboard/components/LeaderboardPage.tsx"),
  "LeaderboardPage",
);
const PlayerPage = page(() => import("@/features/players/components/PlayerPage.tsx"), "PlayerPage");
const RulesPage = page(() => import("@/features/rules/components/RulesPage.tsx"), "RulesPage");
const PracticePage = page(
  () => import("@/features/practice/components/PracticePage.tsx"),
  "PracticePage",
);

const NAV: { to: string; label: string; section: NavSection }[] = [
  { to: "/games", label: "Play", section: "play" },
  { to: "/practice", label: "Practice", section: "practice" },
  { to: "/leaderboard", label: "Leaderboard", section: "leaderboard" },
  { to: "/history", label: "History", section: "history" },
  { to: "/rules/yahtzee", label: "Rules", section: "rules" },
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
  const { pathname } = useLocation();
  const active = navActive(pathname);
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
            <Link
              key={item.to}
              to={item.to}
              className={`nav__link${item.section === active ? " active" : ""}`}
              aria-current={item.section === active ? "page" : undefined}
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="header__wallet">
          <AlertToggles />
          <WalletButton />
        </div>
      </header>
      <OfflineNotice />
      <NetworkBanner />
      <RematchNotice />
      <TurnAlerts />
      <WhenConnected>
        <SessionKeys />
        <AskAgain />
      </WhenConnected>
      <main id="main" className="main">
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Routes>
            <Route path="/" element={<HomePage />} />
            <Route path="/games" element={<LobbyPage />} />
            <Route path="/games/new" element={<CreateGamePage />} />
            <Route path="/games/:id" element={<GamePage />} />
            <Route path="/games/:id/replay" element={<ReplayPage />} />
            <Route path="/games/:id/analysis" element={<AnalysisPage />} />
            <Route path="/history" element={<HistoryPage />} />
            <Route path="/leaderboard" element={<LeaderboardPage />} />
            <Route path="/players/:address" element={<PlayerPage />} />
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
